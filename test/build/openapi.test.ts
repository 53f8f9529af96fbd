import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../runtime/manifest';
import { copyFixture, readRoute, REPO, runDocs, type CliRun } from '../support/site';

const EXAMPLES = join(REPO, 'node_modules', '@readme', 'oas-examples', '3.0', 'json');

describe('API reference of the portal', () => {
  let dist: string;
  let manifest: Manifest;
  beforeAll(() => {
    dist = join(mkdtempSync(join(tmpdir(), 'docs-api-')), 'dist');
    const run = runDocs(['build', '--out', dist]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')) as Manifest;
  });

  it('generates every route of the three specs', () => {
    const routes = new Set(manifest.routes.map((route) => route.path));
    const expected = [
      '/backend/api/user-authentication',
      ...['user-login', 'user-registration', 'send-password-reset-email', 'reset-password', 'change-password', 'delete-user', 'query-graph-ql'].map((slug) => `/backend/api/user-authentication/${slug}`),
      '/backend/api/cp-authentication/backend-cp-api-specification',
      '/backend/api/cp-authentication/push-data-to-backend',
      '/24urenloop/api',
    ];
    for (const route of expected) expect(routes.has(route), route).toBe(true);
    expect([...routes].filter((route) => route.startsWith('/24urenloop/api/')).length).toBeGreaterThanOrEqual(8);
  });

  it('shows method and path, the request body tree, every response with its example, security and four code tabs', () => {
    const html = readRoute(dist, '/backend/api/user-authentication/user-login');
    expect(html).toContain('<div class="api-endpoint" data-method="post" data-path="/api/login" data-operation="userLogin"><span class="api-badge api-badge-post">POST</span><code>/api/login</code></div>');
    expect(html).toMatch(/<h3 id="request-body">/);
    for (const field of ['email', 'password', 'otp_attempt']) expect(html).toContain(`<code>${field}</code>`);
    expect(html).toMatch(/<h3 id="200-ok">/);
    expect(html).toMatch(/<h3 id="401-unauthorized">/);
    expect(html).toContain('need_otp');
    expect(html).toMatch(/<h2 id="security">/);
    // Only the selected tab is in the Tab order (the arrow keys reach the others).
    const tabs = [...html.matchAll(/<button type="button" class="tab" role="tab" aria-selected="(true|false)" tabindex="(0|-1)" data-tab="([a-z]+)">/g)].map((match) => match.slice(1).join(' '));
    expect(tabs).toEqual(['true 0 curl', 'false -1 ruby', 'false -1 nodejs', 'false -1 python']);
    expect(html).toContain('href="https://git.quad.example/quad/docs/edit/master/specs/user-authentication.yaml"');
    // The TOC lists the sections.
    const data = JSON.parse(/<script type="application\/json" id="__DOCS_DATA__">(.*?)<\/script>/s.exec(html)![1]!) as { page: { toc: { id: string }[]; hasTabs: boolean } };
    expect(data.page.toc.map((entry) => entry.id)).toEqual(expect.arrayContaining(['request', 'request-body', 'responses', '200-ok', '401-unauthorized', 'security', 'code-samples']));
    expect(data.page.hasTabs).toBe(true);
  });

  it('groups parameters by location, explains oneOf, marks deprecated operations', () => {
    const team = readRoute(dist, '/24urenloop/api/get-team');
    expect(team).toMatch(/<h3 id="path-parameters">/);
    expect(team).toMatch(/<td><code>teamId<\/code><\/td><td><code>[^<]+<\/code><\/td><td>required<\/td>/);
    const push = readRoute(dist, '/backend/api/cp-authentication/push-data-to-backend');
    expect(push).toContain('Exactly one of these, chosen by <code>type</code>');
    const scoreboard = readRoute(dist, '/24urenloop/api/get-scoreboard');
    expect(scoreboard).toContain('admonition-danger');
    expect(scoreboard).toContain('This operation is deprecated');
  });

  it("says what each item of a list must be, and how a list is written in the query string", () => {
    const beacons = readRoute(dist, '/24urenloop/api/list-beacons');
    expect(beacons).toContain('each one of: <code>&quot;active&quot;</code>, <code>&quot;spare&quot;</code>, <code>&quot;lost&quot;</code>, <code>&quot;retired&quot;</code>');
    expect(beacons).toContain('sent as <code>status=active,spare</code>');
    const push = readRoute(dist, '/backend/api/cp-authentication/push-data-to-backend');
    expect(push).toMatch(/<code>allergens<\/code> <code>array of string<\/code> · no repeated items · each one of: <code>&quot;gluten&quot;<\/code>/);
    expect(push).toContain('a multiple of 0.01');
    expect(push).not.toContain('nested further');
    expect(readRoute(dist, '/24urenloop/api/create-team')).toContain('each pattern <code>^bcn-[0-9]{3}$</code>');
  });

  it('says on each overview what the API needs by default and each scheme once, joins no requirement\'s sentences with "and", marks a deprecated operation once, and shows the license', () => {
    const text = (html: string): string => html.replace(/<[^>]+>/g, '');
    const section = (html: string, id: string): string => new RegExp(`<h2 id="${id}">.*?(?=<h2 |</article>|$)`, 's').exec(html)?.[0] ?? '';
    const users = readRoute(dist, '/backend/api/user-authentication');
    const usersSecurity = text(section(users, 'security-schemes'));
    // Three of its seven operations need the token headers: the overview does not say anyone may call "this operation".
    expect(usersSecurity).not.toContain('anyone may call');
    expect(usersSecurity).toContain('No authentication by default: 3 of the 7 operations need it, as their pages say.');
    expect(usersSecurity).toContain('Schemes this API defines:');
    for (const [route, scheme] of [['/24urenloop/api', 'operatorJwt'], ['/backend/api/cp-authentication/backend-cp-api-specification', 'providerToken']] as const) {
      const security = section(readRoute(dist, route), 'security-schemes');
      expect(security.split(`<strong>${scheme}</strong>`).length - 1, `${scheme} on ${route}`).toBe(1);
      expect(text(security)).toContain('Unless its page says otherwise, an operation needs this:');
      expect(security).not.toContain('Schemes this API defines');
    }
    expect(text(section(readRoute(dist, '/24urenloop/api'), 'security-schemes'))).toContain('5 of the 13 operations need no authentication.');
    // A requirement of three schemes: a lead-in and one list item per scheme, not "…uid. and client: …".
    const deleteUser = section(readRoute(dist, '/backend/api/user-authentication/delete-user'), 'security');
    expect(text(deleteUser)).not.toMatch(/\.\s+and\s/);
    expect(deleteUser).toMatch(/<p>All of these together:<\/p>\s*<ul>\s*<li><strong>accessToken<\/strong>[^]*?<\/li>\s*<li><strong>client<\/strong>[^]*?<\/li>\s*<li><strong>uid<\/strong>[^]*?<\/li>\s*<\/ul>/);
    // The summary already ends with "(deprecated)": the listing does not add it again.
    const scoreboard = /<li><a href="\/24urenloop\/api\/get-scoreboard">.*?<\/li>/.exec(readRoute(dist, '/24urenloop/api'))![0];
    expect(text(scoreboard)).toBe('GET /scoreboard — Get the scoreboard (deprecated)');
    for (const route of ['/backend/api/user-authentication', '/24urenloop/api', '/backend/api/cp-authentication/backend-cp-api-specification']) {
      expect(section(readRoute(dist, route), 'license'), route).toContain('<a href="https://opensource.org/licenses/MIT" target="_blank" rel="noopener noreferrer">MIT</a>');
    }
  });

  it('lists operations in the sidebar grouped by tag, with method badges', () => {
    const html = readRoute(dist, '/backend/api/user-authentication/user-login');
    expect(html).toMatch(/<span class="sidebar-category-label">Session<\/span><ul[^>]*><li class="sidebar-item"><a class="sidebar-link api-method api-method-post active" href="\/backend\/api\/user-authentication\/user-login" aria-current="page">/);
    expect(html).toContain('class="sidebar-link api-method api-method-delete" href="/backend/api/user-authentication/delete-user"');
  });
});

describe('public specs', () => {
  for (const [name, file] of [
    ['Swagger Petstore', 'petstore.json'],
    ['the Star Trek API (STAPI)', 'star-trek.json'],
  ] as const) {
    it(`builds ${name} from @readme/oas-examples without an error`, () => {
      const site = copyFixture('openapi');
      copyFileSync(join(EXAMPLES, file), join(site, 'specs', 'api.json'));
      const spec = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
      const operations = Object.values(spec.paths).flatMap((item) => Object.keys(item).filter((key) => ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'].includes(key))).length;
      const started = performance.now();
      const run = runDocs(['build'], { cwd: site, env: { DOCS_TEST_SPEC: 'specs/api.json' } });
      const seconds = (performance.now() - started) / 1000;
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const manifest = JSON.parse(readFileSync(join(site, 'dist', 'manifest.json'), 'utf8')) as Manifest;
      // The guide page, the info page and one page per operation.
      expect(manifest.routes.length).toBe(2 + operations);
      console.log(`${name}: ${operations} operations built in ${seconds.toFixed(2)} s`);
    });
  }
});

describe('operation pages whose names clash or vanish', () => {
  it('gives every operation a page of its own, and fills the servers\' variables in the samples', () => {
    const site = copyFixture('openapi');
    writeFileSync(
      join(site, 'specs', 'names.yaml'),
      [
        'openapi: 3.0.3',
        'info: {title: Timing, version: "1"}',
        'servers:',
        '  - url: "https://{env}.timing.quad.example/v1"',
        '    variables: {env: {default: live, enum: [live, test], description: the race or a rehearsal}}',
        'paths:',
        '  /teams:',
        '    get: {operationId: チーム一覧, responses: {"200": {description: ok}}}',
        '  /laps:',
        '    get: {summary: List laps, responses: {"200": {description: ok}}}',
        '    post: {summary: List laps, responses: {"200": {description: ok}}}',
        '  /users/{id}:',
        '    parameters: [{name: id, in: path, required: true, schema: {type: string}}]',
        '    get: {operationId: getUser, responses: {"200": {description: ok}}}',
        '    put: {operationId: get_user, responses: {"200": {description: ok}}}',
        '  /:',
        '    get: {operationId: index, responses: {"200": {description: ok}}}',
        '    head: {operationId: "!!", responses: {"200": {description: ok}}}',
        '  /ports:',
        '    get: {operationId: aux, tags: [Con], responses: {"200": {description: ok}}}',
      ].join('\n'),
    );
    // (An operationId of only Japanese or punctuation, two alike summaries, `index`: "the route is already taken by content/guide/api/.md";
    // an operationId Windows keeps for a device, `aux`: a route no build may write, named in a generated file.)
    const run = runDocs(['build'], { cwd: site, env: { DOCS_TEST_SPEC: 'specs/names.yaml' } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(site, 'dist', 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.routes.map((route) => route.path).filter((path) => path.startsWith('/guide/api')).sort()).toEqual(
      ['', '/get-teams', '/list-laps', '/list-laps-post-laps', '/get-user', '/get-user-put-users-id', '/index-get', '/head', '/aux-get-ports'].map((slug) => `/guide/api${slug}`).sort(),
    );
    const overview = readRoute(join(site, 'dist'), '/guide/api');
    expect(overview).toContain('<code>{env}</code>: <code>live</code> by default, one of <code>live</code>, <code>test</code> — the race or a rehearsal');
    expect(readRoute(join(site, 'dist'), '/guide/api/get-teams')).toContain('https://live.timing.quad.example/v1/teams');
  });
});

describe('an API with nothing to call yet', () => {
  it('builds its overview without an empty "Security schemes" section', () => {
    const site = copyFixture('openapi');
    writeFileSync(join(site, 'specs', 'empty.yaml'), 'openapi: 3.0.3\ninfo: {title: Timing, version: "1", description: The timing API; its first operations come with the next race.}\npaths: {}\n');
    const run = runDocs(['build'], { cwd: site, env: { DOCS_TEST_SPEC: 'specs/empty.yaml' } });
    expect(run.code).toBe(0);
    const overview = readRoute(join(site, 'dist'), '/guide/api');
    expect(overview).toContain('its first operations come with the next race');
    expect(overview).not.toContain('Security schemes');
  });
});

describe('tags and contact details that would clash with markdown', () => {
  it('keeps tags apart that differ only in case, and shows a contact address of any characters as a link', () => {
    const site = copyFixture('openapi');
    writeFileSync(
      join(site, 'specs', 'tags.yaml'),
      [
        'openapi: 3.0.3',
        'info:',
        '  title: Timing',
        '  version: "1"',
        '  contact: {name: "Race *control*", email: "race>desk@quad.example", url: "https://quad.example/race desk"}',
        'tags: [{name: Users}, {name: users}]',
        'paths:',
        '  /users:',
        '    get: {operationId: listUsers, tags: [Users], responses: {"200": {description: ok}}}',
        '  /accounts:',
        '    get: {operationId: listAccounts, tags: [users], responses: {"200": {description: ok}}}',
      ].join('\n'),
    );
    // (The two tags shared one folder: one label, and since the category files, a second _category_.json for it.)
    const run = runDocs(['build'], { cwd: site, env: { DOCS_TEST_SPEC: 'specs/tags.yaml' } });
    expect(run.code, run.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(site, 'dist', 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.routes.map((route) => route.path).filter((path) => path.startsWith('/guide/api/')).sort()).toEqual(['/guide/api/list-accounts', '/guide/api/list-users']);
    const page = readRoute(join(site, 'dist'), '/guide/api/list-users');
    expect(page).toContain('<span class="sidebar-category-label">Users</span>');
    expect(page).toContain('<span class="sidebar-category-label">users</span>');
    const overview = readRoute(join(site, 'dist'), '/guide/api');
    expect(overview).toContain('<p>Race *control*: <a href="mailto:race%3Edesk@quad.example">race&gt;desk@quad.example</a>, <a href="https://quad.example/race%20desk" target="_blank" rel="noopener noreferrer">https://quad.example/race desk</a></p>');
  });
});

describe('webhooks (OpenAPI 3.1)', () => {
  it('gives each webhook a page, after the tags, saying who sends the request, without code samples', () => {
    const site = copyFixture('openapi');
    writeFileSync(
      join(site, 'specs', 'hooks.yaml'),
      [
        'openapi: 3.1.0',
        'info: {title: Timing, version: "1"}',
        'tags: [{name: Laps}]',
        'paths:',
        '  /laps:',
        '    get: {operationId: listLaps, tags: [Laps], responses: {"200": {description: ok}}}',
        'webhooks:',
        '  newLap:',
        '    post:',
        '      operationId: lapCounted',
        '      summary: A lap was counted',
        '      requestBody:',
        '        content:',
        '          application/json:',
        '            schema: {$ref: "#/components/schemas/Lap"}',
        '      responses:',
        '        "200": {description: Your service took the lap.}',
        'components:',
        '  schemas:',
        '    Lap:',
        '      type: object',
        '      properties:',
        '        team: {type: string, description: The team that ran the lap.}',
      ].join('\n'),
    );
    // (A 3.1 spec's webhooks made no page at all, without a word.)
    const run = runDocs(['build'], { cwd: site, env: { DOCS_TEST_SPEC: 'specs/hooks.yaml' } });
    expect(run.code, run.stderr).toBe(0);
    const dist = join(site, 'dist');
    const hook = readRoute(dist, '/guide/api/lap-counted');
    expect(hook).toContain('<title>A lap was counted | Docs</title>');
    expect(hook).toContain('A webhook: the API sends this request to the URL your service registered for <code>newLap</code>');
    expect(hook).toContain('The team that ran the lap.');
    expect(hook).toContain('Your service took the lap.');
    expect(hook).not.toContain('Code samples');
    expect(hook).toContain('<span class="sidebar-category-label">Webhooks</span>');
    const overview = readRoute(dist, '/guide/api');
    expect(overview).toContain('1 operation · 1 webhook');
    expect(overview.indexOf('<h3 id="laps">')).toBeGreaterThan(0);
    expect(overview.indexOf('<h3 id="laps">')).toBeLessThan(overview.indexOf('<h3 id="webhooks">'));
    expect(readRoute(dist, '/guide/api/list-laps')).toContain('Code samples');
  });
});

describe('what an operation holds besides a plain schema', () => {
  it('shows its callbacks, a parameter described by content, and a `not` schema (each was lost without a word)', () => {
    const site = copyFixture('openapi');
    writeFileSync(
      join(site, 'specs', 'subscribe.yaml'),
      [
        'openapi: 3.0.3',
        'info: {title: Timing, version: "1"}',
        'paths:',
        '  /subscriptions:',
        '    post:',
        '      operationId: subscribe',
        '      summary: Subscribe to race events',
        '      parameters:',
        '        - name: filter',
        '          in: query',
        '          content:',
        '            application/json:',
        '              schema: {type: object, required: [team], properties: {team: {type: integer, description: The team to follow}}}',
        '      requestBody:',
        '        content:',
        '          application/json:',
        '            schema:',
        '              type: object',
        '              properties:',
        '                callbackUrl: {type: string, format: uri}',
        '                id: {not: {type: string}, description: Any identifier but a string}',
        '      callbacks:',
        '        onEvent:',
        "          '{$request.body#/callbackUrl}':",
        '            post:',
        '              summary: A race event happened',
        '              requestBody: {content: {application/json: {schema: {type: object, properties: {eventType: {type: string, description: What happened on the track}}}}}}',
        "              responses: {'204': {description: Your service took the event}}",
        "      responses: {'201': {description: Subscribed}}",
      ].join('\n'),
    );
    const run = runDocs(['build'], { cwd: site, env: { DOCS_TEST_SPEC: 'specs/subscribe.yaml' } });
    expect(run.code, run.stderr).toBe(0);
    const page = readRoute(join(site, 'dist'), '/guide/api/subscribe');
    const text = page.replace(/<[^>]+>/g, '');
    // The callback: its heading in the contents, where it goes, its body and the answer expected.
    expect(page).toMatch(/<h2 id="callbacks">Callbacks/);
    expect(page).toContain('<h3 id="onevent"><code>onEvent</code>');
    expect(text).toContain('POST {$request.body#/callbackUrl} — A race event happened');
    expect(text).toContain('What happened on the track');
    expect(text).toContain('Your service took the event');
    // The parameter: the type of its content's schema, the media type and its fields.
    expect(text).toMatch(/filter\s*object\s*optional\s*written as application\/json; fields: team integer required \(The team to follow\)/);
    // `not`: never "any".
    expect(text).toMatch(/id\s*not string/);
    expect(text).not.toMatch(/id\s*any/);
  });
});

describe('a broken spec', () => {
  it('fails naming the file, the line and the JSON pointer, and writes nothing', () => {
    const site = copyFixture('openapi');
    const run = runDocs(['build'], { cwd: site, env: { DOCS_TEST_SPEC: 'specs/broken.yaml' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("specs/broken.yaml:3:3#/info: must have required property 'version'");
    expect(run.stderr).toContain('fix: correct the spec at that place');
    expect(run.stderr).toContain('Build failed: 1 error; the previous output was left untouched.');
    expect(existsSync(join(site, 'dist'))).toBe(false);
  });

  it('names the line and pointer of the problems the validator words itself: a duplicated operationId, an undeclared path parameter, a bad component name', () => {
    const site = copyFixture('openapi');
    writeFileSync(
      join(site, 'specs/semantic.yaml'),
      "openapi: 3.0.3\ninfo:\n  title: Lap counter\n  version: 1.0.0\npaths:\n  /teams:\n    get:\n      operationId: listTeams\n      responses:\n        '200':\n          description: The teams\n  /teams/{teamId}/laps:\n    get:\n      operationId: listTeams\n      responses:\n        '200':\n          description: The laps of a team\ncomponents:\n  schemas:\n    Lap/Count:\n      type: integer\n",
    );
    const run = runDocs(['build'], { cwd: site, env: { DOCS_TEST_SPEC: 'specs/semantic.yaml' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error specs/semantic.yaml:14:20#/paths/~1teams~1{teamId}~1laps/get/operationId: The operationId `listTeams` is duplicated and must be made unique.');
    expect(run.stderr).toContain("fix: give each operation an operationId of its own (it names the operation's page); the first use is at line 8, /paths/~1teams/get/operationId");
    expect(run.stderr).toMatch(/error specs\/semantic\.yaml:1[34]:\d+#\/paths\/~1teams~1\{teamId\}~1laps\/get: `\/paths\/teams\/\{teamId\}\/laps\/get` is missing path parameter\(s\) for `\{teamId\}`/);
    expect(run.stderr).toContain('with `in: path` and `required: true`');
    expect(run.stderr).toMatch(/error specs\/semantic\.yaml:2[01]:\d+#\/components\/schemas\/Lap~1Count: `\/components\/schemas\/Lap\/Count` has an invalid name/);
    expect(run.stderr).toContain('fix: rename the component to letters, digits, `.`, `-` and `_`, and its `$ref`s with it');
    expect(existsSync(join(site, 'dist'))).toBe(false);
  });

  it('shows the endpoint line of a path that holds a double quote or an ampersand, not the directive as text', () => {
    const site = copyFixture('openapi');
    const spec = join(site, 'specs', 'api.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('  /teams/{teamId}:', "  '/teams/\"{teamId}\"&all':"));
    const run = runDocs(['build'], { cwd: site });
    expect(run.code, run.stderr).toBe(0);
    const html = readRoute(join(site, 'dist'), '/guide/api/get-team');
    expect(html).toContain('<div class="api-endpoint" data-method="get" data-path="/teams/&quot;{teamId}&quot;&amp;all" data-operation="getTeam"><span class="api-badge api-badge-get">GET</span><code>/teams/&quot;{teamId}&quot;&amp;all</code></div>');
    expect(html).not.toContain('::api-endpoint');
  });

  it('titles an operation whose summary is blank by its operationId (the page had an empty title, an error naming a file that does not exist)', () => {
    const site = copyFixture('openapi');
    const spec = join(site, 'specs', 'api.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('summary: Get a team', "summary: '  '"));
    const run = runDocs(['build'], { cwd: site });
    expect(run.code, run.stderr).toBe(0);
    expect(readRoute(join(site, 'dist'), '/guide/api/get-team')).toMatch(/<h1[^>]*>getTeam<\/h1>/);
  });

  it('keeps a parameter table whole when a name or a type holds a | (a 3.1 type list): no cell split, no description lost', () => {
    const site = copyFixture('openapi');
    const spec = join(site, 'specs', 'api.yaml');
    writeFileSync(
      spec,
      readFileSync(spec, 'utf8')
        .replace('openapi: 3.0.3', 'openapi: "3.1.0"')
        .replace('            example: 7\n', '            example: 7\n        - name: "a|b"\n          in: query\n          description: Either a name or a number.\n          schema:\n            type: [string, integer]\n'),
    );
    const run = runDocs(['build'], { cwd: site });
    expect(run.code, run.stderr).toBe(0);
    const html = readRoute(join(site, 'dist'), '/guide/api/get-team');
    expect(html).toMatch(/<tr><td><code>a\|b<\/code><\/td><td><code>string \| integer<\/code><\/td><td>optional<\/td><td>Either a name or a number\.<\/td><\/tr>/);
  });

  it('names the line and column in the spec of a broken link in a description, and the generated page of any other problem', () => {
    const site = copyFixture('openapi');
    const spec = join(site, 'specs', 'api.yaml');
    const text = readFileSync(spec, 'utf8')
      .replace('      summary: Get a team\n', '      summary: Get a team\n      description: "Replaces the old [team list](/reference/getteams)."\n')
      .replace('  description: A small valid spec, so the fixture builds before a test breaks it.', '  description: "```klingon\\nqaStaH nuq?\\n```"');
    writeFileSync(spec, text);
    const run = runDocs(['build'], { cwd: site });
    expect(run.code).toBe(1);
    const line = text.split('\n').findIndex((row) => row.includes('(/reference/getteams)')) + 1;
    const column = text.split('\n')[line - 1]!.indexOf('/reference/getteams') + 1;
    expect(run.stderr).toContain(`error specs/api.yaml:${line}:${column}: broken link → /reference/getteams: no page has the route /reference/getteams`);
    // Once the link is fixed the build passes; the unknown language warns, naming the page it is on.
    writeFileSync(spec, text.replace('(/reference/getteams)', '(/guide/api/get-team)'));
    const fixed = runDocs(['build'], { cwd: site });
    expect(fixed.code).toBe(0);
    expect(fixed.stderr).toMatch(/warning specs\/api\.yaml \(generated page \/guide\/api\): .*klingon/);
  });

  it('validates each of several specs on its own: a valid one first, then two with their own errors, in 3.0 and 3.1', () => {
    // The compiled CLI validates every spec with one validator per OpenAPI version (bin/ensure-built.mjs,
    // `sharedAjv`): what one spec got wrong must be reported for it alone, and a valid one before it changes nothing.
    const site = copyFixture('openapi');
    const broken = readFileSync(join(site, 'specs', 'broken.yaml'), 'utf8');
    writeFileSync(join(site, 'specs', 'no-responses.yaml'), broken.replace('  version', '  versionX').replace(/      responses:\n[\s\S]*$/, '      summary: List the teams\n'));
    writeFileSync(join(site, 'specs', 'v31.yaml'), broken.replace('openapi: 3.0.3', 'openapi: 3.1.0'));
    writeFileSync(
      join(site, 'site.config.ts'),
      [
        "import { fixtureConfig } from '../_shared/config';",
        'export default fixtureConfig({',
        "  sidebars: [{ id: 'guide', label: 'Guide', dir: 'guide' }],",
        "  navbar: [{ label: 'Guide', to: '/guide' }],",
        "  homepage: { doc: 'guide/index' },",
        '  openapi: [',
        "    { file: 'specs/api.yaml', route: '/guide/api', sidebar: 'guide' },",
        "    { file: 'specs/no-responses.yaml', route: '/guide/teams', sidebar: 'guide' },",
        "    { file: 'specs/v31.yaml', route: '/guide/teams-31', sidebar: 'guide' },",
        '  ],',
        '});',
        '',
      ].join('\n'),
    );
    const run = runDocs(['build'], { cwd: site });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain('specs/api.yaml');
    expect(run.stderr).toContain("specs/no-responses.yaml:3:3#/info: must have required property 'version'");
    expect(run.stderr).toMatch(/specs\/no-responses\.yaml:\d+:\d+#\/paths\/~1teams\/get: must have required property 'responses'/);
    expect(run.stderr).toContain("specs/v31.yaml:3:3#/info: must have required property 'version'");
    expect(existsSync(join(site, 'dist'))).toBe(false);
  });
});

describe('a spec split over files', () => {
  /** The fixture with `specs/split.yaml`, whose `$ref`s name files beside it and files those name. */
  const splitSite = (): string => {
    const site = copyFixture('openapi');
    mkdirSync(join(site, 'specs', 'schemas'));
    writeFileSync(
      join(site, 'specs', 'split.yaml'),
      [
        'openapi: 3.0.3',
        'info:',
        '  title: Teams API',
        '  version: 1.0.0',
        'paths:',
        '  /teams/{teamId}:',
        '    get:',
        '      operationId: getTeam',
        '      summary: Get a team',
        '      parameters:',
        "        - $ref: './parameters.yaml#/teamId'",
        '      responses:',
        "        '200':",
        '          description: The team.',
        '          content:',
        '            application/json:',
        '              schema:',
        '                $ref: schemas/team.yaml',
        '',
      ].join('\n'),
    );
    writeFileSync(join(site, 'specs', 'parameters.yaml'), 'teamId:\n  name: teamId\n  in: path\n  required: true\n  description: Number of the team on the lap counter.\n  schema:\n    type: integer\n');
    writeFileSync(join(site, 'specs', 'schemas', 'team.yaml'), "type: object\nrequired: [id]\nproperties:\n  id:\n    type: integer\n  captain:\n    $ref: './member.yaml'\n");
    writeFileSync(join(site, 'specs', 'schemas', 'member.yaml'), 'type: object\nproperties:\n  nickname:\n    type: string\n    description: Shown on the big screen beside the lap count.\n');
    return site;
  };
  const build = (site: string): CliRun => runDocs(['build'], { cwd: site, env: { DOCS_TEST_SPEC: 'specs/split.yaml' } });

  it('reads the files its $refs name, each relative to the file that holds the $ref', () => {
    const site = splitSite();
    const run = build(site);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(site, 'dist', 'manifest.json'), 'utf8')) as Manifest;
    const operation = manifest.routes.find((route) => route.path.startsWith('/guide/api/') && /team/i.test(route.path))!;
    const html = readRoute(join(site, 'dist'), operation.path);
    expect(html).toContain('Number of the team on the lap counter.');
    expect(html).toContain('captain');
    expect(html).toContain('Shown on the big screen beside the lap count.');
  });

  it('refuses an output folder among the files the specs refer to, even with --force', () => {
    const site = splitSite();
    const run = runDocs(['build', '--out', 'specs/schemas', '--force'], { cwd: site, env: { DOCS_TEST_SPEC: 'specs/split.yaml' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cannot be the output folder: it is inside');
    expect(run.stderr).toContain('the folder of an OpenAPI spec');
    expect(readFileSync(join(site, 'specs', 'schemas', 'member.yaml'), 'utf8')).toContain('Shown on the big screen');
  });

  for (const [what, change, expected] of [
    ['a file that does not exist', (site: string) => writeFileSync(join(site, 'specs', 'schemas', 'member.yaml'), "type: object\nproperties:\n  badge:\n    $ref: './badge.yaml'\n"), "specs/schemas/member.yaml:4#/properties/badge/$ref: $ref \"./badge.yaml\" names a file that does not exist (specs/schemas/badge.yaml)"],
    ['a URL', (site: string) => writeFileSync(join(site, 'specs', 'schemas', 'team.yaml'), "type: object\nproperties:\n  captain:\n    $ref: 'https://schemas.example.com/member.yaml'\n"), 'specs/schemas/team.yaml:4#/properties/captain/$ref: $ref "https://schemas.example.com/member.yaml" names a URL: a build never reads the network'],
    // The parser reads a path against a $id above it (JSON Schema's base URI): the message named the URL it made, with no line.
    ['a path below a $id that is a URL', (site: string) => writeFileSync(join(site, 'specs', 'schemas', 'team.yaml'), "$id: https://schemas.quad.example/team.yaml\ntype: object\nproperties:\n  captain:\n    $ref: './member.yaml'\n"), 'specs/schemas/team.yaml:5#/properties/captain/$ref: $ref "./member.yaml" is read against the $id "https://schemas.quad.example/team.yaml" above it, which makes it a URL: a build never reads the network\n  fix: remove that $id (line 1): a $ref is then read beside the file that holds it'],
    ['a file outside the site', (site: string) => {
      writeFileSync(join(site, '..', 'secret.yaml'), 'type: string\ndescription: not for the docs\n');
      writeFileSync(join(site, 'specs', 'schemas', 'team.yaml'), "type: object\nproperties:\n  captain:\n    $ref: '../../../secret.yaml'\n");
    }, 'specs/schemas/team.yaml:4#/properties/captain/$ref: $ref "../../../secret.yaml" names a file outside the site\'s folder'],
    ['a link out of the site', (site: string) => {
      writeFileSync(join(site, '..', 'secret.yaml'), 'type: string\ndescription: not for the docs\n');
      symlinkSync(join(site, '..', 'secret.yaml'), join(site, 'specs', 'schemas', 'linked.yaml'));
      writeFileSync(join(site, 'specs', 'schemas', 'team.yaml'), "type: object\nproperties:\n  captain:\n    $ref: './linked.yaml'\n");
    }, 'specs/schemas/team.yaml:4#/properties/captain/$ref: $ref "./linked.yaml" names a file outside the site\'s folder'],
    ['a page, not a spec', (site: string) => {
      writeFileSync(join(site, 'specs', 'schemas', 'notes.md'), '---\ntitle: Notes\n---\n\n# Notes\n\n---\n\nMore.\n');
      writeFileSync(join(site, 'specs', 'schemas', 'team.yaml'), "type: object\nproperties:\n  captain:\n    $ref: './notes.md'\n");
    }, 'specs/schemas/team.yaml:4#/properties/captain/$ref: $ref "./notes.md" names specs/schemas/notes.md, which is not a YAML or JSON file'],
    ['a file that is not YAML', (site: string) => writeFileSync(join(site, 'specs', 'schemas', 'member.yaml'), 'type: object\nproperties:\n  nickname: [string\n'), 'specs/schemas/member.yaml:4:1: is not valid YAML'],
    ['a file: URL outside the site (named by its path, with no line, before)', (site: string) => {
      writeFileSync(join(site, '..', 'secret.yaml'), 'type: string\ndescription: not for the docs\n');
      writeFileSync(join(site, 'specs', 'schemas', 'team.yaml'), `type: object\nproperties:\n  captain:\n    $ref: '${pathToFileURL(join(site, '..', 'secret.yaml')).href}'\n`);
    }, `specs/schemas/team.yaml:4#/properties/captain/$ref: $ref "file://`],
    ['a path written with backslashes, as on Windows (a path nobody wrote, with no line, before)', (site: string) => writeFileSync(join(site, 'specs', 'schemas', 'team.yaml'), "type: object\nproperties:\n  captain:\n    $ref: '..\\\\schemas\\\\member.yaml'\n"), 'specs/schemas/team.yaml:4:11#/properties/captain/$ref: $ref "..\\\\schemas\\\\member.yaml" separates folders with a backslash: a $ref is a URL, whose folders are separated by /\n  fix: write it with slashes: ../schemas/member.yaml'],
    ['a path written with backslashes in the spec itself', (site: string) => writeFileSync(join(site, 'specs', 'split.yaml'), readFileSync(join(site, 'specs', 'split.yaml'), 'utf8').replace("$ref: './parameters.yaml#/teamId'", "$ref: '.\\parameters.yaml#/teamId'")), 'specs/split.yaml:11:17#/paths/~1teams~1{teamId}/get/parameters/0/$ref: $ref ".\\parameters.yaml#/teamId" separates folders with a backslash: a $ref is a URL, whose folders are separated by /\n  fix: write it with slashes: ./parameters.yaml#/teamId'],
    ['a named pipe (called a folder before)', (site: string) => {
      execFileSync('mkfifo', [join(site, 'specs', 'schemas', 'stream.yaml')]);
      writeFileSync(join(site, 'specs', 'schemas', 'team.yaml'), "type: object\nproperties:\n  captain:\n    $ref: './stream.yaml'\n");
    }, 'specs/schemas/team.yaml:4#/properties/captain/$ref: $ref "./stream.yaml" names a pipe, a socket or a device, not a file'],
  ] as const) {
    it(`fails on a $ref to ${what}, naming the file and line of the $ref, and keeps the output`, () => {
      const site = splitSite();
      expect(build(site).code).toBe(0);
      const before = readFileSync(join(site, 'dist', 'manifest.json'), 'utf8');
      change(site);
      const run = build(site);
      expect(run.stderr).toContain(expected);
      expect(run.stderr).not.toContain('internal error');
      expect(run.stderr).not.toContain('not for the docs');
      expect(run.stderr).toContain('Build failed: 1 error; the previous output was left untouched.');
      expect(run.code).toBe(1);
      expect(readFileSync(join(site, 'dist', 'manifest.json'), 'utf8')).toBe(before);
    });
  }
});

describe('an API reference placed where pages are', () => {
  const config = (site: string, openapi: string): void => {
    const file = join(site, 'site.config.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/openapi: \[.*\],/, `openapi: ${openapi},`));
  };

  it('names the writer\'s page and the setting, never a generated file, and says once when two references share a route', () => {
    const site = copyFixture('openapi');
    mkdirSync(join(site, 'content/guide/api'));
    writeFileSync(join(site, 'content/guide/api/get-team.md'), '---\ntitle: Teams\n---\n\nHow teams are stored.\n');
    let run = runDocs(['build'], { cwd: site });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error content/guide/api/get-team.md: has the route /guide/api/get-team, where the API reference of specs/api.yaml makes a page too');
    expect(run.stderr).toContain('fix: move or rename this page, or give the API reference another route: `openapi[0].route` in site.config.ts');
    expect(run.stderr.match(/^error /gm)).toHaveLength(1);
    rmSync(join(site, 'content/guide/api'), { recursive: true });

    writeFileSync(join(site, 'content/guide/teams.md'), '---\ntitle: Teams\nslug: /guide/api\n---\n\nHow teams are stored.\n');
    run = runDocs(['build'], { cwd: site });
    expect(run.stderr).toContain('error content/guide/teams.md:3: has the route /guide/api (by its `slug` on line 3), where the API reference of specs/api.yaml makes a page too');
    expect(run.stderr).toContain('fix: move or rename this page (or change its `slug`), or give the API reference another route');
    rmSync(join(site, 'content/guide/teams.md'));

    config(site, "[{ file: 'specs/api.yaml', route: '/guide/api', sidebar: 'guide' }, { file: 'specs/api.yaml', route: '/guide/api/', sidebar: 'guide' }]");
    run = runDocs(['build'], { cwd: site });
    expect(run.code).toBe(1);
    expect(run.stderr.match(/^error .*$/gm)).toEqual(['error site.config.ts: the API reference of specs/api.yaml, given twice, makes pages on the same routes (/guide/api/get-team first)']);
    expect(run.stderr).toContain('fix: give each API reference a route of its own: `openapi[0].route`, `openapi[1].route` in site.config.ts');
    expect(existsSync(join(site, 'dist'))).toBe(false);
  });

  it('refuses a route that is the home or outside its sidebar\'s folder as a config error; a writer\'s category file labels the reference\'s folder', () => {
    const site = copyFixture('openapi');
    config(site, "[{ file: 'specs/api.yaml', route: '/', sidebar: 'guide' }]");
    let run = runDocs(['build'], { cwd: site });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error site.config.ts: `openapi[0].route` "/" is the site\'s home: an API reference needs a folder of its own for its pages');
    expect(run.stderr).toContain('fix: give it a route below its sidebar\'s folder, e.g. "/guide/api"');
    expect(run.stderr).not.toContain('content//');
    config(site, "[{ file: 'specs/api.yaml', route: '/reference/api', sidebar: 'guide' }]");
    run = runDocs(['build'], { cwd: site });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('`openapi[0].route` "/reference/api" is not below the folder of its sidebar "guide" (guide/), so its pages would be in no sidebar');

    config(site, "[{ file: 'specs/api.yaml', route: '/guide/api', sidebar: 'guide' }]");
    mkdirSync(join(site, 'content/guide/api'));
    writeFileSync(join(site, 'content/guide/api/_category_.json'), '{ "label": "Teams API", "position": 2 }\n');
    run = runDocs(['build'], { cwd: site });
    expect(run.code, run.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(site, 'dist/manifest.json'), 'utf8')) as { sidebars: Record<string, { label: string; items?: unknown[] }[]> };
    expect(manifest.sidebars.guide!.map((item) => item.label)).toContain('Teams API');
  });
});
