import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, readRoute, runDocs, snapshotTree } from '../support/site';

/** A rebuild that reads and collects the content, instead of taking what the last build kept, fails when the tests ask. */
const takeKept = { env: { DOCS_TEST_CONTENT_KEPT: '1' } };

/** The output of a build from nothing (no cache, a folder of its own) of the site as it is now. */
function fromNothing(site: string): Map<string, string> {
  const out = join(site, 'from-nothing');
  expect(runDocs(['build', '--root', site, '--no-cache', '--out', out]).code).toBe(0);
  const tree = snapshotTree(out);
  rmSync(out, { recursive: true, force: true });
  return tree;
}

/** A built copy of the basic fixture. */
function builtSite(): { site: string; dist: string; page: (rel: string) => string } {
  const site = copyFixture('basic');
  expect(runDocs(['build', '--root', site]).code).toBe(0);
  return { site, dist: join(site, 'dist'), page: (rel) => join(site, 'content', rel) };
}

describe('a rebuild after page files were edited', () => {
  it('takes the content the last build collected when only page bodies changed, and builds what a build from nothing builds', () => {
    const { site, dist, page } = builtSite();
    const faq = readFileSync(page('guide/faq.md'), 'utf8');
    appendFileSync(page('guide/faq.md'), '\nCaches are kept in node_modules/.cache/docs.\n');
    const first = runDocs(['build', '--root', site], takeKept);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/Built 6 pages in [\d.]+ s \(5 from cache\)/);
    expect(readRoute(dist, '/guide/faq')).toContain('Caches are kept in node_modules/.cache/docs.');
    expect(snapshotTree(dist)).toEqual(fromNothing(site));
    // Another page next: the first one, edited since the content was kept, is taken as the last build read it.
    writeFileSync(page('guide/install.md'), readFileSync(page('guide/install.md'), 'utf8').replace('Install the backend before anything else.', 'Install the backend before anything else, with Ruby 3.3.'));
    const second = runDocs(['build', '--root', site], takeKept);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/\(5 from cache\)/);
    expect(readRoute(dist, '/guide/install')).toContain('with Ruby 3.3.');
    expect(snapshotTree(dist)).toEqual(fromNothing(site));
    // And the first page put back as it was.
    writeFileSync(page('guide/faq.md'), faq);
    expect(runDocs(['build', '--root', site], takeKept).code).toBe(0);
    expect(readRoute(dist, '/guide/faq')).not.toContain('Caches are kept');
    expect(snapshotTree(dist)).toEqual(fromNothing(site));
  });

  it('reads and collects the content again when an edit changes what pages show, or anything but a page file changed', () => {
    const changes: [what: string, change: (site: string) => void][] = [
      ['a title', (site) => writeFileSync(join(site, 'content/guide/zebra.md'), readFileSync(join(site, 'content/guide/zebra.md'), 'utf8').replace('title: Zebra', 'title: Zebras'))],
      ['a sidebar position', (site) => writeFileSync(join(site, 'content/guide/zebra.md'), readFileSync(join(site, 'content/guide/zebra.md'), 'utf8').replace('title: Zebra', 'title: Zebra\nsidebar_position: 0'))],
      ['a page added', (site) => writeFileSync(join(site, 'content/guide/yak.md'), '---\ntitle: Yak\n---\n\nA page that was not there.\n')],
      ['a page removed', (site) => rmSync(join(site, 'content/guide/zebra.md'))],
      ['a category\'s label', (site) => writeFileSync(join(site, 'content/guide/advanced/_category_.json'), '{ "label": "Going further", "position": 3 }')],
      ['an image', (site) => appendFileSync(join(site, 'content/guide/img/diagram.svg'), '\n<!-- redrawn -->\n')],
      ['the config', (site) => appendFileSync(join(site, 'site.config.ts'), '\n// A comment changes the file, not the config.\n')],
    ];
    for (const [what, change] of changes) {
      const { site, dist, page } = builtSite();
      // A body edited beside it: alone, it would take the kept content.
      appendFileSync(page('guide/faq.md'), `\nEdited beside ${what}.\n`);
      change(site);
      const before = snapshotTree(dist);
      const refused = runDocs(['build', '--root', site], takeKept);
      expect(refused.stderr, what).toContain('the rebuild read and collected the content');
      expect(snapshotTree(dist), what).toEqual(before);
      expect(runDocs(['build', '--root', site]).code, what).toBe(0);
      expect(snapshotTree(dist), what).toEqual(fromNothing(site));
      // That build kept its own content: the next body edit takes it.
      appendFileSync(page('guide/install.md'), `\nEdited after ${what}.\n`);
      expect(runDocs(['build', '--root', site], takeKept).code, what).toBe(0);
      expect(snapshotTree(dist), what).toEqual(fromNothing(site));
    }
  });

  it('reads the content again after a commit, whose dates the pages show', () => {
    const { site, dist, page } = builtSite();
    const git = (...args: string[]): void => {
      execFileSync('git', ['-c', 'user.name=Ada Lovelace', '-c', 'user.email=ada@quad.example', ...args], { cwd: site, env: { ...process.env, GIT_AUTHOR_DATE: '2025-03-14T12:00:00Z', GIT_COMMITTER_DATE: '2025-03-14T12:00:00Z' } });
    };
    git('init', '-q');
    git('add', 'content');
    git('commit', '-qm', 'docs: first');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    appendFileSync(page('guide/faq.md'), '\nOne more answer.\n');
    git('commit', '-qam', 'docs: faq');
    expect(runDocs(['build', '--root', site], takeKept).stderr).toContain('the rebuild read and collected the content');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    expect(readRoute(dist, '/guide/faq')).toContain('One more answer.');
    expect(readRoute(dist, '/guide/faq')).toContain('by <b>Ada Lovelace</b>');
    expect(snapshotTree(dist)).toEqual(fromNothing(site));
  });

  it('takes the kept content beside an API reference, and reads it again when the spec changes', () => {
    const site = copyFixture('openapi');
    const dist = join(site, 'dist');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    appendFileSync(join(site, 'content/guide/index.md'), '\nThe reference below lists every endpoint of the Teams API.\n');
    expect(runDocs(['build', '--root', site], takeKept).code).toBe(0);
    expect(readRoute(dist, '/')).toContain('every endpoint of the Teams API');
    expect(snapshotTree(dist)).toEqual(fromNothing(site));
    // The spec is no page file: its pages are generated again.
    const spec = join(site, 'specs/api.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('summary: Get a team', 'summary: Get one team'));
    expect(runDocs(['build', '--root', site], takeKept).stderr).toContain('the rebuild read and collected the content');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    expect(snapshotTree(dist)).toEqual(fromNothing(site));
  });

  it('builds as always when the kept content is damaged or gone', () => {
    const { site, dist, page } = builtSite();
    const kept = join(site, 'node_modules/.cache/docs/content.bin');
    writeFileSync(kept, readFileSync(kept).subarray(0, 100));
    appendFileSync(page('guide/faq.md'), '\nAfter the damage.\n');
    expect(runDocs(['build', '--root', site], takeKept).stderr).toContain('the rebuild read and collected the content');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    expect(snapshotTree(dist)).toEqual(fromNothing(site));
    rmSync(kept);
    appendFileSync(page('guide/faq.md'), '\nAfter it went.\n');
    expect(runDocs(['build', '--root', site]).code).toBe(0);
    expect(readRoute(dist, '/guide/faq')).toContain('After it went.');
    expect(snapshotTree(dist)).toEqual(fromNothing(site));
  });
});
