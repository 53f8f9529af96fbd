/**
 * Where a JSON text stops being JSON, for messages: `JSON.parse` tells the offset only for some
 * errors ("… in JSON at position 17"), never for others ("Unexpected token 'x', … is not valid JSON").
 * The offset when it has one, else the place the YAML parser (reading JSON's grammar) stops at.
 */
import { parseDocument } from 'yaml';

export function jsonErrorPlace(text: string, error: unknown): { line?: number; column?: number } {
  const message = error instanceof Error ? error.message : '';
  const offset = /at position (\d+)/.exec(message);
  if (offset) {
    const before = text.slice(0, Number(offset[1]));
    const lineStart = before.lastIndexOf('\n') + 1;
    return { line: before.split('\n').length, column: before.length - lineStart + 1 };
  }
  if (/Unexpected end of JSON input/.test(message)) {
    const lines = text.replace(/\s+$/, '').split('\n');
    return { line: lines.length, column: lines.at(-1)!.length + 1 };
  }
  const place = parseDocument(text, { schema: 'json', strict: true }).errors[0]?.linePos?.[0];
  return place ? { line: place.line, column: place.col } : {};
}
