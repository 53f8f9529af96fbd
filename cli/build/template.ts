/**
 * The site's HTML shell, `templates/page.html` (the generator's own unless the site has one). Every
 * page is poured into it through `<!--docs:NAME-->` marks, so a shell that lost one builds pages that
 * are empty, unstyled, never hydrate, or, without the head script or the CSP, show the text to a
 * signed-out reader: such a shell is refused with the mark and the line to put back.
 */
import { existsSync, lstatSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { leadsInside, publishableRoots } from '../util/fs';
import { PACKAGE_ROOT } from '../util/package-root';
import { DocsError, suggest, type Diagnostic } from '../util/errors';

/** Each mark a shell must hold once, with the markup of the default shell around it. */
const REQUIRED: Record<string, string> = {
  csp: '<!--docs:csp-->',
  head: '<!--docs:head-->',
  'head-script': '<script><!--docs:head-script--></script>',
  css: '<link rel="stylesheet" href="<!--docs:css-->" />',
  js: '<script type="module" src="<!--docs:js-->"></script>',
  app: '<div id="__docs"><!--docs:app--></div>',
  data: '<script type="application/json" id="__DOCS_DATA__"><!--docs:data--></script>',
};
/** Marks a shell may leave out. */
const OPTIONAL = ['lang', 'preload'];

/**
 * A file of the site's own `templates/` folder, else the generator's default. Its bytes are published
 * (the icon as it is, the shell in every page), so a symbolic link is followed only into the site's
 * repository, as a page's links are (util/fs.ts `publishableRoots`): one to `/proc/self/environ` or a
 * key elsewhere on the machine would put it in the output for anyone the host serves.
 */
export function templateFile(root: string, name: string): string {
  const own = join(root, 'templates', name);
  const file = `templates/${name}`;
  let link: Stats;
  try {
    link = lstatSync(own);
  } catch {
    return join(PACKAGE_ROOT, 'templates', name);
  }
  if (link.isSymbolicLink() && !existsSync(own)) throw new DocsError('content', [{ file, message: 'is a symbolic link to nothing', fix: `put the site's own ${name} there, or remove the link to use the default` }]);
  if (link.isSymbolicLink() && !leadsInside(own, publishableRoots(join(root, 'templates')))) {
    throw new DocsError('content', [{ file, message: 'is a symbolic link that leads out of the site\'s repository, so it is not published', fix: `copy the file into templates/: a build publishes only files of the repository that holds the site` }]);
  }
  const stats = statSync(own);
  if (!stats.isFile()) throw new DocsError('content', [{ file, message: `is ${stats.isDirectory() ? 'a folder' : 'a pipe, a socket or a device'}, not a file`, fix: `put the site's own ${name} there, or remove ${stats.isDirectory() ? 'the folder' : 'it'} to use the default` }]);
  return own;
}

/** Returns `text` when it is a shell every page can be poured into; else throws naming each problem. */
export function checkTemplate(text: string, file: string): string {
  const problems: Diagnostic[] = [];
  const lineOf = (index: number): number => text.slice(0, index).split('\n').length;
  const seen = new Map<string, number[]>();
  for (const match of text.matchAll(/<!--docs:([^>]*?)-->/g)) {
    const name = match[1]!;
    if (name in REQUIRED || OPTIONAL.includes(name)) {
      seen.set(name, [...(seen.get(name) ?? []), match.index]);
      continue;
    }
    const likely = suggest(name, [...Object.keys(REQUIRED), ...OPTIONAL]);
    problems.push({ file, line: lineOf(match.index), message: `<!--docs:${name}--> is not a mark docs fills`, fix: likely ? `write <!--docs:${likely}-->` : `use one of ${[...Object.keys(REQUIRED), ...OPTIONAL].join(', ')}, or remove it` });
  }
  for (const [name, markup] of Object.entries(REQUIRED)) {
    const places = seen.get(name) ?? [];
    if (places.length === 0) problems.push({ file, message: `has no <!--docs:${name}--> mark, so ${consequence(name)}`, fix: `put back ${markup} (see the generator's own templates/page.html)` });
    else if (places.length > 1) problems.push({ file, line: lineOf(places[1]!), message: `holds <!--docs:${name}--> ${places.length} times`, fix: 'keep one' });
    else if (name === 'app' || name === 'data') {
      // The runtime finds the page and its data by these ids.
      const id = name === 'app' ? '__docs' : '__DOCS_DATA__';
      if (!new RegExp(`id="${id}"[^>]*>\\s*<!--docs:${name}-->`).test(text)) problems.push({ file, line: lineOf(places[0]!), message: `<!--docs:${name}--> is not directly inside the element with id="${id}", where the runtime looks for it`, fix: `write ${markup}` });
    }
  }
  if (problems.length > 0) throw new DocsError('content', problems);
  return text;
}

function consequence(name: string): string {
  switch (name) {
    case 'csp':
      return 'pages would go out without their Content-Security-Policy';
    case 'head-script':
      return 'a signed-out reader would see the page before the login screen, and the colour mode would flash';
    case 'head':
      return 'pages would have no title or description';
    case 'css':
      return 'pages would have no styles';
    case 'js':
      return 'pages would never load the runtime (no login, no navigation)';
    case 'app':
      return 'pages would be empty';
    default:
      return 'the runtime would find no page data and never start';
  }
}
