/**
 * What a route may hold. A route becomes a folder of the output (`/a/b` → `a/b/index.html`) and the
 * path of a URL, so it must stay inside the output and survive the trip through a browser and a host:
 * no `.` or `..` segment, and none of the characters a URL path cannot carry as written.
 */
import { shortenUtf8 } from '../util/utf8';

/** Characters a route must not hold, with the reason a reader sees. */
const RESERVED: [RegExp, string][] = [
  [/#/, 'holds `#`, which starts the fragment of a URL (the browser would cut the path there)'],
  [/\?/, 'holds `?`, which starts the query of a URL (the browser would cut the path there)'],
  [/%/, 'holds `%`, which starts a percent-escape in a URL'],
  [/\\/, 'holds `\\`, which browsers turn into `/`'],
  [/[\u0000-\u001f\u007f]/, 'holds a control character'],
];

/** The longest route, in bytes (UTF-8). */
export const MAX_ROUTE_BYTES = 1_000;

/** Why `route` cannot be a route, or undefined when it can. */
export function routeProblem(route: string): string | undefined {
  if (!route.startsWith('/')) return 'does not start with `/`';
  for (const [pattern, reason] of RESERVED) if (pattern.test(route)) return reason;
  if (route.split('/').some((segment) => segment === '..' || segment === '.')) return 'has a `.` or `..` segment, which would put the page outside its place (or outside the output folder)';
  const segments = route.split('/').slice(1);
  if (segments[0] === 'assets' || segments.some((segment) => segment.startsWith('.'))) return 'is reserved for the site\'s own files (`/assets/`, and names starting with `.`)';
  if (['manifest.json', '404.html', 'favicon.svg'].includes(segments[0] ?? '') && segments.length === 1) return 'is the name of one of the site\'s own files';
  // What the servers answer themselves: a page there would be hidden behind them.
  if (segments[0] === '__docs') return 'is reserved for the addresses `docs serve` answers itself (`/__docs/`, its live reload)';
  if (route === '/api/login') return 'is the login call (POST /api/login), which the gated host and `docs serve` answer themselves, so no reader would reach the page';
  if (segments.some((segment) => /\.html?$/i.test(segment))) return 'ends a segment in `.html`, which a browser address drops (`/a.html` shows `/a`)';
  // A browser drops the spaces at the end of an address, and a link to `/guide/a ` lands on `/guide/a`.
  if (segments.some((segment) => /^\s|\s$/.test(segment))) return 'has a segment that starts or ends with a space, which a browser address drops, so no link reaches the page';
  // A segment is a folder name: most filesystems hold 255 bytes (not characters: one CJK character is three).
  if (route.split('/').some((segment) => Buffer.byteLength(segment) > 200)) return 'has a segment longer than 200 bytes (a letter with an accent takes two, a CJK character three), more than a file name may safely hold';
  // The whole route: the build cache keys a page by it (LMDB holds keys of 1,978 bytes at most), and a
  // path longer than a few thousand bytes fits no file system with the output folder in front.
  if (Buffer.byteLength(route) > MAX_ROUTE_BYTES) return `is longer than ${MAX_ROUTE_BYTES.toLocaleString('en-GB')} bytes (${Buffer.byteLength(route).toLocaleString('en-GB')}), more than a page's address and its place in the output may hold`;
  // Characters no one sees (zero-width, or turning the text's direction): the route looks like another.
  const invisible = INVISIBLE.exec(route)?.[0];
  if (invisible !== undefined) return `holds the invisible character U+${invisible.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} (zero-width, or turning the text's direction), so it looks like a route it is not`;
  // A writer building on Windows would be stopped by the file system, or write to a device.
  if (segments.some((segment) => segment.endsWith('.'))) return 'ends a segment with a dot, which Windows drops from file and folder names: the output could not be written there as named';
  const windows = WINDOWS_CHARACTERS.exec(route)?.[0];
  if (windows !== undefined) return `holds \`${windows}\`, which no file or folder name may hold on Windows: the output could not be written there`;
  const device = segments.find(isWindowsDevice);
  if (device !== undefined) return `has the segment \`${device}\`, a device name on Windows (CON, PRN, AUX, NUL, COM0–9, LPT0–9, with any extension), which no file or folder there may have`;
  return undefined;
}

/** Zero-width and direction-changing characters (soft hyphen, ZWSP/ZWNJ/ZWJ, LRM/RLM, the bidi embeddings, overrides and isolates, word joiner, BOM). */
const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;

/** Characters no file name may hold on Windows (the control characters are refused above). */
const WINDOWS_CHARACTERS = /[<>:"|*]/;

/** A segment Windows takes for a device, whatever its letter case and extension (`con`, `Aux.txt`). */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\.|$)/i;

/** True when Windows takes `segment` (a file or folder name) for a device: `con`, `nul`, `com1`, `Aux.txt`. */
export function isWindowsDevice(segment: string): boolean {
  return WINDOWS_DEVICE.test(segment);
}

/** The first route segments the site's own files and the servers take (see routeProblem). */
const TAKEN_FIRST = ['assets', '__docs', 'manifest.json', 'favicon.svg'];

/**
 * A page file's path (`guide/notes.html.md`) with each segment made one routeProblem accepts, for the
 * fix of a message: reserved characters replaced (`C#` → `C-sharp`, `a:b` → `a-b`), spaces at the ends
 * gone, a `.html` ending spelt out (`notes-html`), a name the site or Windows takes suffixed
 * (`assets-pages`, `con-page`), a long one cut to 200 bytes.
 */
export function safeName(rel: string): string {
  const segments = rel.split('/');
  return segments
    .map((segment, at) => {
      const extension = at === segments.length - 1 ? (/\.mdx?$/i.exec(segment)?.[0] ?? '') : '';
      let name = segment.slice(0, segment.length - extension.length).replace(/#/g, '-sharp').replace(/[?%\\\u0000-\u001f\u007f]+/g, '-').replace(/-+/g, '-').trim();
      name = name.replace(/\.(html?)$/i, '-$1').replace(/^\.+/, '').replace(/[<>:"|*]+/g, '-').replace(new RegExp(INVISIBLE.source, 'gu'), '').replace(/\.+$/, '');
      if (isWindowsDevice(name)) name = name.replace(/^([^.]+)/, '$1-page');
      if (at === 0 && TAKEN_FIRST.includes(name)) name = name.includes('.') ? name.replace(/\./g, '-') : `${name}-pages`;
      return shortenUtf8(name, 200) + extension;
    })
    .join('/');
}
