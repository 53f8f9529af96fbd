/**
 * The render worker's mermaid copies its configuration with `copyMermaidConfig` instead of mermaid's
 * general merge (bin/ensure-built.mjs `fastMermaidConfig`): the copy must be the very object mermaid
 * makes, and the compiled worker must really carry it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MERMAID_GET_CONFIG } from '../../../../../bin/ensure-built.mjs';
import { copyMermaidConfig } from '../../../../../cli/build/markdown/mermaid-config';

interface MermaidConfigApi {
  mermaidAPI: { reset(): void; getConfig(): Record<string, unknown> };
  initialize(config: object): void;
}

async function loadMermaid(): Promise<MermaidConfigApi> {
  // As cli/build/markdown/diagrams.ts loads it: DOMPurify needs a window, and only its presence matters here.
  const purify = (await import('dompurify')).default as unknown as Record<string, unknown>;
  if (typeof purify.sanitize !== 'function') Object.assign(purify, { sanitize: String, addHook: () => undefined, removeHook: () => undefined, removeHooks: () => undefined, removeAllHooks: () => undefined });
  return (await import('mermaid')).default as unknown as MermaidConfigApi;
}

type Merge = (target: Record<string, unknown>, source: Record<string, unknown>) => Record<string, unknown>;

/** Mermaid's chunk that holds its configuration code, as installed. */
function mermaidConfigChunk(): string {
  const chunks = join(dirname(createRequire(import.meta.url).resolve('mermaid')), 'chunks', 'mermaid.core');
  const found = readdirSync(chunks).filter((name) => name.endsWith('.mjs')).map((name) => readFileSync(join(chunks, name), 'utf8')).filter((text) => text.includes(MERMAID_GET_CONFIG));
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** Mermaid's own `assignWithDepth`, taken from its code as installed (it is not exported). */
function mermaidMerge(): Merge {
  const text = mermaidConfigChunk();
  const start = text.indexOf('var assignWithDepth = /* @__PURE__ */ __name(');
  const end = text.indexOf('}, "assignWithDepth");', start);
  expect(start).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return new Function('__name', `${text.slice(start, end)}}, "assignWithDepth");\nreturn assignWithDepth;`)((f: unknown) => f) as Merge;
}

describe("the render worker's copy of mermaid's configuration", () => {
  it("is the object mermaid's own merge makes: nulls left out, arrays without repeats, three levels copied, deeper ones shared", () => {
    const assignWithDepth = mermaidMerge();
    const deep = { shared: ['x'] };
    const source = {
      theme: 'dark',
      dropped: null,
      list: ['a', 'b', 'a'],
      format: (value: number) => value * 2,
      probe: { nodeSpacing: 50, curve: null, order: [3, 1, 3], label: { wrap: true, deep, none: null, twice: [1, 1] } },
    };
    const theirs = assignWithDepth({}, source);
    const ours = copyMermaidConfig(source);
    expect(ours).toEqual(theirs);
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    expect(ours).not.toHaveProperty('dropped');
    expect(ours.list).toEqual(['a', 'b']);
    const probe = ours.probe as typeof source.probe;
    expect(probe).not.toHaveProperty('curve');
    expect(probe.order).toEqual([3, 1]);
    // The third level is a new object holding the same values (null and repeats too); the fourth is shared.
    expect(probe.label).not.toBe(source.probe.label);
    expect(probe.label).toEqual({ wrap: true, deep, none: null, twice: [1, 1] });
    expect(probe.label.deep).toBe(deep);
    expect((theirs.probe as typeof source.probe).label.deep).toBe(deep);
    expect(ours.format).toBe(source.format);
  });

  it("is the same as mermaid's for its full default configuration, and a caller's change stays in its copy", async () => {
    const mermaid = await loadMermaid();
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'forest', flowchart: { nodeSpacing: 70 } });
    mermaid.mermaidAPI.reset();
    const current = mermaid.mermaidAPI.getConfig();
    const copy = copyMermaidConfig(current);
    expect(copy).toEqual(mermaidMerge()({}, current));
    expect(copy).toEqual(mermaid.mermaidAPI.getConfig());
    (copy.flowchart as Record<string, unknown>).nodeSpacing = 1;
    (copy.themeVariables as Record<string, unknown>).primaryColor = 'red';
    expect(copyMermaidConfig(current)).toEqual(mermaid.mermaidAPI.getConfig());
    expect((copyMermaidConfig(current).flowchart as Record<string, unknown>).nodeSpacing).toBe(70);
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
  });

  it('is what the compiled worker calls: the mermaid installed has the getConfig it replaces', () => {
    // Were mermaid's text different (a new version), the worker would bundle it as published and slower.
    mermaidConfigChunk();
    // The compiled CLI is made by the test setup (test/support/global-setup.ts).
    const worker = join(process.cwd(), 'node_modules', '.cache', 'docs', 'cli', 'worker');
    const compiled = readdirSync(worker).filter((name) => name.endsWith('.mjs')).map((name) => readFileSync(join(worker, name), 'utf8'));
    expect(compiled.filter((text) => text.includes('__name(() => copyMermaidConfig(currentConfig), "getConfig")'))).toHaveLength(1);
    expect(compiled.some((text) => text.includes('return assignWithDepth_default({}, currentConfig);'))).toBe(false);
  });
});
