/**
 * A Docusaurus docs folder written in plain markdown builds unchanged (DESIGN §3.2): its partials and
 * drafts (`_`-prefixed) are no pages, number prefixes order without showing, a README.md or the page
 * named as its folder is the folder's page, an .mdx page in plain markdown is a page, `_category_.yml`
 * names a category, and a leading h1 shows as Docusaurus shows it.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, readRoute, runDocs } from '../support/site';

/** Every file below `dir`, by path relative to it. */
function filesBelow(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesBelow(join(dir, name), `${prefix}${name}/`) : [`${prefix}${name}`]));
}

function write(root: string, rel: string, text: string): void {
  mkdirSync(join(root, 'content', rel, '..'), { recursive: true });
  writeFileSync(join(root, 'content', rel), text);
}

describe('a Docusaurus docs folder', () => {
  it('builds with its partials unpublished, number prefixes ordering, README.md as the folder page, .mdx pages and _category_.yml', () => {
    const root = copyFixture('basic');
    // A partial and a drafts folder: Docusaurus publishes neither, nor may we (a draft is not for readers).
    write(root, 'guide/_snippet.md', '---\ntitle: Snippet\n---\n\nDRAFT-SNIPPET-TEXT [broken](/nowhere)\n');
    write(root, 'guide/_drafts/plan.md', '---\ntitle: Plan\n---\n\nDRAFT-PLAN-TEXT\n');
    write(root, 'guide/_drafts/_category_.json', '{ "label": "Drafts" }');
    // Images kept in a `_`-prefixed folder are still the pages' to show.
    write(root, 'guide/_img/dot.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
    write(root, 'guide/03-recipes/README.md', '---\ntitle: Recipes\n---\n\nStart with [the first](./01-first-recipe.md).\n\n![dot](../_img/dot.svg)\n');
    write(root, 'guide/03-recipes/02-second.md', '---\ntitle: Second recipe\n---\n\nAfter the first.\n');
    write(root, 'guide/03-recipes/01-first-recipe.md', '---\ntitle: First recipe\n---\n\nBefore the second.\n');
    write(root, 'guide/03-recipes/_category_.yml', 'label: Cookbook\n');
    write(root, 'guide/03-recipes/03-third.mdx', '---\ntitle: Third recipe\n---\n\nAn MDX page in plain markdown.\n');
    write(root, 'guide/tools/tools.md', '---\ntitle: Tools\n---\n\nThe tools folder.\n');
    write(root, 'guide/tools/saw.md', '---\ntitle: Saw\n---\n\nCuts.\n');
    write(root, 'guide/2024-05-retro.md', '---\ntitle: Retro of May\n---\n\nA date is a name.\n');

    write(root, 'guide/install-steps.md', '---\ntitle: Install\n---\n\n# Installing the `docs` command\n\nRun it.\n');
    write(root, 'guide/bold.md', '# The **bold** way\n\nBe bold.\n');
    write(root, 'guide/deep.md', '---\ntitle: Deep\ntoc_max_heading_level: 4\n---\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n');
    write(root, 'guide/shallow.md', '---\ntitle: Shallow\n---\n\n## Two\n\n### Three\n\n#### Four\n');
    write(root, 'guide/elsewhere.md', '---\ntitle: Elsewhere\ncustom_edit_url: https://git.quad.example/quad/handbook/edit/main/elsewhere.md\n---\n\nKept in another repository.\n');
    write(root, 'guide/generated.md', '---\ntitle: Generated\ncustom_edit_url: null\n---\n\nMade by a script: not to be edited here.\n');
    write(root, 'guide/landing.md', '---\ntitle: Landing\nhide_title: true\n---\n\nA landing page shows no title.\n');
    write(root, 'guide/landing-own.md', '---\ntitle: Landing too\nhide_title: true\n---\n\n# Its own heading\n\nShown all the same.\n');
    write(root, 'guide/migrated.md', '---\ntitle: Migrated\nlast_update:\n  date: 2024-02-29\n  author: Jane Doe\n---\n\nMoved from the old wiki.\n');
    write(root, 'guide/reviewed.md', '---\ntitle: Reviewed\nlast_update:\n  author: Board of 2025\n---\n\nChecked by the board.\n');

    const run = runDocs(['build'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    const dist = join(root, 'dist');
    const files = filesBelow(dist);
    for (const file of files.filter((name) => /\.(html|js|json)$/.test(name))) {
      const text = readFileSync(join(dist, file), 'utf8');
      expect(text, file).not.toContain('DRAFT-SNIPPET-TEXT');
      expect(text, file).not.toContain('DRAFT-PLAN-TEXT');
    }
    expect(files.some((name) => /snippet|plan|drafts/i.test(name))).toBe(false);

    const recipes = readRoute(dist, '/guide/recipes');
    expect(recipes).toContain('<title>Recipes | Docs</title>');
    expect(recipes).toContain('href="/guide/recipes/first-recipe"');
    expect(recipes).toMatch(/<img[^>]+src="\/assets\/images\/dot\.[0-9a-f]+\.svg"/);
    // The sidebar: the category named by its _category_.yml, linked to its README, recipes in prefix order.
    const sidebar = recipes.slice(recipes.indexOf('Cookbook'));
    expect(sidebar.indexOf('First recipe')).toBeGreaterThan(0);
    expect(sidebar.indexOf('First recipe')).toBeLessThan(sidebar.indexOf('Second recipe'));
    expect(readRoute(dist, '/guide/recipes/second')).toContain('Second recipe');
    expect(readRoute(dist, '/guide/recipes/third')).toContain('An MDX page in plain markdown.');
    expect(sidebar.indexOf('Second recipe')).toBeLessThan(sidebar.indexOf('Third recipe'));
    expect(readRoute(dist, '/guide/tools')).toContain('The tools folder.');
    expect(readRoute(dist, '/guide/tools/saw')).toContain('Cuts.');
    expect(readRoute(dist, '/guide/2024-05-retro')).toContain('A date is a name.');
    // A leading h1 that says more than the frontmatter title is the page's h1 (Docusaurus shows it);
    // the title stays the <title> and the sidebar label. An h1 with markup keeps it on the page only.
    const install = readRoute(dist, '/guide/install-steps');
    expect(install).toContain('<title>Install | Docs</title>');
    expect(install).toContain('<h1>Installing the <code>docs</code> command</h1>');
    expect(install).not.toMatch(/<div class="markdown">\s*<h1/);
    const bold = readRoute(dist, '/guide/bold');
    expect(bold).toContain('<title>The bold way | Docs</title>');
    expect(bold).toContain('<h1>The <strong>bold</strong> way</h1>');
    expect(bold).toContain('href="/guide/bold" aria-current="page">The bold way</a>');
    // A page's own TOC levels (toc_max_heading_level), else the site's (2–3).
    const tocOf = (route: string): string[] => {
      const html = readRoute(dist, route);
      const column = [...(/<nav class="toc"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '').matchAll(/class="toc-link" href="#([^"]+)"/g)].map((match) => match[1]!);
      // The same list folded at the top of the page, for screens without the TOC column.
      const folded = [...(/<details class="toc-collapsible"[\s\S]*?<\/details>/.exec(html)?.[0] ?? '').matchAll(/class="toc-link" href="#([^"]+)"/g)].map((match) => match[1]!);
      expect(folded, route).toEqual(column);
      return column;
    };
    expect(tocOf('/guide/deep')).toEqual(['two', 'three', 'four']);
    expect(tocOf('/guide/shallow')).toEqual(['two', 'three']);
    // custom_edit_url: another address for the edit link, or none.
    expect(readRoute(dist, '/guide/elsewhere')).toContain('<a class="edit-link" href="https://git.quad.example/quad/handbook/edit/main/elsewhere.md"');
    expect(readRoute(dist, '/guide/generated')).not.toContain('edit-link');
    expect(readRoute(dist, '/guide/deep')).toContain('<a class="edit-link" href="https://git.quad.example/quad/docs/edit/master/content/guide/deep.md"');
    // hide_title hides the h1 made from the title, not one the body opens with (as in Docusaurus).
    const landing = readRoute(dist, '/guide/landing');
    expect(landing).toContain('<title>Landing | Docs</title>');
    expect(landing).not.toContain('<h1');
    expect(readRoute(dist, '/guide/landing-own')).toContain('<h1>Its own heading</h1>');
    // last_update: its date and author in place of what git (here: the file's time) says, each on its own.
    expect(readRoute(dist, '/guide/migrated')).toContain('Last updated on <time dateTime="2024-02-29T00:00:00.000Z">29 February 2024</time> by <b>Jane Doe</b>');
    const reviewed = readRoute(dist, '/guide/reviewed');
    expect(reviewed).toMatch(/Last updated on <time dateTime="[^"]+">\d{1,2} \w+ \d{4}<\/time> by <b>Board of 2025<\/b>/);
    expect(reviewed).not.toContain('2024-02-29');
    const manifest = readFileSync(join(dist, 'manifest.json'), 'utf8');
    expect(manifest).not.toMatch(/snippet|plan|03-recipes/i);
  });
});
