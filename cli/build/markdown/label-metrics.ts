/**
 * How wide a diagram's label is drawn, without a browser: a table of character widths of a common
 * sans-serif (Arial's metrics, which Helvetica, Roboto and Segoe UI are close to), and the browser's
 * way of wrapping a label at spaces. Used by diagrams.ts to lay out mermaid diagrams at build time.
 */

/** Advance widths of ASCII 32–126 in thousandths of an em (Arial / Helvetica metrics). */
const WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722,
  667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222,
  222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
/** System UI fonts run a little wider than Arial's metrics; this keeps labels from being under-measured. */
const FONT_SCALE = 1.06;

/** The width of one line of `text` at `fontSize` px. */
export function textWidth(text: string, fontSize = 16): number {
  let units = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    // Wide scripts (CJK, emoji) take a full em; other letters an average one.
    units += code >= 32 && code <= 126 ? WIDTHS[code - 32]! : code >= 0x2e80 ? 1000 : 556;
  }
  return (units / 1000) * fontSize * FONT_SCALE;
}

/** Mermaid's label text: `<br>` breaks lines, other tags and markdown emphasis take no room. */
function labelLines(label: string): string[] {
  return label
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/\*\*|__|[*_`]/g, '')
    .replace(/&[a-z]+;|&#\d+;/gi, 'x')
    .split('\n')
    .map((line) => line.trim());
}

/** Lines of `label` wrapped at `maxWidth` the way the browser wraps them: at spaces, a long word alone. */
export function wrapLabel(label: string, maxWidth: number, fontSize = 16): string[] {
  const lines: string[] = [];
  for (const paragraph of labelLines(label)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && textWidth(candidate, fontSize) > maxWidth) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    lines.push(line);
  }
  return lines;
}

/** The box of a wrapped label: as wide as its widest line (at least `minWidth`), 24 px per line. */
export function labelBox(label: string, maxWidth: number, minWidth: number, lineHeight = 24): { width: number; height: number } {
  const lines = wrapLabel(label, maxWidth);
  const widest = Math.max(0, ...lines.map((line) => textWidth(line)));
  return { width: Math.max(minWidth, widest), height: lines.length * lineHeight };
}
