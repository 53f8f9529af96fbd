/**
 * `srcset` (on `<img>` and on a `<picture>`'s `<source>`, GitHub's way of showing another image in dark
 * mode): a list of image candidates, each a URL and what it is for (`2x`, `640w`). Each URL is an image
 * of the page like `src`: copied under a name of its bytes, checked, and held to the schemes a page
 * may use. It was published as written: the image missing from the output, a `javascript:` kept.
 */

/** One candidate of a `srcset`: its URL and its descriptors as written (`2x`, `640w`, or ''). */
export interface SrcsetCandidate {
  url: string;
  descriptors: string;
}

/** The candidates of a `srcset`, read as the HTML standard reads them (a URL may hold a comma; one that ends with one has no descriptors). */
export function parseSrcset(srcset: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let at = 0;
  while (at < srcset.length) {
    while (at < srcset.length && /[\s,]/.test(srcset[at]!)) at++;
    if (at >= srcset.length) break;
    const start = at;
    while (at < srcset.length && !/\s/.test(srcset[at]!)) at++;
    let url = srcset.slice(start, at);
    let descriptors = '';
    if (url.endsWith(',')) url = url.replace(/,+$/, '');
    else {
      const from = at;
      let depth = 0;
      while (at < srcset.length && (depth > 0 || srcset[at] !== ',')) {
        if (srcset[at] === '(') depth++;
        else if (srcset[at] === ')') depth = Math.max(0, depth - 1);
        at++;
      }
      descriptors = srcset.slice(from, at).trim();
    }
    if (url) candidates.push({ url, descriptors });
  }
  return candidates;
}

/** A `srcset` written back from its candidates. */
export function formatSrcset(candidates: SrcsetCandidate[]): string {
  return candidates.map(({ url, descriptors }) => (descriptors ? `${url} ${descriptors}` : url)).join(', ');
}
