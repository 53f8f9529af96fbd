import { describe, expect, it } from 'vitest';
import { parseGitLog } from '../../../../cli/build/git';
import { checkLinks, LinkChecker } from '../../../../cli/build/links';

describe('cli/build/links', () => {
  const link = (route: string, hash?: string) => ({ file: 'content/a.md', line: 3, column: 5, route, hash, written: route + (hash ? `#${hash}` : '') });

  it('errors on a missing route, suggesting a route with the same last segment', () => {
    const report = checkLinks([
      { route: '/a', links: [link('/old/b')], ids: [] },
      { route: '/new/b', links: [], ids: [] },
    ]);
    expect(report.errors).toEqual([{ file: 'content/a.md', line: 3, column: 5, message: 'broken link → /old/b: no page has the route /old/b', fix: 'did you mean /new/b?' }]);
  });

  it('warns on a missing anchor, on this page or another', () => {
    const report = checkLinks([
      { route: '/a', links: [link('', 'nope'), link('/b', 'here'), link('/b', 'gone')], ids: ['top'] },
      { route: '/b', links: [], ids: ['here'] },
    ]);
    expect(report.errors).toEqual([]);
    expect(report.warnings.map((w) => w.message)).toEqual(['link → #nope: /a has no heading with the id "nope"', 'link → /b#gone: /b has no heading with the id "gone"']);
  });

  it('says how to reach an id written in raw HTML, which is published with the user-content- prefix', () => {
    const report = checkLinks([{ route: '/a', links: [link('', 'pit-stop'), link('', 'nope')], ids: ['user-content-pit-stop'] }]);
    expect(report.warnings.map((w) => w.fix)).toEqual([
      "an id written in raw HTML gets the prefix user-content- (so it cannot shadow the page's own): link #user-content-pit-stop, or make the target a markdown heading",
      'link to an existing heading, or drop the #anchor',
    ]);
  });

  it('after a save, reports what checking every page again would: the saved page and the anchors others link to', () => {
    const before = [
      { route: '/a', links: [link('/b', 'here'), link('/c')], ids: ['top'] },
      { route: '/b', links: [link('/a', 'top')], ids: ['here'] },
      { route: '/c', links: [link('/b', 'later')], ids: [] },
    ];
    const checker = new LinkChecker(before);
    expect(checker.report()).toEqual(checkLinks(before));
    // /b loses the heading "here" and gains "later", and now links to a page that does not exist.
    const saved = [before[0]!, { route: '/b', links: [link('/gone')], ids: ['later'] }, before[2]!];
    const report = checker.update(before, saved, [1]);
    expect(report).toEqual(checkLinks(saved));
    expect(report.errors.map((e) => e.message)).toEqual(['broken link → /gone: no page has the route /gone']);
    expect(report.warnings.map((w) => w.message)).toEqual(['link → /b#here: /b has no heading with the id "here"']);
    // /a saved again without its anchor link: its warning goes, and a later save of /b no longer rechecks it.
    const again = [{ route: '/a', links: [link('/c')], ids: ['top'] }, saved[1]!, saved[2]!];
    expect(checker.update(saved, again, [0])).toEqual(checkLinks(again));
    const third = [again[0]!, { route: '/b', links: [], ids: [] }, again[2]!];
    expect(checker.update(again, third, [1])).toEqual(checkLinks(third));
  });
});

describe('cli/build/git', () => {
  it('keeps the newest commit of each file from one git log', () => {
    const log = '\x1eGrace Hopper\x1f1748770200\n\ndocs/faq.md\n\x1eAda Lovelace\x1f1741953600\n\ndocs/faq.md\ndocs/install.md\n';
    const updates = parseGitLog(log);
    expect(updates.get('docs/faq.md')).toEqual({ author: 'Grace Hopper', timestamp: 1748770200000 });
    expect(updates.get('docs/install.md')).toEqual({ author: 'Ada Lovelace', timestamp: 1741953600000 });
  });
});

describe('cli/build/render', () => {
  it('marks the active sidebar item exactly as rendering the sidebar for that route does', async () => {
    const { createElement } = await import('react');
    const { renderToString } = await import('react-dom/server');
    const { SidebarNav } = await import('../../../../runtime/components/Sidebar/Sidebar');
    const { sidebarHtml } = await import('../../../../cli/build/render');
    const items = [
      { type: 'doc' as const, label: 'A & B', route: '/a' },
      { type: 'category' as const, label: 'Cat', route: '/cat', items: [{ type: 'doc' as const, label: 'C', route: '/cat/c' }] },
    ];
    for (const route of ['/a', '/cat', '/cat/c', '/elsewhere']) {
      const direct = renderToString(createElement(SidebarNav, { items, route }));
      expect(sidebarHtml(items, route), route).toBe(direct);
    }
  });
});
