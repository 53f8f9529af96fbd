/**
 * Raw HTML in markdown, made safe: parsed into the tree (hast-util-raw) and cleaned to an allowlist
 * (hast-util-sanitize with GitHub's schema, plus the attributes of this pipeline's own admonitions and
 * tab sets). No `script`, no `on*` handler, no `javascript:` URL, no `style`, `iframe`, `form` or
 * `object` survive; ids and names get the `user-content-` prefix so they cannot clobber the page's own.
 *
 * The elements this pipeline generates whose attributes the runtime trusts — highlighted code (its
 * HTML travels in `data-html`), diagrams, tab buttons, endpoint lines — are set aside behind a token
 * no document can guess while the rest is cleaned, then put back.
 */
import { randomBytes } from 'node:crypto';
import type { Element, Root, Text } from 'hast';
import { VFile } from 'vfile';
import { defaultSchema, sanitize, type Schema } from 'hast-util-sanitize';
import { walk, type WalkNode } from '../walk';
import { firstTooDeep, TooDeepHtml } from './limits';
import type { Diagnostic } from '../../../util/errors';

/** The allowlist: GitHub's, and the classes and attributes of admonitions and tab sets (see README). */
export const RAW_HTML_SCHEMA: Schema = {
  ...defaultSchema,
  tagNames: [...(defaultSchema.tagNames ?? []), 'aside'],
  // Removed with what they hold: a style sheet's or a template's text is no text of the page.
  strip: [...(defaultSchema.strip ?? []), 'style', 'template'],
  // The schemes of plugins/safe-urls.ts (which warns about the rest before this removes them).
  protocols: { ...defaultSchema.protocols, href: ['http', 'https', 'mailto', 'tel'] },
  attributes: {
    ...defaultSchema.attributes,
    aside: [['className', /^admonition(-[a-z]+)?$/], 'dataKind'],
    div: [...(defaultSchema.attributes?.div ?? []), ['className', 'admonition-title', 'tabs', 'tab-panel'], ['role', 'tabpanel'], 'dataTab', 'dataDefault'],
  },
};

/** The elements the cleaning keeps, and those it removes with what they hold. */
const ALLOWED = new Set(RAW_HTML_SCHEMA.tagNames);
const STRIPPED = new Set(RAW_HTML_SCHEMA.strip);

/** What to do instead of an element the cleaning removes, by element. */
const INSTEAD: Record<string, string> = {
  script: 'pages run no scripts of their own: describe what it did, or link to a page that does it',
  style: 'the site\'s theme styles every page: use markdown for emphasis, headings and tables',
  iframe: 'link to what it showed instead, e.g. [Open the dashboard](https://…)',
  video: 'link to the video instead, e.g. [Watch the demo](./demo.mp4)',
  audio: 'link to the recording instead, e.g. [Listen](./briefing.mp3)',
  svg: 'save the drawing as an .svg file and show it as an image: ![Diagram](./diagram.svg)',
};

/**
 * Warnings for the elements of raw HTML (`fromRaw`) the cleaning will remove, once per element name a
 * page, at the first one's line: a `<video>` or an inline `<svg>` vanished from the page without a word.
 * `script`, `style` and `template` go with what they hold; the others leave their text. `where` names
 * what holds them (the announcement's HTML is checked here too).
 */
export function removedElements(fromRaw: Element[], file: string, source: string, earlier: Diagnostic[], where = 'a page'): Diagnostic[] {
  // Most pages hold only allowed elements, or none: the page is not split into lines for them.
  if (fromRaw.every((element) => ALLOWED.has(element.tagName))) return [];
  const lines = source.split('\n');
  const seen = new Set<string>();
  const warnings: Diagnostic[] = [];
  /** Elements inside a removed one (an `<svg>`'s shapes): its warning covers them. */
  const inside = new Set<Element>();
  for (const element of fromRaw) {
    const name = element.tagName;
    if (ALLOWED.has(name) || inside.has(element)) continue;
    walk(element as unknown as WalkNode, (node) => {
      if (node.type === 'element' && node !== (element as unknown as WalkNode)) inside.add(node as unknown as Element);
    });
    if (seen.has(name)) continue;
    const place = element.position?.start;
    const written = place ? (lines[place.line - 1] ?? '').slice(place.column - 1) : '';
    // A JSX component (`<Tabs>`, capitalised) has its own warning (mdx.ts); so has a raw-text element
    // opened in running text (unclosed.ts), at the same place.
    if (/^<[A-Z]/.test(written) || earlier.some((warning) => warning.line === place?.line && warning.message.startsWith(`\`<${name}>\``))) continue;
    seen.add(name);
    warnings.push({
      file,
      ...(place ? { line: place.line, column: place.column } : {}),
      message: `\`<${name}>\` is not allowed in ${where}, so it is removed${STRIPPED.has(name) ? ' with what it holds' : ' (its text stays)'}`,
      fix: INSTEAD[name] ?? 'use markdown, or an element of the allowed raw HTML (README, "Raw HTML")',
    });
  }
  return warnings;
}

