/**
 * Diagram boxes reserved at build time (issue 15): mermaid parses the fence in Node and the layout is
 * estimated the way mermaid draws it. How close the estimate is to the drawing is checked in Chromium
 * (test/e2e/diagrams.test.ts); here, that each kind gets a box that follows its shape, and that a
 * diagram mermaid cannot parse is reported at its line.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { estimateDiagram, type DiagramBox } from '../../../../../cli/build/markdown/diagrams';
import { textWidth, wrapLabel } from '../../../../../cli/build/markdown/label-metrics';
import { createMarkdownRenderer, type MarkdownRenderer } from '../../../../../cli/build/markdown/index';

async function box(source: string): Promise<DiagramBox> {
  const estimate = await estimateDiagram(source);
  if (!('box' in estimate)) throw new Error(`no box: ${estimate.error}`);
  return estimate.box;
}

const chain = (direction: string, count: number): string =>
  `flowchart ${direction}\n${Array.from({ length: count - 1 }, (_, i) => `  n${i}["Step ${i}"] --> n${i + 1}["Step ${i + 1}"]`).join('\n')}\n`;

describe('diagram boxes', () => {
  it('measures text with a sans-serif table and wraps labels at spaces', () => {
    expect(textWidth('iiii')).toBeLessThan(textWidth('MMMM') / 2);
    expect(textWidth('Publisher', 16)).toBeGreaterThan(60);
    expect(textWidth('Publisher', 16)).toBeLessThan(90);
    expect(wrapLabel('Solder USB-C and battery connector', 120)).toEqual(['Solder USB-C', 'and battery', 'connector']);
    expect(wrapLabel('Solder USB-C and battery connector', 240)).toEqual(['Solder USB-C and battery', 'connector']);
    // A word wider than the line stays whole, on its own line; <br> breaks.
    expect(wrapLabel('Create NotificationDelivery rows', 120)).toEqual(['Create', 'NotificationDelivery', 'rows']);
    expect(wrapLabel('one<br/>two', 120)).toEqual(['one', 'two']);
  });

  it('lays a flowchart out along its direction, as mermaid does (152 px nodes, 50 px apart)', async () => {
    const across = await box(chain('LR', 4));
    const down = await box(chain('TD', 4));
    expect(across.width).toBeGreaterThan(across.height * 3);
    expect(down.height).toBeGreaterThan(down.width);
    // Four 152 px nodes with three 50 px gaps and 8 px margins: 774 px (mermaid draws 774 here too).
    expect(across.width).toBeGreaterThan(700);
    expect(across.width).toBeLessThan(850);
    // A fifth node adds one node and one gap.
    const longer = await box(chain('LR', 5));
    expect(longer.width - across.width).toBeGreaterThan(180);
    expect(longer.width - across.width).toBeLessThan(220);
  });

  it('makes nodes with long labels taller, not wider, and diamonds and cylinders larger than boxes', async () => {
    const short = await box('flowchart TD\n  a["Publisher"]\n');
    const long = await box('flowchart TD\n  a["Library bend detour, Ladeuze bar (st-bocht2, 325 m)"]\n');
    expect(long.width).toBe(short.width);
    expect(long.height).toBeGreaterThanOrEqual(short.height + 3 * 24);
    const diamond = await box('flowchart TD\n  a{"QA sign-off"}\n');
    const cylinder = await box('flowchart TD\n  a[("PostgreSQL")]\n');
    expect(diamond.height).toBeGreaterThan(short.height * 2);
    expect(cylinder.height).toBeGreaterThan(short.height);
  });

  it('puts a subgraph and its title round its nodes', async () => {
    const plain = await box('flowchart LR\n  a --> b\n');
    const grouped = await box('flowchart LR\n  subgraph g["Cluster nodes"]\n    a --> b\n  end\n');
    expect(grouped.height).toBeGreaterThan(plain.height);
    expect(grouped.width).toBeGreaterThanOrEqual(plain.width);
  });

  it('sizes sequence diagrams by participants and messages', async () => {
    const two = await box('sequenceDiagram\n  participant App\n  participant API\n  App->>API: POST /api/login\n  API-->>App: 200\n');
    const three = await box('sequenceDiagram\n  participant App\n  participant API\n  participant DB\n  App->>API: POST /api/login\n  API-->>App: 200\n');
    const more = await box('sequenceDiagram\n  participant App\n  participant API\n  App->>API: POST /api/login\n  API-->>App: 200\n  App->>API: GET /api/me\n  API-->>App: 200\n');
    expect(three.width - two.width).toBeGreaterThan(150);
    expect(more.height - two.height).toBeGreaterThan(60);
    expect(more.width).toBe(two.width);
    // A long message between neighbours pushes them apart.
    const wide = await box(`sequenceDiagram\n  App->>API: ${'a long message naming every field '.repeat(3)}\n`);
    expect(wide.width).toBeGreaterThan(two.width + 200);
  });

  it('sizes state diagrams, git graphs and kinds without a rule of their own', async () => {
    const state = await box('stateDiagram-v2\n  [*] --> pending\n  pending --> paid: payment paid\n  paid --> [*]\n');
    expect(state.height).toBeGreaterThan(state.width);
    const git = await box('gitGraph\n  commit\n  branch fix\n  checkout fix\n  commit\n  checkout main\n  merge fix\n');
    expect(git.width).toBeGreaterThan(git.height);
    const pie = await box('pie title Pets\n  "Dogs" : 386\n  "Cats" : 85\n');
    expect(pie.width).toBeGreaterThan(0);
    expect(pie.height).toBeGreaterThan(0);
  });

  it('reports a diagram mermaid cannot parse, with the line of the mistake', async () => {
    const estimate = await estimateDiagram('flowchart TD\n  A --> B\n  B -- broken -->\n');
    expect(estimate).toMatchObject({ line: 3 });
    expect('error' in estimate && estimate.error).toMatch(/^Expecting .*got 'EOF'$/);
    expect(await estimateDiagram('notADiagram\n  a -> b\n')).toMatchObject({ error: expect.stringMatching(/No diagram type detected/) });
  });
});

describe('diagram boxes in the page', () => {
  let renderer: MarkdownRenderer;
  beforeAll(async () => {
    renderer = await createMarkdownRenderer({ codeTheme: 'github-dark', highlightLanguages: [], toc: { minLevel: 2, maxLevel: 3 }, displayPrefix: 'content/', routeOfFile: { 'a.md': '/a' } });
  });
  const render = (body: string) => renderer.render({ rel: 'a.md', body, resolveImage: () => undefined, resolveFile: () => undefined });

  it('writes the reserved box on the diagram frame, around the source', async () => {
    const out = await render(`Intro\n\n\`\`\`mermaid\n${chain('LR', 3)}\`\`\`\n\nAfter.\n`);
    const match = /<div class="mermaid" tabindex="0"><div class="mermaid-frame" data-mermaid="" style="aspect-ratio:(\d+)\/(\d+);max-width:(\d+)px;min-width:(\d+)px">flowchart LR/.exec(out.html);
    expect(match).not.toBeNull();
    const [, width, height, max, min] = match!.map(Number);
    expect(max).toBe(width);
    // Never scaled below three quarters: a wider diagram scrolls in its frame.
    expect(min).toBe(Math.round(width! * 0.75));
    expect(width! / height!).toBeGreaterThan(3);
    expect(out.hasMermaid).toBe(true);
    expect(out.warnings).toEqual([]);
  });

  it('warns about a diagram that does not parse, at its line in the page, and reserves no box for it', async () => {
    const out = await render('Intro\n\n```mermaid\nflowchart TD\n  A --> B\n  B -- broken -->\n```\n');
    expect(out.warnings).toEqual([expect.objectContaining({ file: 'content/a.md', line: 6, message: expect.stringMatching(/^this diagram does not parse: Expecting .*got 'EOF'$/) })]);
    expect(out.html).toContain('<div class="mermaid-frame" data-mermaid="">flowchart TD');
  });
});
