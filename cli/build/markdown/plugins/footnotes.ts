/**
 * GFM footnotes that would vanish or show as written, without a word from the parser: a second
 * definition of one label (only the first is shown), a definition nothing refers to (not shown at
 * all), and a reference to a label no definition has (left as the text `[^label]`). Each is a warning
 * at its line: the page builds, and the writer learns what the reader will not see.
 */
import type { FootnoteDefinition, FootnoteReference, Root, Text } from 'mdast';
import type { Diagnostic } from '../../../util/errors';
import { walk } from '../walk';

/** `[^label]` in text: a reference the parser did not take, having no definition. */
const UNDEFINED_REFERENCE = /\[\^([^\]\s]+)\]/g;

/** Warns about the footnotes of `tree` that a reader would not see as written. */
export function checkFootnotes(tree: Root, file: string, warnings: Diagnostic[]): void {
  const definitions = new Map<string, FootnoteDefinition>();
  const referenced = new Set<string>();
  const texts: Text[] = [];
  walk(tree, (node) => {
    if (node.type === 'footnoteReference') referenced.add((node as FootnoteReference).identifier);
    else if (node.type === 'text' && (node as Text).value.includes('[^')) texts.push(node as Text);
    else if (node.type === 'code' || node.type === 'inlineCode') return 'skip';
    else if (node.type === 'footnoteDefinition') {
      const definition = node as FootnoteDefinition;
      const first = definitions.get(definition.identifier);
      if (first) {
        warnings.push({
          file,
          line: definition.position?.start.line,
          message: `footnote [^${definition.label ?? definition.identifier}] is defined a second time${first.position ? ` (first on line ${first.position.start.line})` : ''}: only the first definition is shown`,
          fix: 'remove one of the two definitions, or give this one its own label and refer to it',
        });
      } else definitions.set(definition.identifier, definition);
    }
  });
  for (const [identifier, definition] of definitions) {
    if (referenced.has(identifier)) continue;
    warnings.push({
      file,
      line: definition.position?.start.line,
      message: `footnote [^${definition.label ?? identifier}] is never referred to, so it is not shown`,
      fix: `refer to it in the text with [^${definition.label ?? identifier}], or remove the definition`,
    });
  }
  for (const text of texts) {
    for (const match of text.value.matchAll(UNDEFINED_REFERENCE)) {
      const start = text.position?.start.line;
      warnings.push({
        file,
        line: start === undefined ? undefined : start + text.value.slice(0, match.index).split('\n').length - 1,
        message: `footnote [^${match[1]}] has no definition, so it shows as written`,
        fix: `add a definition line \`[^${match[1]}]: …\` below the paragraph, or correct the label`,
      });
    }
  }
}
