/**
 * Where a JSON text stops being JSON, for messages: `JSON.parse` tells the offset only for some
 * errors ("… in JSON at position 17"), never for others ("Unexpected token 'x', … is not valid JSON").
 * The offset when it has one, else the place the YAML parser (reading JSON's grammar) stops at.
 */
import { parseDocument } from 'yaml';
import { textPlace } from './text-place';

export function jsonErrorPlace(text: string, error: unknown): { line?: number; column?: number } {
  const message = error instanceof Error ? error.message : '';
  const offset = /at position (\d+)/.exec(message);
  if (offset) return textPlace(text, Number(offset[1]));
  // Cut short: the place after its last character.
  if (/Unexpected end of JSON input/.test(message)) return textPlace(text, text.trimEnd().length);
  const place = parseDocument(text, { schema: 'json', strict: true }).errors[0]?.linePos?.[0];
  return place ? { line: place.line, column: place.col } : {};
}
