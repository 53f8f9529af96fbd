/**
 * Link targets a page may hold: `http`, `https`, `mailto`, `tel`, and URLs without a scheme (routes,
 * anchors, relative paths). Anything else — `javascript:`, `vbscript:`, `data:`, `file:` — is removed
 * from every element of every page, markdown and raw HTML alike, with a warning naming its line.
 * Only `img` may also show an inline raster image (`data:image/png;base64,…`): it cannot run code.
 */
import type { Element, Root } from 'hast';
import type { Diagnostic } from '../../../util/errors';
import { walk, type WalkNode } from '../walk';
import { formatSrcset, parseSrcset } from './srcset';

/** Schemes a link may use. */
export const ALLOWED_SCHEMES = ['http', 'https', 'mailto', 'tel'];

/** Properties (hast names) that hold a URL. */
const URL_PROPERTIES = ['href', 'src', 'cite', 'poster', 'action', 'formAction', 'xLinkHref', 'background', 'longDesc', 'manifest', 'codeBase', 'data', 'ping'];

/** A URL without the spaces and C0 controls a browser drops before it. */
export function withoutLeadingSpace(url: string): string {
  return url.replace(/^[\u0000-\u0020]+/, '');
}

/** The scheme a browser reads in `url` (lower case), or undefined for a URL without one. */
export function schemeOf(url: string): string | undefined {
  // As the URL parser does: leading and trailing C0 controls and spaces go, tabs and newlines anywhere.
  const bare = withoutLeadingSpace(url).replace(/[\t\n\r]/g, '');
  return /^([a-z][a-z0-9+.-]*):/i.exec(bare)?.[1]?.toLowerCase();
}

function allowed(url: string, tagName: string, property: string): boolean {
  const scheme = schemeOf(url);
  if (scheme === undefined || ALLOWED_SCHEMES.includes(scheme)) return true;
  return scheme === 'data' && tagName === 'img' && property === 'src' && /^\s*data:image\/(?:png|gif|jpeg|webp|avif);/i.test(url);
}

/** Removes every URL with a scheme outside the allowlist from `tree`, warning once per removal. */
export function removeUnsafeUrls(tree: Root, file: string, warnings: Diagnostic[]): void {
  walk(tree as unknown as WalkNode, (node) => {
    if (node.type !== 'element') return;
    const element = node as unknown as Element;
    for (const property of URL_PROPERTIES) {
      const value = element.properties[property];
      if (value === undefined || value === null) continue;
      const urls = Array.isArray(value) ? value.map(String) : [String(value)];
      const bad = urls.find((url) => !allowed(url, element.tagName, property));
      if (bad === undefined) continue;
      delete element.properties[property];
      const shown = bad.length > 60 ? `${bad.slice(0, 57)}…` : bad;
      warnings.push({
        file,
        line: element.position?.start.line,
        column: element.position?.start.column,
        message: `removed the ${property === 'href' ? 'link target' : `\`${property}\``} "${shown}": the scheme "${schemeOf(bad)}:" is not allowed on a page`,
        fix: `use ${ALLOWED_SCHEMES.join(', ')} or a path of the site`,
      });
    }
    // An image candidate of a `srcset` is held to what `src` is; the others stay.
    const srcSet = element.properties.srcSet;
    if (typeof srcSet === 'string') {
      const candidates = parseSrcset(srcSet);
      const kept = candidates.filter((candidate) => allowed(candidate.url, 'img', 'src'));
      if (kept.length === candidates.length) return;
      if (kept.length > 0) element.properties.srcSet = formatSrcset(kept);
      else delete element.properties.srcSet;
      const bad = candidates.find((candidate) => !kept.includes(candidate))!.url;
      warnings.push({ file, line: element.position?.start.line, column: element.position?.start.column, message: `removed the \`srcset\` image "${bad.length > 60 ? `${bad.slice(0, 57)}…` : bad}": the scheme "${schemeOf(bad)}:" is not allowed on a page`, fix: `use ${ALLOWED_SCHEMES.join(', ')} or a path of the site` });
    }
  });
}
