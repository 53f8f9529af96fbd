import { beforeAll, describe, expect, it } from 'vitest';
import { deepHtmlLine } from '../../../../../cli/build/markdown/plugins/limits';
import { createMarkdownRenderer, type MarkdownRenderer } from '../../../../../cli/build/markdown/index';
import { parseFenceMeta } from '../../../../../cli/build/markdown/plugins/code';
import { normaliseAdmonitionTitles } from '../../../../../cli/build/markdown/plugins/admonitions';

let renderer: MarkdownRenderer;
beforeAll(async () => {
  renderer = await createMarkdownRenderer({
    codeTheme: 'github-dark',
    highlightLanguages: ['json'],
    toc: { minLevel: 2, maxLevel: 3 },
    displayPrefix: 'content/',
    routeOfFile: { 'docs/a.md': '/docs/a', 'docs/sub/b.md': '/docs/sub/b' },
  });
});
const render = (body: string, rel = 'docs/a.md') => renderer.render({ rel, body, resolveImage: () => undefined, resolveFile: () => undefined });

describe('cli/build/markdown', () => {
  it('lists every heading with github-slugger ids, for each page to take its table of contents levels from', async () => {
    const out = await render('## Getting started\n\n### Step 1: install\n\n#### Deep\n\n## Getting started\n');
    expect(out.toc).toEqual([
      { id: 'getting-started', text: 'Getting started', level: 2 },
      { id: 'step-1-install', text: 'Step 1: install', level: 3 },
      { id: 'deep', text: 'Deep', level: 4 },
      { id: 'getting-started-1', text: 'Getting started', level: 2 },
    ]);
    expect(out.ids).toContain('deep');
  });

  it('links GFM autolink literals: URLs, www. and e-mail addresses, but not inside code', async () => {
    const out = await render('Mail it@quad.example or visit www.quad.example and https://api.quad.example/docs.\n\n`https://not.linked`\n');
    expect(out.html).toContain('<a href="mailto:it@quad.example">it@quad.example</a>');
    expect(out.html).toContain('<a href="http://www.quad.example" target="_blank" rel="noopener noreferrer">www.quad.example</a>');
    expect(out.html).toContain('<a href="https://api.quad.example/docs" target="_blank" rel="noopener noreferrer">https://api.quad.example/docs</a>');
    expect(out.html).toContain('<code>https://not.linked</code>');
  });

  it('takes a leading h1 out of the body and hands it to the layout, markup and all', async () => {
    const out = await render('# Title\n\nBody.');
    expect(out.html).not.toContain('<h1');
    expect(out.heading).toEqual({ html: 'Title', text: 'Title', plain: true });
    const marked = await render('# Run `docs` **now**\n\nBody.');
    expect(marked.heading).toEqual({ html: 'Run <code>docs</code> <strong>now</strong>', text: 'Run docs now', plain: false });
    expect((await render('Body first.\n\n# Not leading\n')).heading).toBeUndefined();
  });

  it('warns about footnotes a reader would not see: defined twice, never referred to, or not defined', async () => {
    const out = await render('Laps are counted[^count] by beacons[^beacon].\nSee also[^Count].\n\n`[^code]` is code.\n\n[^count]: By the relay.\n[^count]: By hand.\n[^spare]: Never used.\n');
    expect(out.warnings.map((w) => `${w.line} ${w.message}`)).toEqual([
      '7 footnote [^count] is defined a second time (first on line 6): only the first definition is shown',
      '8 footnote [^spare] is never referred to, so it is not shown',
      '1 footnote [^beacon] has no definition, so it shows as written',
    ]);
    expect(out.html).toContain('By the relay.');
    expect((await render('One[^1] and two[^2].\n\n[^1]: First.\n[^2]: Second.\n')).warnings).toEqual([]);
  });

  it('says why a .md link is no page: outside the content folder, or a name starting with _', async () => {
    const out = await render('See [the readme](../../README.md) and [the snippet](./_snippet.md) and [lost](./lost.md).\n', 'docs/a.md');
    expect(out.warnings.map((w) => `${w.message} (${w.fix})`)).toEqual([
      'link to "../../README.md": the file is outside the content folder, so it is no page of the site (link to it on the code host with a full URL, or move it into the content folder)',
      'link to "./_snippet.md": no markdown file content/docs/_snippet.md (a file or folder whose name starts with `_` is no page) (correct the path, or link to a route)',
      'link to "./lost.md": no markdown file content/docs/lost.md (correct the path, or link to a route)',
    ]);
  });

  it("takes Docusaurus' explicit heading ids, and never gives a heading one of the layout's own ids", async () => {
    const out = await render('## Install\n\n## Setting up {#install}\n\n### The `{#x}` syntax\n\n## Main\n\n## Again {#main}\n\n## Twice {#install}\n');
    expect(out.toc).toEqual([
      // Explicit ids are placed first; a heading's own slug takes what is left.
      { id: 'install-2', text: 'Install', level: 2 },
      { id: 'install', text: 'Setting up', level: 2 },
      { id: 'the-x-syntax', text: 'The {#x} syntax', level: 3 },
      { id: 'main-2', text: 'Main', level: 2 },
      { id: 'main-1', text: 'Again', level: 2 },
      { id: 'install-1', text: 'Twice', level: 2 },
    ]);
    expect(out.html).toContain('<h2 id="install">Setting up<a class="hash-link" href="#install"');
    expect(out.html).not.toContain('{#install}');
    expect(out.warnings.map((w) => `${w.line} ${w.message}`)).toEqual([
      "9 the heading id {#main} is one of the page's own, so this heading's anchor is #main-1",
      "11 the heading id {#install} is taken by an earlier heading, so this heading's anchor is #install-1",
    ]);
    const titled = await render('# Getting started {#start}\n\nBody.\n');
    expect(titled.heading).toEqual({ html: 'Getting started', text: 'Getting started', plain: true });
  });

  it('gives headings of emoji or punctuation alone an id of their own, without a false repeat', async () => {
    const out = await render('## 🚀\n\n## 🎉\n\n## ?!\n');
    expect(out.toc.map((entry) => entry.id)).toEqual(['section', 'section-1', 'section-2']);
    expect(out.warnings).toEqual([]);
  });

  it('rewrites relative .md links to routes and records every internal link with its position', async () => {
    const out = await render('[b](./sub/b.md#part) and [abs](/docs/a) and [self](#top)\n');
    expect(out.html).toContain('<a href="/docs/sub/b#part">b</a>');
    expect(out.links.map(({ route, hash, line, column }) => ({ route, hash, line, column }))).toEqual([
      { route: '/docs/sub/b', hash: 'part', line: 1, column: 1 },
      { route: '/docs/a', hash: undefined, line: 1, column: 26 },
      { route: '', hash: 'top', line: 1, column: 45 },
    ]);
  });

  it('normalises links ending in .html or index.html to the bare route', async () => {
    const out = await render('[a](/docs/a.html) [b](/docs/sub/b/index.html) [c](/docs/sub/)\n');
    expect(out.links.map((link) => link.route)).toEqual(['/docs/a', '/docs/sub/b', '/docs/sub']);
  });

  it('renders a long table whose cells hold code and emphasis: the markers limit counts each row, not the table', async () => {
    // 3,000 rows of 4 markers: 12,000 in one block, over the 10,000 a paragraph may hold.
    const rows = Array.from({ length: 3000 }, (_, i) => `| \`DEV-${i}\` | *open* |`).join('\n');
    const out = await render(`| Key | State |\n|---|:--|\n${rows}\n`);
    expect(out.errors).toEqual([]);
    expect(out.html.match(/<tr>/g)).toHaveLength(3001);
    expect(out.html).toContain('<td><code>DEV-2999</code></td>');
    // One row thick with markers is still refused, named as a row, at its line.
    const thick = await render(`| Key | State |\n|---|---|\n| a | b |\n| ${'*_[a'.repeat(3400)} | c |\n`);
    expect(thick.errors).toEqual([expect.objectContaining({ line: 4, message: 'this table row holds 10,200 emphasis, link and code markers (*, _, [, ], `, <), more than the 10,000 a table row may hold' })]);
    // A paragraph is counted whole as before, even when it holds pipes.
    const paragraph = await render(`Not | a table\n${'`x` | '.repeat(5001)}\n`);
    expect(paragraph.errors).toEqual([expect.objectContaining({ line: 1, message: expect.stringMatching(/^this paragraph holds 10,002 /) })]);
  });

  it('finds the line where raw HTML first nests more than 1,000 elements deep: void, self-closing and fenced tags open no level', () => {
    expect(deepHtmlLine(`Intro.\n\n${'<span>'.repeat(1000)}\n${'<br><img src="a.png"><x-icon/>'.repeat(50)}\n\n\`\`\`html\n${'<div>'.repeat(50)}\n\`\`\`\n<b>one more</b>\n<i>`)).toBe(9);
    expect(deepHtmlLine(`${'<p>a</p>'.repeat(5000)}\n`)).toBeUndefined();
  });

  it('refuses raw HTML nested more than 1,000 elements deep at its line on any thread, and counts the levels as a browser parses them', async () => {
    // 1,200 levels render on any stack: the refusal is the limit's, the same on the main thread and a render thread.
    // The div, the paragraph around the spans and 600 spans are 602 levels: the 1,001st is an <em> of line 8.
    const deep = await render(`# Deep\n\nIntro.\n\n<div>\n\n${'<span>'.repeat(600)}\n${'<em>'.repeat(600)}x\n`, 'guide/deep.md');
    expect(deep.errors).toEqual([{ file: 'content/guide/deep.md', line: 8, message: 'is nested too deeply to render: its HTML is more than 1,000 elements deep by this line', fix: 'flatten deeply nested lists, quotes or HTML' }]);
    // Rows and cells whose end tags HTML lets one leave out close as a browser closes them: 3,000 tags, three levels.
    const rows = Array.from({ length: 1500 }, (_, i) => `<tr><td>DEV-${i}`).join('\n');
    const table = await render(`<table>\n${rows}\n</table>\n`);
    expect(table.errors).toEqual([]);
    expect(table.html.match(/<td>/g)).toHaveLength(1500);
  });

  it('renders a block of thousands of link reference definitions (a glossary\'s links): they are no paragraph\'s markup', async () => {
    // 6,000 definitions, 24,000 brackets: past the 10,000 markers a paragraph may hold, which refused them.
    const definitions = Array.from({ length: 6_000 }, (_, i) => `[beacon-${i}]: https://beacons.quad.example/${i} "Beacon ${i}"`).join('\n');
    const out = await render(`# Beacons\n\nSee [beacon 7][beacon-7] and [beacon 5999][beacon-5999].\n\n${definitions}\n`);
    expect(out.errors).toEqual([]);
    expect(out.html).toMatch(/<a href="https:\/\/beacons\.quad\.example\/5999" title="Beacon 5999"[^>]*>beacon 5999<\/a>/);
    // Lines that only look like definitions (text after the destination) are a paragraph's text, and counted.
    const lookalikes = await render(`${Array.from({ length: 2_600 }, (_, i) => `[x${i}]: y z *a*`).join('\n')}\n`);
    expect(lookalikes.errors).toEqual([expect.objectContaining({ line: 1, message: expect.stringMatching(/^this paragraph holds 10,400 /) })]);
  });

  it('refuses tables of more cells than a build renders in reasonable memory, at the table that passes the limit', async () => {
    // A million cells (100 columns, 10,000 rows, 2 MB) ran Node out of memory: no file, no line.
    const table = (columns: number, rows: number): string => `|${' c |'.repeat(columns)}\n|${'---|'.repeat(columns)}\n${`|${' x |'.repeat(columns)}\n`.repeat(rows)}`;
    const huge = await render(`# Data\n\nFirst the small one:\n\n${table(4, 10)}\nThen:\n\n${table(100, 10_000)}`);
    expect(huge.errors).toEqual([expect.objectContaining({ line: 20, message: "the page's tables hold more than 50,000 cells by this one, more than a build renders in reasonable time and memory" })]);
    // A long table of a few columns is no error: 12,000 cells.
    expect((await render(table(4, 3000))).errors).toEqual([]);
  });

  it('turns a missing image into an error with its line', async () => {
    const out = await render('Text\n\n![x](./missing.png)\n');
    expect(out.errors).toEqual([expect.objectContaining({ file: 'content/docs/a.md', line: 3, message: 'image "./missing.png" does not exist' })]);
    // Above the content folder: not "does not exist" (it may well), but where it is, and what to do.
    const outside = await render('![logo](../../../branding/logo.png)\n\n[brochure](../../brochure.pdf)\n');
    expect(outside.errors).toEqual([
      expect.objectContaining({ line: 1, message: 'image "../../../branding/logo.png" is outside the content folder, so it cannot be published', fix: 'move the image into content/ (e.g. beside the page) and link it from there' }),
      expect.objectContaining({ line: 3, message: 'link to "../../brochure.pdf": the file is outside the content folder, so it cannot be published' }),
    ]);
  });

  it("checks and rewrites raw HTML's links and images as markdown's, with their places", async () => {
    const body = ['Intro with a [markdown link](./sub/b.md).', '', '<p align="center"><img src="./img/lap.png" alt="Lap"> <img src="./missing.png" alt=""></p>', '', 'See <a href="./sub/b.md#part">part B</a> or <a href="/docs/gone">the old page</a> and <a href="https://quad.example">out</a>.', ''].join('\n');
    const out = await renderer.render({ rel: 'docs/a.md', body, resolveImage: (rel) => (rel === 'docs/img/lap.png' ? '/assets/images/lap.0123abcd.png' : undefined), resolveFile: () => undefined });
    expect(out.html).toContain('src="/assets/images/lap.0123abcd.png" alt="Lap"/>');
    expect(out.html).toContain('<a href="/docs/sub/b#part">part B</a>');
    expect(out.errors).toEqual([expect.objectContaining({ file: 'content/docs/a.md', line: 3, column: 55, message: 'image "./missing.png" does not exist' })]);
    // Every internal link goes to the links stage, raw HTML's with their line and column.
    expect(out.links.map(({ route, hash, line, column }) => ({ route, hash, line, column }))).toEqual([
      { route: '/docs/sub/b', hash: undefined, line: 1, column: 14 },
      { route: '/docs/sub/b', hash: 'part', line: 5, column: 5 },
      { route: '/docs/gone', hash: undefined, line: 5, column: 45 },
    ]);
  });

  it('cleans raw HTML to the allowlist: no script, handler, javascript: URL, style or iframe', async () => {
    const out = await render(
      '<script>alert(1)</script>\n\nText <b onclick="x()">bold</b> <a href="javascript:alert(1)">link</a> <img src="x.png" onerror="alert(2)" alt="x">\n\n<iframe src="https://evil.example"></iframe>\n\n<span style="color:red" id="__DOCS_DATA__">styled</span>\n',
    );
    expect(out.html).not.toMatch(/<script|onclick|onerror|javascript:|<iframe|style="color/);
    // A style sheet goes with its text: no rules shown as prose.
    const styled = await render('<style>\n.hero { color: red; }\n</style>\n\n<template><p>Later</p></template>\n\nVisible text.\n');
    expect(styled.html.replace(/<[^>]+>/g, '').trim()).toBe('Visible text.');
    expect(out.html).toContain('<b>bold</b>');
    expect(out.html).toContain('<a>link</a>');
    expect(out.html).toContain('alt="x"');
    // A user id cannot shadow the page's own elements.
    expect(out.html).toContain('<span id="user-content-__DOCS_DATA__">styled</span>');
    // A scheme behind spaces is still the scheme the browser reads: removed with its warning, not taken for a route.
    const spaced = await render('[run](< JaVaScRiPt:alert(1)>) and ![x](< javascript:alert(2)>)\n');
    expect(spaced.html).not.toMatch(/javascript:/i);
    expect(spaced.links).toEqual([]);
    expect(spaced.errors).toEqual([]);
    expect(spaced.warnings.map((w) => w.message).join('\n')).toMatch(/javascript/i);
  });

  it("copies and checks the images of a srcset (a <picture>'s dark-mode source), and holds them to a page's schemes", async () => {
    const copied: string[] = [];
    const images: Record<string, string> = { 'docs/img/light.png': '/assets/images/light.0123abcd.png', 'docs/img/dark.png': '/assets/images/dark.4567cdef.png', 'docs/img/dark@2x.png': '/assets/images/dark@2x.89abcdef.png' };
    const body = '<picture>\n  <source media="(prefers-color-scheme: dark)" srcset="./img/dark.png 1x, ./img/dark@2x.png 2x">\n  <img alt="The rack" src="./img/light.png" srcset="./img/light.png, https://cdn.quad.example/rack.png 2x">\n</picture>\n';
    const out = await renderer.render({ rel: 'docs/a.md', body, resolveImage: (rel) => (copied.push(rel), images[rel]), resolveFile: () => undefined });
    expect(out.errors).toEqual([]);
    expect(out.html).toContain('<source media="(prefers-color-scheme: dark)" srcSet="/assets/images/dark.4567cdef.png 1x, /assets/images/dark@2x.89abcdef.png 2x"/>');
    // An <img>'s own srcset is dropped by GitHub's allowlist, as on GitHub; its src is the image.
    expect(out.html).toContain('src="/assets/images/light.0123abcd.png"');
    expect(copied).toEqual(expect.arrayContaining(['docs/img/dark.png', 'docs/img/dark@2x.png', 'docs/img/light.png']));
    // A candidate that is not there is an error at its line; a script URL goes, with a warning.
    const bad = await render('<picture>\n<source srcset="./img/nothere.png 2x, javascript:alert(1) 3x">\n<img alt="x" src="https://cdn.quad.example/x.png">\n</picture>\n');
    expect(bad.errors.map((error) => [error.line, error.message])).toEqual([[2, 'image "./img/nothere.png" does not exist']]);
    expect(bad.html).not.toContain('javascript:');
    expect(bad.warnings.map((warning) => warning.message)).toContain('removed the `srcset` image "javascript:alert(1)": the scheme "javascript:" is not allowed on a page');
  });

  it('takes a link a browser reads as another site for no route of this one: a \\ or a tab before // is an error', async () => {
    const out = await render('[a](/\\evil.example/guide)\n\n<a href="\\\\evil.example/guide">b</a> <a href="\t//evil.example/guide">c</a> <a href="//cdn.example/x">d</a>\n');
    // None is checked as the route /guide.
    expect(out.links.map((link) => link.route)).toEqual([]);
    expect(out.errors.map((error) => error.message)).toEqual([
      'link to "/\\evil.example/guide" leads to another site, evil.example: a browser reads a \\ as / and drops spaces before an address, so "/\\evil.example/guide" is //evil.example/…',
      'link to "\\\\evil.example/guide" leads to another site, evil.example: a browser reads a \\ as / and drops spaces before an address, so "\\\\evil.example/guide" is //evil.example/…',
      'link to "\t//evil.example/guide" leads to another site, evil.example: a browser reads a \\ as / and drops spaces before an address, so " //evil.example/guide" is //evil.example/…',
    ]);
    expect(out.errors.every((error) => error.line === 1 || error.line === 3)).toBe(true);
  });

  it('keeps allowed raw HTML around markdown, highlighted code and footnotes intact', async () => {
    const out = await render('<details><summary>More</summary>\n\nHidden **text**.\n\n```ruby\nputs 1\n```\n\n</details>\n\n<kbd>Ctrl</kbd> and a note[^1].\n\n[^1]: The note.\n');
    expect(out.html).toMatch(/<details><summary>More<\/summary>\s*<p>Hidden <strong>text<\/strong>\.<\/p>\s*<div class="code-block"/);
    expect(out.html).toContain('<kbd>Ctrl</kbd>');
    expect(out.html).toContain('href="#user-content-fn-1"');
    expect(out.html).toContain('<li id="user-content-fn-1">');
  });

  it('keeps the text before the first fence of a tab set above the tabs, and shows a tab set of no fences as text, with a warning', async () => {
    const out = await render(':::tabs\nPick your shell.\n\n```bash title="bash"\necho hi\n```\n\n```fish title="fish"\necho hi\n```\n:::\n\n:::tabs\nOnly prose here, no code.\n:::\n');
    const html = out.html.replace(/<[^>]+>/g, ' ');
    expect(html).toContain('Pick your shell.');
    expect(out.html.indexOf('Pick your shell.')).toBeLessThan(out.html.indexOf('class="tabs"'));
    expect([...out.html.matchAll(/role="tab" [^>]*data-tab="(\w+)"/g)].map((match) => match[1])).toEqual(['bash', 'fish']);
    expect(html).toContain('Only prose here, no code.');
    expect(out.warnings).toEqual([expect.objectContaining({ file: 'content/docs/a.md', line: 13, message: '`:::tabs` holds no code fence, so it makes no tabs: its text is shown as it is' })]);
  });

  it('shows a block that is no admonition as it was written, closing line included, and warns with the kind it may mean', async () => {
    const out = await render('Meet at 12:30.\n\n:::NOTE\nCheck the beacons.\n:::\n\n:::tips\nCharge them.\n:::\n\n:::sidebar{id="x"}\nAside.\n:::\n');
    const text = out.html.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/\n+/g, '|');
    expect(text).toBe('Meet at 12:30.|:::NOTE|Check the beacons.|:::|:::tips|Charge them.|:::|:::sidebar{id="x"}|Aside.|:::');
    expect(out.warnings.map(({ line, message, fix }) => [line, message, fix])).toEqual([
      [3, '`:::NOTE` is not an admonition, so it is shown as text', 'write `:::note`'],
      [7, '`:::tips` is not an admonition, so it is shown as text', 'write `:::tip`'],
      [11, '`:::sidebar` is not an admonition, so it is shown as text', 'use one of `:::note`, `:::tip`, `:::info`, `:::warning`, `:::danger`, `:::caution`, or `:::tabs` for code tabs'],
    ]);
  });

  it('warns once a page, at its line, of each raw HTML element the cleaning removes, and says what to write instead', async () => {
    const out = await render(
      '# Race day\n\n<video src="./start.mp4" controls></video>\n\n<details><summary>Kit list</summary>Beacons, <kbd>Ctrl</kbd>.</details>\n\n<svg width="10" height="10"><circle r="4"/></svg>\n\n<script>track()</script>\n\n<video src="./finish.mp4"></video>\n\n<iframe src="https://grafana.quad.example/d/laps"></iframe>\n',
    );
    expect(out.warnings.map(({ line, column, message, fix }) => [line, column, message, fix])).toEqual([
      [3, 1, '`<video>` is not allowed in a page, so it is removed (its text stays)', 'link to the video instead, e.g. [Watch the demo](./demo.mp4)'],
      [7, 1, '`<svg>` is not allowed in a page, so it is removed (its text stays)', 'save the drawing as an .svg file and show it as an image: ![Diagram](./diagram.svg)'],
      [9, 1, '`<script>` is not allowed in a page, so it is removed with what it holds', 'pages run no scripts of their own: describe what it did, or link to a page that does it'],
      [13, 1, '`<iframe>` is not allowed in a page, so it is removed (its text stays)', 'link to what it showed instead, e.g. [Open the dashboard](https://…)'],
    ]);
    expect(out.html).toContain('<kbd>Ctrl</kbd>');
    expect(out.html).not.toContain('<video');
  });

  it('warns once a page, at the first element, of each event handler the cleaning removes (a button that did nothing, without a word)', async () => {
    const out = await render('# Race day\n\nText.\n\n<details onToggle="track()"><summary onclick="a()">Kit</summary>Beacons.</details>\n\n<a href="/x" onclick="b()" onpointerdown="c()">Go</a>\n');
    expect(out.warnings.map(({ line, column, message, fix }) => [line, column, message, fix])).toEqual([
      [5, 1, 'the event handler `ontoggle` is removed: a page runs no scripts of its own', 'remove it; a link (<a href="/guide/…">) can lead where the handler would have taken the reader'],
      [5, 29, 'the event handler `onclick` is removed: a page runs no scripts of its own', 'remove it; a link (<a href="/guide/…">) can lead where the handler would have taken the reader'],
      // A handler the HTML tables do not know (pointer, touch, animation events) too.
      [7, 1, 'the event handler `onpointerdown` is removed: a page runs no scripts of its own', 'remove it; a link (<a href="/guide/…">) can lead where the handler would have taken the reader'],
    ]);
    expect(out.html).not.toMatch(/onclick|ontoggle|onpointerdown/i);
  });

  it('warns of a `:::` line no block took: an opening whose title is never closed, a closing with nothing open', async () => {
    const out = await render(
      ':::note[Before you race\nCharge the beacons.\n:::\n\n:::tip\nOne block.\n:::\n:::\n\n- :::warning[Lap counter\n  Reset it.\n\n> :::\n\nEscaped on purpose: \\:::note[x\n\n```md\n:::note[Shown as written\n:::\n```\n\nMeet at 12:30, ratio 3:::4.\n',
    );
    expect(out.html).toContain(':::note[Before you race');
    expect(out.warnings.map(({ line, column, message, fix }) => [line, column, message, fix])).toEqual([
      [1, 1, '`:::note[Before you race` opens no block, so it is shown as text (its title is never closed)', 'close the title: `:::note[Before you race]`'],
      [8, 1, '`:::` closes no block (none is open here), so it is shown as text', 'remove the line, or open the block above it with a line like `:::note`'],
      [10, 3, '`:::warning[Lap counter` opens no block, so it is shown as text (its title is never closed)', 'close the title: `:::warning[Lap counter]`'],
      [13, 3, '`:::` closes no block (none is open here), so it is shown as text', 'remove the line, or open the block above it with a line like `:::note`'],
    ]);
    expect(out.errors).toEqual([]);
  });

  it('publishes an image written with an absolute path from the content folder, and warns of one that is not there', async () => {
    const copied: string[] = [];
    const out = await renderer.render({
      rel: 'docs/a.md',
      body: '![Diagram](/guide/img/diagram.svg)\n\n<img src="/guide/img/diagram.svg" alt="Raw">\n\n![Logo](/img/logo.png)\n',
      resolveImage: (rel) => (copied.push(rel), rel === 'guide/img/diagram.svg' ? '/assets/img/diagram.1a2b3c4d.svg' : undefined),
      resolveFile: () => undefined,
    });
    expect(copied).toEqual(['guide/img/diagram.svg', 'img/logo.png', 'guide/img/diagram.svg']);
    expect(out.html.match(/src="\/assets\/img\/diagram\.1a2b3c4d\.svg"/g)).toHaveLength(2);
    expect(out.errors).toEqual([]);
    expect(out.warnings.map(({ line, message }) => [line, message])).toEqual([[5, 'image "/img/logo.png": no file content/img/logo.png, so it is left as written for the host to serve']]);
  });

  it('parses fence meta: title and line ranges', () => {
    const meta = parseFenceMeta('TS', 'title="src/a.ts" {1,3-4}');
    expect(meta).toEqual({ lang: 'ts', title: 'src/a.ts', highlight: new Set([1, 3, 4]) });
    expect(parseFenceMeta('ts', 'showLineNumbers title="a.ts"').lineNumbers).toBe(1);
    expect(parseFenceMeta('ts', '{2} showLineNumbers=40').lineNumbers).toBe(40);
    expect(parseFenceMeta('ts', 'title="showLineNumbers.ts"').lineNumbers).toBeUndefined();
    expect(parseFenceMeta('ts', 'title="Run showLineNumbers=x here"')).toEqual({ lang: 'ts', title: 'Run showLineNumbers=x here', highlight: new Set() });
  });

  it('numbers a fence whose showLineNumbers start is no line number from 1, warning at the fence (it lost its numbers in silence)', async () => {
    const out = await render('Intro.\n\n```js showLineNumbers=99999999999999999999\na\n```\n\n```js showLineNumbers=-5\nb\n```\n\n```js showLineNumbers=1000000000\nc\n```\n');
    expect(out.html.match(/class="code-block code-block-numbered"/g)).toHaveLength(3);
    expect(out.html).toContain('counter-reset:line 999999999');
    expect(out.warnings.map(({ line, column, message, fix }) => [line, column, message, fix])).toEqual([
      [3, 1, "`showLineNumbers=99999999999999999999` is no line number: the first line's number is a whole number from 0 to 1,000,000,000; the lines are numbered from 1", 'write the number of the first line, e.g. showLineNumbers=40, or showLineNumbers alone to start at 1'],
      [7, 1, "`showLineNumbers=-5` is no line number: the first line's number is a whole number from 0 to 1,000,000,000; the lines are numbered from 1", 'write the number of the first line, e.g. showLineNumbers=40, or showLineNumbers alone to start at 1'],
    ]);
  });

  it('warns at the fence of line ranges that mark no line (they were dropped in silence), and marks the lines of the others', async () => {
    const fence = (meta: string): string => `\`\`\`js ${meta}\na\nb\nc\n\`\`\`\n\n`;
    const out = await render(`Intro.\n\n${fence('{3-1,2}')}${fence('{0} title="{9}"')}${fence('{1-x}')}${fence('{9}')}${fence('{0-2,}')}${fence('{2-99}')}${fence('{}')}${fence('{cmd=true} {1}')}${fence('ins={"A":1} {x}')}`);
    const marked = [...out.html.matchAll(/<pre[^]*?<\/pre>/g)].map(([pre]) => [...pre.matchAll(/<span class="line( highlighted)?">/g)].flatMap((line, i) => (line[1] ? [i + 1] : [])));
    // Braces of other tools (`{cmd=true}`, `ins={…}`, a word) are not line ranges: the `{1}` after them is.
    expect(marked).toEqual([[2], [], [], [], [1, 2], [2, 3], [], [1], []]);
    const rule = 'a line range is a first and last line from 1 to 3, the first not past the last';
    expect(out.warnings.map(({ line, column, message }) => [line, column, message])).toEqual([
      [3, 1, `the highlighted lines \`3-1\` mark no line of this 3-line block: ${rule}`],
      [9, 1, `the highlighted lines \`0\` mark no line of this 3-line block: ${rule}`],
      [15, 1, `the highlighted lines \`1-x\` mark no line of this 3-line block: ${rule}`],
      [21, 1, `the highlighted lines \`9\` mark no line of this 3-line block: ${rule}`],
      [39, 1, `the highlighted lines \`{}\` mark no line of this 3-line block: ${rule}`],
    ]);
    expect(out.warnings[0]!.fix).toBe('write the lines to highlight, e.g. {1,3-4} for lines 1, 3 and 4');
  });

  it('reads an .mdx page as markdown: its comments taken out, each JSX component warned of once, code left as written', async () => {
    const body = 'Intro {/* a note to the next writer */} text.\n\n{/*\nA comment\nover lines\n*/}\n\n<Tabs>\n<TabItem value="mac">Mac</TabItem>\n<TabItem value="linux">Linux</TabItem>\n</Tabs>\n\n```jsx\n{/* kept in code */}\n<Tabs />\n```\n\n## After {#after}\n';
    const out = await render(body, 'docs/page.mdx');
    expect(out.html).toContain('<p>Intro  text.</p>');
    expect(out.html).not.toContain('a note to the next writer');
    expect(out.html).not.toContain('over lines');
    expect(out.html).toContain('/* kept in code */');
    expect(out.warnings.map((w) => `${w.line}:${w.column} ${w.message}`)).toEqual([
      '8:1 the JSX component <Tabs> is not rendered: an .mdx page is built as plain markdown, so only its text shows',
      '9:1 the JSX component <TabItem> is not rendered: an .mdx page is built as plain markdown, so only its text shows',
    ]);
    expect(out.toc).toEqual([{ id: 'after', text: 'After', level: 2 }]);
    expect(out.toc[0]!.id).toBe('after');
    // A .md page is markdown as written: no MDX comment is taken out of it.
    expect((await render('Text {/* shown */}.\n')).html).toContain('{/* shown */}');
    // But Docusaurus 3 compiles .md pages as MDX too: one moved from it warns of its imports and components.
    const moved = await render("import Tabs from '@theme/Tabs';\n\nImport the CSV first, into a `Map<String>` or a ``Set<Row>``.\n\n<Tabs>\n<TabItem value=\"a\" label=\"Apple\">A text</TabItem>\n</Tabs>\n\n```js\nimport x from 'y';\n```\n");
    expect(moved.warnings.map((w) => `${w.line} ${w.message}`)).toEqual([
      "1 MDX `import` is not read: a page is built as plain markdown, so the line shows as text",
      '5 the JSX component <Tabs> is not rendered: a page is built as plain markdown, so only its text shows',
      '6 the JSX component <TabItem> is not rendered: a page is built as plain markdown, so only its text shows',
    ]);
  });

  it("shows GitHub's alerts (> [!NOTE]) as the admonitions they name, and leaves other quotes alone", async () => {
    const out = await render('> [!NOTE]\n> Laps count **twice** on the finish line.\n\n> [!caution]\n> Never restart the relay during a race.\n\n> [!IMPORTANT]\n\n> [!NOTE] not alone on its line\n\n> A plain quote.\n');
    expect(out.html).toContain('<aside role="note" class="admonition admonition-note" data-kind="note">\n<div class="admonition-title">Note</div>\n<p>Laps count <strong>twice</strong> on the finish line.</p>\n</aside>');
    expect(out.html).toContain('<aside role="note" class="admonition admonition-danger" data-kind="danger">\n<div class="admonition-title">Caution</div>\n<p>Never restart the relay during a race.</p>\n</aside>');
    expect(out.html).toContain('<aside role="note" class="admonition admonition-info" data-kind="info">\n<div class="admonition-title">Important</div>\n</aside>');
    expect(out.html).toContain('<blockquote>\n<p>[!NOTE] not alone on its line</p>\n</blockquote>');
    expect(out.html).toContain('<blockquote>\n<p>A plain quote.</p>\n</blockquote>');
  });

  it("marks lines with Docusaurus' magic comments and leaves the comments out of the code, unless the fence has {ranges}", async () => {
    const out = await render(
      '```js\nconst a = 1;\n// highlight-next-line\nconst b = 2;\n// highlight-start\nconst c = 3;\nconst d = 4;\n// highlight-end\nconst e = 5;\n```\n\n```bash\n# highlight-next-line\nbundle exec rails s\n```\n\n```html\n<!-- highlight-next-line -->\n<p>Hi</p>\n```\n\n```js {1}\n// highlight-next-line\nconst kept = true;\n```\n',
    );
    const blocks = out.html.split('<div class="code-block"').slice(1);
    const marked = blocks.map((block) => [...block.matchAll(/<span class="line( highlighted)?">/g)].map((line) => (line[1] ? 'x' : '.')).join(''));
    expect(marked).toEqual(['.xxx.', 'x', 'x', 'x.']);
    expect(blocks.slice(0, 3).join('')).not.toContain('highlight-');
    expect(blocks[3]).toContain('highlight-next-line');
  });

  it("numbers a fence's lines with Docusaurus' showLineNumbers, from a counter the copied text never holds", async () => {
    const out = await render('```ts showLineNumbers\nconst a = 1;\nconst b = 2;\n```\n\n```ts showLineNumbers=40 {2}\nconst c = 3;\nconst d = 4;\n```\n\n```ts\nconst e = 5;\n```\n');
    expect(out.html).toContain('<div class="code-block code-block-numbered" data-language="ts">');
    expect(out.html).toContain('<div class="code-block code-block-numbered" data-language="ts" style="counter-reset:line 39">');
    expect(out.html).toContain('<div class="code-block" data-language="ts">');
  });

  it('normalises `:::kind Title` to the directive label syntax without moving lines', () => {
    expect(normaliseAdmonitionTitles(':::tip Pro tip\nx\n:::\n:::note\n')).toBe(':::tip[Pro tip]\nx\n:::\n:::note\n');
  });

  it('gives two tabs of one label labels of their own, with a warning: one label was one tab to the runtime, both panels shown at once', async () => {
    const out = await render('# Page\n\n:::tabs\n```bash title="Linux"\napt install docs\n```\n```bash title="Linux"\ndnf install docs\n```\n:::\n');
    expect(out.html.match(/data-tab="Linux"/g)).toHaveLength(2);
    expect(out.html.match(/data-tab="Linux \(2\)"/g)).toHaveLength(2);
    expect(out.warnings.map(({ line, message }) => [line, message])).toEqual([[7, 'two tabs of this set are labelled "Linux", so this one is shown as "Linux (2)"']]);
  });

  it('leaves no mark of its own in the HTML of a page with raw HTML beside code, tabs and endpoints', async () => {
    const out = await render('# Page\n\n<div class="note">Raw <b>HTML</b>.</div>\n\n```js\nconst lap = 1;\n```\n\n:::tabs\n```bash title="Shell"\nmake\n```\n:::\n');
    expect(out.html).toContain('Raw <b>HTML</b>.</div>');
    expect(out.html).toContain('data-language="js"');
    expect(out.html).not.toContain('data-docs-own-element');
  });

  it('takes an indented code block that shows a fence, and a fence its list item closes, for what CommonMark makes of them', async () => {
    // Four spaces: code that shows a fence, not a fence (refused as "never closed").
    const shown = await render('# T\n\nShow a fence:\n\n    ```js\n    const a = 1\n\nAfter.\n');
    expect(shown.errors).toEqual([]);
    expect(shown.html.replace(/<[^>]+>/g, '')).toContain('```js');
    expect(shown.html).toContain('<p>After.</p>');
    // A fence left open in a list item ends with the item: the page after it is not taken in.
    const item = await render('- item\n\n  ```\n  code\n\nAfter.\n');
    expect(item.errors).toEqual([]);
    expect(item.html).toContain('<p>After.</p>');
    // Left open to the end of the page, it is still refused.
    expect((await render('Intro.\n\n```bash\nnpm ci\n\n## Next steps\n')).errors.map((error) => error.line)).toEqual([3]);
  });

  it("names the `:::` inside a code block that closes the block around it, and the fix that works (more colons), not the fence it cut off", async () => {
    const source = '# Notes\n\n:::tip[How to write a note]\n```md\n:::note\nKeep it short.\n:::\n```\n:::\n';
    const out = await render(source);
    expect(out.errors.map(({ line, column, message, fix }) => ({ line, column, message, fix }))).toEqual([
      {
        line: 7,
        column: 1,
        message: '`:::` inside the code block of line 4 closes the `:::tip` of line 3, so the code block ends there and its fence at line 8 opens a new one that is never closed',
        fix: 'open and close the `tip` block with more colons than any line inside it: `::::tip` at line 3 and `::::` where it ends',
      },
    ]);
    // The fix it gives builds the page, the code shown whole.
    const fixed = await render(source.replace(':::tip[', '::::tip[').replace(/:::\n$/, '::::\n'));
    expect(fixed.errors).toEqual([]);
    expect(fixed.html.replace(/<[^>]+>/g, '')).toContain(':::note');
    // In a set of tabs alike.
    const tabs = await render('# T\n\n:::tabs\n```md title="Markdown"\n:::note\nx\n:::\n```\n:::\n');
    expect(tabs.errors.map((error) => error.message)).toEqual(['`:::` inside the code block of line 4 closes the `:::tabs` of line 3, so the code block ends there and its fence at line 8 opens a new one that is never closed']);
  });

  it('refuses a comment or a raw-text element never closed (it takes in the rest of the page), and warns of one opened in running text', async () => {
    for (const [opening, fix] of [
      ['<!-- TODO: document the errors', 'end the comment with `-->`'],
      ['<style>', 'close it with `</style>`, or write it as code: `<style>`'],
      ['<script>', 'close it with `</script>`, or write it as code: `<script>`'],
      ['<template>', 'close it with `</template>`, or write it as code: `<template>`'],
    ] as const) {
      const out = await render(`# Page\n\nBefore.\n\n${opening}\n\n## Heading after\n\nText after.\n`);
      expect(out.errors.map(({ line, message, fix: given }) => [line, message, given]), opening).toEqual([[5, `\`${opening.startsWith('<!--') ? '<!--' : opening}\` is never closed, so it takes in the rest of the page`, fix]]);
    }
    // Closed, or a comment on one line: no error; the style sheet is removed, which a warning says.
    const closed = await render('# Page\n\n<!-- a note for writers -->\n\n<style>\n.x { color: red }\n</style>\n\nText.\n');
    expect(closed.errors).toEqual([]);
    expect(closed.warnings.map(({ line, message }) => [line, message])).toEqual([[5, '`<style>` is not allowed in a page, so it is removed with what it holds']]);
    // In running text: the rest of the paragraph goes; a warning says so. Closed in the paragraph, it does not.
    const prose = await render('# Page\n\nPut your CSS in a <style> element in the head.\n\nA <style>b{}</style> element closed.\n');
    expect(prose.errors).toEqual([]);
    expect(prose.warnings.map(({ line, message }) => [line, message])).toEqual([[3, '`<style>` in running text opens an element that takes in the rest of the paragraph, which then does not show']]);
  });

  it("reads VitePress' `::: tip` (a space after the colons) as `:::tip`, with or without a title, tab sets too, and leaves code fences that show the syntax as written", async () => {
    const body = [
      '::: tip',
      'Spaced.',
      ':::',
      '',
      '::: warning Mind the gap',
      'Titled.',
      ':::',
      '',
      '```md',
      '::: danger Shown, not run',
      ':::note Also shown',
      ':::',
      '```',
      '',
      '::::: note',
      'Five colons.',
      ':::::',
      '',
      '::: tabs',
      '```bash title="Shell"',
      'make seed',
      '```',
      '```ruby title="Console"',
      'Seed.run',
      '```',
      ':::',
      '',
    ].join('\n');
    const out = await render(body);
    expect(out.warnings).toEqual([]);
    expect(out.hasTabs).toBe(true);
    expect(out.html).toContain('<aside role="note" class="admonition admonition-tip" data-kind="tip"><div class="admonition-title">Tip</div><p>Spaced.</p></aside>');
    expect(out.html).toContain('<div class="admonition-title">Mind the gap</div><p>Titled.</p>');
    expect(out.html).toContain('<div class="admonition-title">Note</div><p>Five colons.</p>');
    expect(out.html).not.toMatch(/<p>:::/);
    // The fence shows the lines exactly as written.
    const code = out.html.slice(out.html.indexOf('data-language="md"'));
    expect(code).toContain('::: danger Shown, not run');
    expect(code).toContain(':::note Also shown');
    expect(code).not.toContain('[Also shown]');
  });
});
