/**
 * The length limit of the names a sidebar shows: a page's title and `sidebar_label`, a category's
 * `label`. Part of stage 2, content (content.ts, categories.ts).
 */
import type { Diagnostic } from '../util/errors';

/**
 * The most characters a page title, a sidebar label or a category label may have. Every page embeds
 * its whole sidebar, and breadcrumbs and `manifest.json` repeat the names, so the output grows with
 * pages × label length: 40 pages with a 250 kB `sidebar_label` wrote 503 MB. A thousand characters is
 * some forty lines of the sidebar's column, past any label a reader could use, and keeps a sidebar of
 * a thousand pages under a megabyte a page.
 */
export const MAX_LABEL_CHARACTERS = 1_000;

/** What the fix of each of these problems says about why a label is short. */
export const WHY = 'a sidebar label is shown in a column 288 px wide';

/** The characters (code points) of `text` when more than MAX_LABEL_CHARACTERS, else undefined. */
export function overLimit(text: string): number | undefined {
  // Counted only when it may be over: a UTF-16 length within the limit holds fewer code points still.
  if (text.length <= MAX_LABEL_CHARACTERS) return undefined;
  const count = [...text].length;
  return count > MAX_LABEL_CHARACTERS ? count : undefined;
}

/** `is 250,003 characters long, more than … may be (1,000)`. */
export const tooLong = (length: number, what: string): string => `is ${length.toLocaleString('en-GB')} characters long, more than ${what} may be (${MAX_LABEL_CHARACTERS.toLocaleString('en-GB')})`;

/** A page's names as content.ts reads them, and where each is written. */
export interface PageNames {
  /** The file, as messages name it. */
  file: string;
  title: string;
  /** Where the title comes from: the frontmatter, the page's leading `# heading`, or its file name (which the file system keeps short). */
  titleFrom: { key: 'title'; line?: number } | { key: 'heading'; line: number } | { key: 'file' };
  /** Frontmatter `sidebar_label`, with its line. */
  sidebarLabel?: { text: string; line?: number };
}

/** The problems of a page whose title or sidebar label is longer than MAX_LABEL_CHARACTERS. */
export function pageLabelProblems({ file, title, titleFrom, sidebarLabel }: PageNames): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const titleLength = titleFrom.key === 'file' ? undefined : overLimit(title);
  const where = 'it names the page in the sidebar (unless `sidebar_label` is set), the breadcrumbs and the manifest, on every page of its sidebar';
  if (titleLength !== undefined && titleFrom.key === 'title') {
    problems.push({ file, line: titleFrom.line, message: `frontmatter \`title\` ${tooLong(titleLength, 'a page title')}: ${where}`, fix: `shorten it; ${WHY}` });
  }
  if (titleLength !== undefined && titleFrom.key === 'heading') {
    problems.push({ file, line: titleFrom.line, column: 1, message: `its leading \`# heading\`, the page's title, ${tooLong(titleLength, 'a page title')}: ${where}`, fix: `shorten the heading, or give the page a short \`title\` in its frontmatter (the heading still shows in full); ${WHY}` });
  }
  const labelLength = sidebarLabel && overLimit(sidebarLabel.text);
  if (labelLength !== undefined) {
    problems.push({ file, line: sidebarLabel!.line, message: `frontmatter \`sidebar_label\` ${tooLong(labelLength, 'a sidebar label')}: every page of its sidebar shows it`, fix: `shorten it; ${WHY}` });
  }
  return problems;
}

/** The problem of a category file (its text `text`) whose `label` is longer than MAX_LABEL_CHARACTERS. */
export function categoryLabelProblem(file: string, text: string, label: string | undefined): Diagnostic | undefined {
  const length = label === undefined ? undefined : overLimit(label);
  if (length === undefined) return undefined;
  // The line of the key: `"label":` in JSON, `label:` in YAML.
  const at = /"label"\s*:|^label\s*:/m.exec(text);
  const line = at ? text.slice(0, at.index).split('\n').length : undefined;
  return { file, line, pointer: '/label', message: `\`label\` ${tooLong(length, 'a category label')}: every page of its sidebar shows it`, fix: `shorten it; ${WHY}` };
}
