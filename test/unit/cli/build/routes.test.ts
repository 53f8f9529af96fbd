import { describe, expect, it } from 'vitest';
import { routeOf } from '../../../../cli/build/content';
import { routeProblem, safeName } from '../../../../cli/build/routes';

/** The route of a page file with no frontmatter (its path without the extension; an index page is its folder's). */
const routeOfFile = (rel: string): string => routeOf(rel.replace(/\.mdx?$/, ''), undefined, undefined);

describe('cli/build/routes', () => {
  it('suggests, for every page name whose route is refused, a name whose route is accepted', () => {
    const refused = ['guide/notes.html.md', 'guide/Old.HTM/index.md', 'guide/c#.md', 'guide/what?.md', 'guide/100%.md', 'guide/trail .md', ' lead/a.md', 'assets/a.md', '__docs/a.md', 'manifest.json.md', 'favicon.svg.md', '404.html.md', `guide/${'é'.repeat(120)}.md`, 'guide/con.md', 'guide/Aux.txt/a.md', 'guide/LPT1.md', 'guide/a:b.md', 'guide/what*.md', 'guide/"quoted".md', 'guide/a|b<c>.md', 'guide/trail-dot..md', 'guide/dots.../x.md', 'guide/rtl\u202eevil.md', 'guide/x\u200by.md'];
    for (const rel of refused) {
      expect(routeProblem(routeOfFile(rel)), rel).toBeDefined();
      expect(routeProblem(routeOfFile(safeName(rel))), `${rel} → ${safeName(rel)}`).toBeUndefined();
    }
    expect(safeName('guide/notes.html.md')).toBe('guide/notes-html.md');
    expect(safeName('guide/Old.HTM/index.md')).toBe('guide/Old-HTM/index.md');
    expect(safeName('assets/a.md')).toBe('assets-pages/a.md');
    expect(safeName('manifest.json.md')).toBe('manifest-json.md');
    expect(safeName('guide/con.md')).toBe('guide/con-page.md');
    expect(safeName('guide/Aux.txt/a.md')).toBe('guide/Aux-page.txt/a.md');
    expect(safeName('guide/a:b.md')).toBe('guide/a-b.md');
    expect(safeName('guide/trail-dot..md')).toBe('guide/trail-dot.md');
    expect(safeName('guide/x\u200by.md')).toBe('guide/xy.md');
    expect(routeProblem('/guide/dots.../x')).toBe('ends a segment with a dot, which Windows drops from file and folder names: the output could not be written there as named');
    expect(routeProblem('/guide/rtl\u202eevil')).toBe("holds the invisible character U+202E (zero-width, or turning the text's direction), so it looks like a route it is not");
    expect(routeProblem('/guide/v1.2/notes')).toBeUndefined();
  });

  it('refuses the routes a writer on Windows could not build: its reserved characters and device names', () => {
    expect(routeProblem('/guide/C:/win')).toBe('holds `:`, which no file or folder name may hold on Windows: the output could not be written there');
    expect(routeProblem('/guide/con')).toBe('has the segment `con`, a device name on Windows (CON, PRN, AUX, NUL, COM0–9, LPT0–9, with any extension), which no file or folder there may have');
    for (const route of ['/NUL', '/a/com1', '/a/Com9/b', '/lpt²', '/aux.json/x']) expect(routeProblem(route), route).toMatch(/a device name on Windows/);
    for (const route of ['/console', '/a/icon', '/comm', '/com10', '/nullable', '/auxiliary', '/guide/contact']) expect(routeProblem(route), route).toBeUndefined();
  });
});
