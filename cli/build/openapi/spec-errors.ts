/**
 * Places in a spec file: the validator reports problems against the spec as pretty-printed JSON (a
 * code frame with a line number); these helpers turn that line into a JSON pointer, and a pointer into
 * the line of the YAML (or JSON) source the writer edits.
 */
import { LineCounter, parseDocument, isMap, isNode, isSeq, type Document } from 'yaml';

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The JSON pointer of every line of `JSON.stringify(value, null, 2)`, index 0 being line 1: the value
 * that line opens, holds or closes.
 */
export function pointersByJsonLine(value: unknown): string[] {
  const lines: string[] = [''];
  const visit = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      if (node.length === 0) return;
      node.forEach((item, i) => {
        lines.push(`${pointer}/${i}`);
        visit(item, `${pointer}/${i}`);
      });
      lines.push(pointer);
    } else if (node !== null && typeof node === 'object') {
      const keys = Object.keys(node).filter((key) => {
        const child = (node as Record<string, unknown>)[key];
        return child !== undefined && typeof child !== 'function';
      });
      if (keys.length === 0) return;
      for (const key of keys) {
        const child = `${pointer}/${escapeToken(key)}`;
        lines.push(child);
        visit((node as Record<string, unknown>)[key], child);
      }
      lines.push(pointer);
    }
  };
  visit(value, '');
  return lines;
}

/** The JSON pointer of the first `$ref` in `spec` whose value is `target`. */
export function findRef(spec: unknown, target: string): string | undefined {
  const visit = (node: unknown, pointer: string): string | undefined => {
    if (node === null || typeof node !== 'object') return undefined;
    if ((node as { $ref?: unknown }).$ref === target) return `${pointer}/$ref`;
    for (const [key, child] of Object.entries(node)) {
      const found = visit(child, `${pointer}/${escapeToken(key)}`);
      if (found) return found;
    }
    return undefined;
  };
  return visit(spec, '');
}

/** The problem's first line and the JSON pointer of its code frame's marked line, when it has one. */
export function readValidatorMessage(message: string, spec: unknown): { text: string; pointer?: string } {
  const first = message.split('\n')[0]!.trim();
  // better-ajv-errors prefixes the ajv keyword in capitals: "REQUIRED must have …".
  const text = first.replace(/^[A-Z_]+\s+(?=[a-z])/, '');
  const marked = /^>\s*(\d+)\s*\|/m.exec(message);
  if (!marked) return { text };
  return { text, pointer: pointersByJsonLine(spec)[Number(marked[1]) - 1] };
}

/** A parsed YAML/JSON source that can tell the line of a JSON pointer. */
export interface SourceMap {
  document: Document;
  lineOf: (pointer: string) => { line: number; column: number } | undefined;
}

/** Parses the spec's text, keeping positions. */
export function mapSource(text: string): SourceMap {
  const counter = new LineCounter();
  const document = parseDocument(text, { lineCounter: counter, keepSourceTokens: false, uniqueKeys: false });
  return {
    document,
    lineOf: (pointer) => {
      const tokens = pointer
        .split('/')
        .slice(1)
        .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
      // Walk down as far as the path exists: a missing key is reported at its parent. A token is a
      // list index only inside a list (`'200'` is a key of `responses`).
      let node: unknown = document.contents;
      for (const token of tokens) {
        const next = isSeq(node) ? node.get(Number(token), true) : isMap(node) ? node.get(token, true) : undefined;
        if (!isNode(next)) break;
        node = next;
      }
      if (!isNode(node) || !node.range) return undefined;
      const { line, col } = counter.linePos(node.range[0]);
      return { line, column: col };
    },
  };
}
