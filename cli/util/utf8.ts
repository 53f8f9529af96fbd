/**
 * Text files read as UTF-8, strictly: a page, a category file, the config or a spec saved in another
 * encoding is a problem at its first unreadable byte, not text with U+FFFD on every page.
 */
import type { Diagnostic } from './errors';
import { textPlace } from './text-place';

/** The file's text, or undefined (and a problem naming the line) when it is not valid UTF-8. */
export function decodeUtf8(bytes: Buffer, file: string, problems: Diagnostic[]): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes);
    problems.push({ file, ...textPlace(text, text.indexOf('\uFFFD')), message: 'is not valid UTF-8 (saved in another encoding, e.g. Windows-1252 or Latin-1)', fix: 'save the file as UTF-8 in your editor ("Save with encoding" → UTF-8)' });
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
