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
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { raw } from 'hast-util-raw';
import { defaultSchema, sanitize, type Schema } from 'hast-util-sanitize';

/** The allowlist: GitHub's, and the classes and attributes of admonitions and tab sets (see README). */
export const RAW_HTML_SCHEMA: Schema = {
  ...defaultSchema,
  tagNames: [...(defaultSchema.tagNames ?? []), 'aside'],
  attributes: {
    ...defaultSchema.attributes,
    aside: [['className', /^admonition(-[a-z]+)?$/], 'dataKind'],
    div: [...(defaultSchema.attributes?.div ?? []), ['className', 'admonition-title', 'tabs', 'tab-panel'], ['role', 'tabpanel'], 'dataTab', 'dataDefault'],
  },
};

/** Classes of generated elements set aside while raw HTML is cleaned. */
const TRUSTED = ['code-block', 'mermaid', 'tab-list', 'api-endpoint'];

function isTrusted(node: RootContent | ElementContent): boolean {
  if (node.type !== 'element') return false;
  const classes = node.properties.className;
  return Array.isArray(classes) && classes.some((name) => TRUSTED.includes(String(name)));
}

function hasRaw(node: Root | ElementContent): boolean {
  if (node.type === 'raw') return true;
  return 'children' in node && node.children.some((child) => hasRaw(child as ElementContent));
}

/** The tree with its raw HTML parsed and cleaned; the same tree when it has none. */
export function sanitizeRawHtml(tree: Root): Root {
  if (!hasRaw(tree)) return tree;
  const token = `docs-${randomBytes(12).toString('hex')}-`;
  const kept: Element[] = [];
  const setAside = (parent: Root | Element): void => {
    parent.children = parent.children.map((child: RootContent | ElementContent): RootContent | ElementContent => {
      if (isTrusted(child)) {
        kept.push(child as Element);
        return { type: 'text', value: `${token}${kept.length - 1}` };
      }
      if (child.type === 'element') setAside(child);
      return child;
    }) as typeof parent.children;
  };
  setAside(tree);
  const clean = sanitize(raw(tree), RAW_HTML_SCHEMA) as Root;
  // The parser may merge a token with the text around it: split such text nodes around each token.
  const pattern = new RegExp(`${token}(\\d+)`, 'g');
  const restore = (parent: Root | Element): void => {
    parent.children = parent.children.flatMap((child: RootContent | ElementContent): (RootContent | ElementContent)[] => {
      if (child.type === 'element') {
        restore(child);
        // Footnote ids come prefixed from mdast-util-to-hast already; the sanitizer prefixed them again.
        for (const key of ['id', 'name'] as const) {
          const value = child.properties[key];
          if (typeof value === 'string') child.properties[key] = value.replace(/^(user-content-)+/, 'user-content-');
        }
        return [child];
      }
      if (child.type !== 'text' || !child.value.includes(token)) return [child];
      const parts: (RootContent | ElementContent)[] = [];
      let last = 0;
      for (const match of child.value.matchAll(pattern)) {
        const before = child.value.slice(last, match.index);
        if (before.trim()) parts.push({ type: 'text', value: before });
        parts.push(kept[Number(match[1])]!);
        last = match.index + match[0].length;
      }
      const after = child.value.slice(last);
      if (after.trim()) parts.push({ type: 'text', value: after });
      return parts;
    }) as typeof parent.children;
  };
  restore(clean);
  return clean;
}