/**
 * Warnings for the event handlers (`onclick`…) of raw HTML (`fromRaw`) the cleaning removes, once per
 * name, at the first one's element: the writer's button did nothing, without a word. `scripts` says
 * why they go.
 */
export function removedHandlers(fromRaw: Element[], file: string, scripts = 'a page runs no scripts of its own'): Diagnostic[] {
  const seen = new Set<string>();
  const warnings: Diagnostic[] = [];
  for (const element of fromRaw) {
    for (const key of Object.keys(element.properties)) {
      const name = key.toLowerCase();
      if (!/^on[a-z]/i.test(key) || seen.has(name)) continue;
      seen.add(name);
      const place = element.position?.start;
      warnings.push({ file, ...(place ? { line: place.line, column: place.column } : {}), message: `the event handler \`${name}\` is removed: ${scripts}`, fix: 'remove it; a link (<a href="/guide/…">) can lead where the handler would have taken the reader' });
    }
  }
  return warnings;
}

/** Classes of generated elements set aside while raw HTML is cleaned. */
const TRUSTED = ['code-block', 'mermaid', 'tab-list', 'api-endpoint'];

function isTrusted(node: WalkNode): boolean {
  if (node.type !== 'element') return false;
  const classes = (node as unknown as Element).properties.className;
  return Array.isArray(classes) && classes.some((name) => TRUSTED.includes(String(name)));
}

/** Marks the elements of the tree before raw HTML is parsed into it: those without it came from raw HTML. */
const OWN_MARK = 'dataDocsOwnElement';

/**
 * The tree with its raw HTML parsed and cleaned; the same tree when it has none. `inspect` sees the
 * tree with raw HTML parsed but not yet cleaned (to warn about what the cleaning will remove), and the
 * elements that came from raw HTML (to check and rewrite their links as markdown's are). Throws
 * `TooDeepHtml` when the parsed HTML nests more than `DEEP_HTML` elements deep.
 */
export async function sanitizeRawHtml(tree: Root, inspect: (tree: Root, fromRaw: Element[]) => void = () => undefined, source?: string): Promise<Root> {
  let hasRaw = false;
  walk(tree, (node) => {
    if (node.type === 'raw') hasRaw = true;
  });
  if (!hasRaw) {
    inspect(tree, []);
    return tree;
  }
  const token = `docs-${randomBytes(12).toString('hex')}-`;
  const kept: Element[] = [];
  walk(tree, (node) => {
    if (!isTrusted(node)) return;
    kept.push(node as unknown as Element);
    return [{ type: 'text', value: `${token}${kept.length - 1}` } as WalkNode];
  });
  // Marked once the trusted elements are set aside: they come back as they were, with no mark.
  walk(tree, (node) => {
    if (node.type === 'element') (node as unknown as Element).properties[OWN_MARK] = true;
  });
  // Loaded by the first page that holds raw HTML: hast-util-raw brings parse5, a seventh of the render
  // worker's code, which every thread of every build parsed before its first page.
  const { raw } = await import('hast-util-raw');
  // With the source, elements of raw HTML keep their positions (warnings name their lines).
  const parsed = raw(tree, source === undefined ? undefined : { file: new VFile(source) }) as Root;
  const deep = firstTooDeep(parsed);
  if (deep) throw new TooDeepHtml(deep.position?.start.line);
  const fromRaw: Element[] = [];
  walk(parsed, (node) => {
    if (node.type !== 'element') return;
    const properties = (node as unknown as Element).properties;
    if (OWN_MARK in properties) delete properties[OWN_MARK];
    else fromRaw.push(node as unknown as Element);
  });
  inspect(parsed, fromRaw);
  const clean = sanitize(parsed, RAW_HTML_SCHEMA) as Root;
  // The parser may merge a token with the text around it: split such text nodes around each token.
  const pattern = new RegExp(`${token}(\\d+)`, 'g');
  walk(clean, (node) => {
    if (node.type === 'element') {
      // Footnote ids come prefixed from mdast-util-to-hast already; the sanitizer prefixed them again.
      const properties = (node as unknown as Element).properties;
      for (const key of ['id', 'name'] as const) {
        const value = properties[key];
        if (typeof value === 'string') properties[key] = value.replace(/^(user-content-)+/, 'user-content-');
      }
      return;
    }
    const value = node.type === 'text' ? (node as unknown as Text).value : '';
    if (!value.includes(token)) return;
    const parts: WalkNode[] = [];
    let last = 0;
    for (const match of value.matchAll(pattern)) {
      const before = value.slice(last, match.index);
      if (before.trim()) parts.push({ type: 'text', value: before } as WalkNode);
      parts.push(kept[Number(match[1])] as unknown as WalkNode);
      last = match.index + match[0].length;
    }
    const after = value.slice(last);
    if (after.trim()) parts.push({ type: 'text', value: after } as WalkNode);
    return parts;
  });
  return clean;
}
