import { describe, expect, it } from 'vitest';
import { routeOf } from '../../../../cli/build/content';
import { routeProblem, safeName } from '../../../../cli/build/routes';

/** The route of a page file with no frontmatter (its path without the extension; an index page is its folder's). */
const routeOfFile = (rel: string): string => routeOf(rel.replace(/\.mdx?$/, ''), undefined, undefined);

describe('cli/build/routes', () => {
  it('suggests, for every page name whose route is refused, a name whose route is accepted', () => {
    const refused = ['guide/notes.html.md', 'guide/Old.HTM/index.md', 'guide/c#.md', 'guide/what?.md', 'guide/100%.md', 'guide/trail .md', ' lead/a.md', 'assets/a.md', '__docs/a.md', 'manifest.json.md', 'favicon.svg.md', '404.html.md', `guide/${'é'.repeat(120)}.md`];
    for (const rel of refused) {
      expect(routeProblem(routeOfFile(rel)), rel).toBeDefined();
      expect(routeProblem(routeOfFile(safeName(rel))), `${rel} → ${safeName(rel)}`).toBeUndefined();
    }
    expect(safeName('guide/notes.html.md')).toBe('guide/notes-html.md');
    expect(safeName('guide/Old.HTM/index.md')).toBe('guide/Old-HTM/index.md');
    expect(safeName('assets/a.md')).toBe('assets-pages/a.md');
    expect(safeName('manifest.json.md')).toBe('manifest-json.md');
  });
});
