/**
 * Two pages on one route, and routes that are one folder on some systems: the content stage's checks
 * of the routes it made (content.ts `collectContent`). A generated page (an API reference's) has no
 * file a writer can open: its problems name what generates it and the setting that places it.
 */
import type { Diagnostic } from '../util/errors';
import type { Doc } from './content';
import { isFolderPage } from './file-names';

/** A doc as the content stage holds it before its neighbours are known. */
type RoutedDoc = Omit<Doc, 'breadcrumbs' | 'prev' | 'next'>;

/** What made a doc's route, for a message: its frontmatter key and line, if one did. */
function madeBy({ routeFrom }: Pick<Doc, 'routeFrom'>): string {
  return routeFrom ? ` (by its \`${routeFrom.key}\`${routeFrom.line ? ` on line ${routeFrom.line}` : ''})` : '';
}

/** The problems of `docs`' routes (in file order): one route twice (named as such when two names differ only in Unicode normalisation), and routes that differ only in letter case. */
export function routeProblems(docs: RoutedDoc[], displayPrefix: string): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const seen = new Map<string, RoutedDoc>();
  /** Pairs of generators already reported as making pages at one route (each of their pages would be reported). */
  const reportedPairs = new Set<string>();
  for (const doc of docs) {
    const other = seen.get(doc.route);
    if (other === undefined) {
      seen.set(doc.route, doc);
      continue;
    }
    if (doc.generatedBy && other.generatedBy) {
      const pair = `${other.generatedBy.setting} ${doc.generatedBy.setting}`;
      if (reportedPairs.has(pair)) continue;
      reportedPairs.add(pair);
    }
    problems.push(accentTwins(doc, other, displayPrefix) ?? routeCollision(doc, other, displayPrefix));
  }
  // Output folders named by routes that differ only in letter case are one folder on macOS and
  // Windows: one page would overwrite the other there (and its links lead to either).
  const folded = new Map<string, RoutedDoc>();
  for (const doc of seen.values()) {
    const key = doc.route.toLowerCase();
    const other = folded.get(key);
    if (other === undefined) {
      folded.set(key, doc);
      continue;
    }
    problems.push({
      file: displayPrefix + doc.rel,
      line: doc.routeFrom?.line,
      message: `has the route ${doc.route}${madeBy(doc)}, which differs from ${other.route} of ${other.generatedBy ? `a page ${other.generatedBy.what} makes` : displayPrefix + other.rel} only in letter case: on macOS and Windows their output folders are one, and one page would overwrite the other`,
      fix: 'rename one of the two files or folders (or its `slug`) so the routes differ by more than case',
    });
  }
  return problems;
}

/**
 * The problem of two pages whose names (file paths, or slugs) differ only in how an accented letter is
 * encoded — `é` as one character, or as `e` and a combining accent, as macOS writes file names — which
 * look the same everywhere and give one route (routes take the composed form, content.ts `routeOf`).
 */
function accentTwins(doc: RoutedDoc, other: RoutedDoc, displayPrefix: string): Diagnostic | undefined {
  if (doc.generatedBy || other.generatedBy) return undefined;
  const name = (page: RoutedDoc): string => (typeof page.frontmatter.slug === 'string' ? page.frontmatter.slug : page.rel);
  if (name(doc) === name(other) || name(doc).normalize('NFC') !== name(other).normalize('NFC')) return undefined;
  return {
    file: displayPrefix + doc.rel,
    line: doc.routeFrom?.line,
    message: `has the route ${doc.route}${madeBy(doc)}, which ${displayPrefix + other.rel}${madeBy(other)} has too: their names differ only in how an accented letter is encoded (one character, or a letter and a combining accent), which looks the same everywhere, and a route takes the composed form (one character)`,
    fix: 'keep one of the two pages (one may be a copy of the other, saved on another system), or rename one so the names differ by more than the encoding of a letter',
  };
}

/**
 * The problem of two pages on one route. With a generated page, the problem is the writer's page's,
 * naming what generates the other and the setting that places it; two generated pages are a problem
 * of the config.
 */
function routeCollision(doc: RoutedDoc, other: RoutedDoc, displayPrefix: string): Diagnostic {
  const made = doc.generatedBy ?? other.generatedBy;
  if (doc.generatedBy && other.generatedBy) {
    const settings = [...new Set([other.generatedBy.setting, doc.generatedBy.setting])];
    const both = other.generatedBy.what === doc.generatedBy.what ? `${doc.generatedBy.what}, given twice, makes` : `${other.generatedBy.what} and ${doc.generatedBy.what} make`;
    return { file: doc.generatedBy.configFile, message: `${both} pages on the same routes (${doc.route} first)`, fix: `give each API reference a route of its own: ${settings.join(', ')} in ${doc.generatedBy.configFile}` };
  }
  if (made) {
    const page = doc.generatedBy ? other : doc;
    return {
      file: displayPrefix + page.rel,
      line: page.routeFrom?.line,
      message: `has the route ${page.route}${madeBy(page)}, where ${made.what} makes a page too`,
      fix: `move or rename this page${page.routeFrom ? ` (or change its \`${page.routeFrom.key}\`)` : ''}, or give the API reference another route: ${made.setting} in ${made.configFile}`,
    };
  }
  return {
    file: displayPrefix + doc.rel,
    line: doc.routeFrom?.line,
    message: `has the route ${doc.route}${madeBy(doc)}, which ${displayPrefix + other.rel}${madeBy(other)} already has`,
    fix:
      doc.routeFrom || other.routeFrom
        ? `give one of them a different \`${(doc.routeFrom ?? other.routeFrom)!.key}\`, or remove it`
        : isFolderPage(doc.rel, doc.frontmatter) && isFolderPage(other.rel, other.frontmatter)
          ? `index.md, README.md and a page named as its folder are each the folder's own page: keep one, and rename the other (e.g. to overview.md)`
          : 'rename or move one of the two files, or give one a different `slug`',
  };
}
