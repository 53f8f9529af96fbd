/**
 * Specs that once ended a build with "internal error" and a stack trace: recursive schemas, YAML
 * anchors and aliases (ordinary reuse, a bomb, a cycle) and `$ref` cycles. Recursive data builds
 * with the recursion cut; what cannot be shown is one error naming the spec file, with a fix.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, readRoute, runDocs, snapshotTree, type CliRun } from '../support/site';

/** Writes `files` (name → text) into the fixture's `specs` folder and builds it with `specs/<spec>`. */
function build(files: Record<string, string>, spec: string): { site: string; run: CliRun } {
  const site = copyFixture('openapi');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(site, 'specs', name), text);
  const run = runDocs(['build'], { cwd: site, env: { DOCS_TEST_SPEC: `specs/${spec}` } });
  return { site, run };
}

/** One operation `GET /<name>` (operationId `<name>`) answering 200 with `content`. */
const operation = (name: string, content: string): string => `  /${name}:
    get:
      operationId: ${name}
      responses:
        "200":
          description: ok
          content: {application/json: ${content}}
`;
const schemaRef = (name: string): string => `{schema: {$ref: "#/components/schemas/${name}"}}`;

describe('recursive schemas and reused anchors build', () => {
  let site: string;
  let run: CliRun;
  const page = (slug: string): string => readRoute(join(site, 'dist'), `/guide/api/${slug}`);
  beforeAll(() => {
    const properties = Array.from({ length: 120 }, (_, i) => `        p${i + 1}: *text`).join('\n');
    // Eight levels of a schema whose four properties are each the next level: 4^8 places, no cycle.
    const levels = Array.from({ length: 8 }, (_, level) => `    Level${level}: {type: object, properties: {${['north', 'east', 'south', 'west'].map((name) => `${name}: {$ref: "#/components/schemas/Level${level + 1}"}`).join(', ')}}}`).join('\n');
    const spec = `openapi: 3.0.3
info: {title: Crashes, version: "1"}
x-text: &text {type: string, description: Some text.}
paths:
${operation('allofSelf', schemaRef('SelfAll'))}${operation('allofPair', schemaRef('PairA'))}${operation('itemsSelf', schemaRef('Nested'))}${operation('itemsNullable', schemaRef('MaybeNested'))}${operation('wide', schemaRef('Wide'))}${operation('refExample', '{example: {self: {$ref: "#/paths/~1refExample/get/responses/200/content/application~1json/example"}}}')}${operation('sharedLevels', schemaRef('Level0'))}components:
  schemas:
    SelfAll: {allOf: [{$ref: "#/components/schemas/SelfAll"}], properties: {name: {type: string}}}
    PairA: {allOf: [{$ref: "#/components/schemas/PairB"}], properties: {fromA: {type: string}}}
    PairB: {allOf: [{$ref: "#/components/schemas/PairA"}], properties: {fromB: {type: integer}}}
    Nested: {type: array, items: {$ref: "#/components/schemas/Nested"}}
    MaybeNested: {type: array, nullable: true, items: {$ref: "#/components/schemas/MaybeNested"}}
    Wide:
      type: object
      properties:
${properties}
${levels}
    Level8: {type: string}
`;
    ({ site, run } = build({ 'crashes.yaml': spec }, 'crashes.yaml'));
  }, 60_000);

  it('builds without an error', () => {
    expect(run.stderr).not.toContain('internal error');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('merges an allOf that refers to itself, directly or through another schema, once', () => {
    const self = page('allof-self');
    expect(self).toContain('<code>name</code>');
    const pair = page('allof-pair');
    expect(pair).toContain('<code>fromA</code>');
    expect(pair).toContain('<code>fromB</code>');
  });

  it('shows a schema reused at every level of eight once, each later place pointing back to it (its 4^8 places were a stack overflow)', () => {
    const html = page('shared-levels');
    const text = html.replace(/<[^>]+>/g, '');
    expect(text).toContain('(the same structure as north above)');
    expect(text).toContain('(the same structure as north.north above)');
    expect(html.length).toBeLessThan(400_000);
    // The example names every property of the first level.
    expect(text).toMatch(/"north": \{[\s\S]*"east": \{\},\s*"south": \{\},\s*"west": \{\}/);
  });

  it('labels an array of itself with the recursion cut', () => {
    expect(page('items-self')).toContain('<code>array of (recursive)</code>');
    expect(page('items-nullable')).toContain('<code>array of (recursive)</code>');
  });

  it('reads one anchor used more than 100 times', () => {
    const html = page('wide');
    expect(html).toContain('<code>p1</code>');
    expect(html).toContain('<code>p120</code>');
    expect(html).toContain('Some text.');
  });

  it('shows an example whose $ref points back into itself with the recursion cut', () => {
    const html = page('ref-example');
    expect(html).toContain('self');
    expect(html).toContain('(recursive)');
  });
});

describe('3.1 recursive schemas build', () => {
  it('labels an array of itself that may be null', () => {
    const spec = `openapi: 3.1.0
info: {title: Crashes, version: "1"}
paths:
${operation('itemsNull', schemaRef('Nested'))}components:
  schemas:
    Nested: {type: [array, "null"], items: {$ref: "#/components/schemas/Nested"}}
`;
    const { site, run } = build({ 'nested31.yaml': spec }, 'nested31.yaml');
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(0);
    expect(readRoute(join(site, 'dist'), '/guide/api/items-null')).toContain('<code>array of (recursive)</code>');
  }, 60_000);
});

describe('specs that cannot be shown fail with one error naming the file', () => {
  it('refuses an alias bomb', () => {
    const levels = ['x-l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let level = 1; level <= 9; level++) levels.push(`x-l${level}: &l${level} [${Array(10).fill(`*l${level - 1}`).join(', ')}]`);
    const spec = `openapi: 3.0.3\ninfo: {title: Bomb, version: "1"}\n${levels.join('\n')}\npaths:\n${operation('a', '{}')}`;
    const { run } = build({ 'bomb.yaml': spec }, 'bomb.yaml');
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error specs/bomb.yaml: is not valid YAML: its aliases (*name) expand to more than 10000 copies');
    expect(run.stderr).toContain('fix: use anchors and aliases for ordinary reuse only');
  }, 60_000);

  it('refuses an example that is an alias inside its own anchor, at the alias', () => {
    const spec = `openapi: 3.0.3\ninfo: {title: Cycle, version: "1"}\npaths:\n${operation('a', '{example: &x {self: *x}}')}`;
    const { run } = build({ 'cycle.yaml': spec }, 'cycle.yaml');
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(1);
    const line = spec.split('\n').findIndex((text) => text.includes('*x')) + 1;
    expect(run.stderr).toContain(`error specs/cycle.yaml:${line}:`);
    expect(run.stderr).toContain('#/paths/~1a/get/responses/200/content/application~1json/example/self: has a YAML alias inside its own anchor');
    expect(run.stderr).toContain('fix: write the value out instead of the alias');
  }, 60_000);

  it('refuses a spec whose $refs multiply past what the parser can expand, at once, at the first $ref (twelve levels took it more than a minute)', () => {
    const levels = Array.from({ length: 12 }, (_, level) => `    Level${level}: {type: object, properties: {${['north', 'east', 'south', 'west'].map((name) => `${name}: {$ref: "#/components/schemas/Level${level + 1}"}`).join(', ')}}}`).join('\n');
    const spec = `openapi: 3.0.3\ninfo: {title: Fan, version: "1"}\npaths:\n${operation('fan', schemaRef('Level0'))}components:\n  schemas:\n${levels}\n    Level12: {type: string}\n`;
    const { run } = build({ 'fan.yaml': spec }, 'fan.yaml');
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(1);
    const line = spec.split('\n').findIndex((text) => text.includes('Level0"')) + 1;
    expect(run.stderr).toContain(`error specs/fan.yaml:${line}:`);
    expect(run.stderr).toMatch(/its \$refs expand to more than 50,000,000 values \(#\/components\/schemas\/Level0 alone to [\d,]+\)/);
    expect(run.stderr).toContain('fix: reuse a component at fewer levels');
  }, 60_000);

  it('refuses schemas nested deeper than the parser goes, written out or through $refs, at the place and without a word about options or YAML syntax', () => {
    const nested = (levels: number, key = 'c'): string => `${`{"type":"object","properties":{"${key}":`.repeat(levels)}{"type":"string"}${'}}'.repeat(levels)}`;
    const json = (schema: string, components = ''): string => `{"openapi":"3.0.3","info":{"title":"Deep","version":"1"},"paths":{"/deep":{"get":{"operationId":"deep","responses":{"200":{"description":"ok","content":{"application/json":{"schema":${schema}}}}}}}}${components}}`;
    const chain = Array.from({ length: 300 }, (_, i) => `"L${i}":{"type":"object","properties":{"c":{"$ref":"#/components/schemas/L${i + 1}"}}}`).join(',');
    const cases: [string, string, string, string][] = [
      // Written out, 260 levels (520 keys): past the parser's 500.
      ['written.json', json(nested(260)), 'error specs/written.json:1:', '#/paths/~1deep/get/responses/200/content/application~1json/schema/properties/c/properties/c/properties/c/properties/c: nests more than 500 keys deep from here: the OpenAPI parser follows no deeper'],
      // A chain of 300 components, each the next one's parent.
      ['chain.json', json('{"$ref":"#/components/schemas/L0"}', `,"components":{"schemas":{${chain},"L300":{"type":"string"}}}`), 'error specs/chain.json:1:', '#/paths/~1deep/get/responses/200/content/application~1json/schema: nests more than 500 keys deep from here once its $refs are followed'],
      // A key the pointer cannot percent-decode.
      ['percent.json', json(nested(260, '100%')), 'error specs/percent.json:1:', '#/paths/~1deep/get/responses/200/content/application~1json/schema/properties/100%/properties/100%/properties/100%/properties/100%: nests more than 500 keys deep'],
      // 2,000 levels: past what the YAML parser's recursion holds.
      ['deeper.json', json(nested(2000)), 'error specs/deeper.json:1:', 'nests too deeply to be read: hundreds of objects or lists inside one another at this place'],
    ];
    for (const [name, text, at, message] of cases) {
      const { run } = build({ [name]: text }, name);
      expect(run.stderr, name).not.toContain('internal error');
      expect(run.code, name).toBe(1);
      expect(run.stderr, name).toContain(at);
      expect(run.stderr, name).toContain(message);
      expect(run.stderr, name).not.toMatch(/maxDepth|not valid YAML|Maximum call stack/);
    }
  }, 120_000);

  it('refuses a $ref cycle across files with no schema in it', () => {
    const spec = `openapi: 3.0.3\ninfo: {title: Loop, version: "1"}\npaths:\n${operation('a', schemaRef('A'))}components:\n  schemas:\n    A: {$ref: ./loop-a.yaml}\n`;
    const { run } = build({ 'loop.yaml': spec, 'loop-a.yaml': '$ref: ./loop-b.yaml\n', 'loop-b.yaml': '$ref: ./loop-a.yaml\n' }, 'loop.yaml');
    expect(run.stderr).not.toContain('internal error');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error specs/loop.yaml:');
    expect(run.stderr).toContain('$ref cycle with no schema in it: specs/loop-a.yaml → specs/loop-b.yaml → specs/loop-a.yaml');
  }, 60_000);
});

describe('a spec file the config names wrongly', () => {
  it('is a config error naming the setting, for a folder, a pipe, a file outside the site and a missing file, output untouched', () => {
    const site = copyFixture('openapi');
    const first = runDocs(['build'], { cwd: site });
    expect(first.code, first.stderr).toBe(0);
    const output = snapshotTree(join(site, 'dist'));
    // A pipe was read for ever: the build hung.
    execFileSync('mkfifo', [join(site, 'specs', 'pipe.yaml')]);
    const outside = join(mkdtempSync(join(tmpdir(), 'docs-outside-')), 'private.yaml');
    writeFileSync(outside, readFileSync(join(site, 'specs', 'api.yaml')));
    const cases: [spec: string, says: string][] = [
      ['specs', 'names a folder, not a spec file (specs)'],
      ['specs/pipe.yaml', 'names something that is not a file (specs/pipe.yaml: a pipe, socket or device)'],
      [outside, `names a spec file outside the site's folder (${outside})`],
      [relative(site, outside), `names a spec file outside the site's folder (${relative(site, outside)})`],
      ['specs/nope.yaml', 'names the missing spec file specs/nope.yaml'],
    ];
    for (const [spec, says] of cases) {
      const run = runDocs(['build'], { cwd: site, env: { DOCS_TEST_SPEC: spec }, timeout: 60_000 });
      expect(run.code, `${spec}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain('error site.config.ts');
      expect(run.stderr).toContain('/openapi/0/file');
      expect(run.stderr).toContain(says);
      expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
      expect(snapshotTree(join(site, 'dist'))).toEqual(output);
    }
  }, 120_000);
});
