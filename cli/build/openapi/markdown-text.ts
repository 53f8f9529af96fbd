/**
 * Markdown written from a spec's text, so that no value of a spec can change the page around it: code
 * fences longer than any backtick run, frontmatter values as JSON strings, directive attributes and
 * table cells escaped, names and addresses shown as written. Part of stage 4b, openapi (pages.ts).
 */

/** A code fence around `code`, longer than any run of backticks in it, so no text of a spec can end it early. */
export function fenced(lang: string, meta: string, code: string): string[] {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${lang}${meta}`, code, fence];
}

/** A frontmatter block; values are JSON strings, which YAML reads as they are. */
export function frontmatter(fields: Record<string, string | number | boolean | undefined>): string {
  const lines = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
  return `---\n${lines.join('\n')}\n---\n`;
}

/** A directive attribute's value in double quotes: `&` and `"` as character references, which the parser decodes. */
export function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/** A table cell's markdown: GFM ends a cell at every `|`, inside code too, unless it is escaped. */
export function tableCell(markdown: string): string {
  return markdown.replace(/\|/g, '\\|');
}

/**
 * A markdown link to `url` showing `text` as written, whatever either holds: the text's markdown
 * characters escaped, the URL in `<…>` with the characters that would end it percent-encoded (a
 * contact address `a>b@quad.example` made an autolink that swallowed the line).
 */
export function markdownLink(text: string, url: string): string {
  const target = url.replace(/[<>\s]/g, (char) => encodeURIComponent(char));
  return `[${asWritten(text)}](<${target}>)`;
}

/** Plain text (a name, an address) as markdown that shows it as written, on one line. */
export function asWritten(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/[\\`*_[\]<>!&|]/g, (char) => `\\${char}`);
}
