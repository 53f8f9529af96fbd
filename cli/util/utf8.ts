/**
 * Text files read as UTF-8, strictly: a page, a category file, the config or a spec saved in another
 * encoding is a problem at its first unreadable byte, not text with U+FFFD on every page.
 */
import { readFileSync, statSync } from 'node:fs';
import type { Diagnostic } from './errors';
import { textPlace } from './text-place';

/**
 * A file's text, or null when there is none (removed, or not a file: a folder, a link to one). A file
 * that is not UTF-8 is a problem in `unreadable`, named `file` (as `docs build` reports it), its text
 * decoded anyway.
 */
export function readFileText(path: string, file: string, unreadable: Diagnostic[]): string | null {
  try {
    if (!statSync(path).isFile()) return null;
    const bytes = readFileSync(path);
    return decodeUtf8(bytes, file, unreadable) ?? bytes.toString('utf8');
  } catch {
    return null;
  }
}

/** The file's text, or undefined (and a problem naming the line) when it is not valid UTF-8. */
export function decodeUtf8(bytes: Buffer, file: string, problems: Diagnostic[]): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes);
    // A byte-order mark says which encoding it is: UTF-16 (Windows editors' "Unicode"), never a code page.
    const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
    const encoding = utf16 ? `saved as UTF-16 ${bytes[0] === 0xff ? 'LE' : 'BE'}, as its first bytes say` : 'saved in another encoding, e.g. Windows-1252 or Latin-1';
    problems.push({ file, ...textPlace(text, text.indexOf('\uFFFD')), message: `is not valid UTF-8 (${encoding})`, fix: 'save the file as UTF-8 in your editor ("Save with encoding" → UTF-8)' });
    return undefined;
  }
}

/** `text` cut to at most `bytes` bytes of UTF-8, never inside a character. */
export function shortenUtf8(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let cut = '';
  for (const character of text) {
    if (Buffer.byteLength(cut + character) > bytes) break;
    cut += character;
  }
  return cut;
}
