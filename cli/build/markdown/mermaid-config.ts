/**
 * Mermaid's `getConfig` in the render worker, made cheaper (bin/ensure-built.mjs `fastMermaidConfig`).
 *
 * Mermaid's diagram databases call `getConfig()` for every node, edge, actor and message they parse,
 * and each call copies the whole configuration (some 1,000 properties, the theme's variables among
 * them) with mermaid's general merge, `assignWithDepth({}, currentConfig)`: 1.3 ms a call, 0.7–0.9 s
 * of the portal's 25 diagrams on a thread. The compiled worker's mermaid calls this copy instead, which
 * makes the very same object (0.3 ms): mermaid's merge into an empty object, at its default depth of 2,
 * comes to the rules below. Callers may change what they get, as with mermaid's own copy.
 */

/** The levels mermaid's `assignWithDepth` copies by default before it shares (Object.assign) the rest. */
const DEPTH = 2;

/** `assignWithDepth({}, config)` as mermaid computes it, for a configuration object. */
export function copyMermaidConfig(config: Record<string, unknown>): Record<string, unknown> {
  return copyLevel(config, DEPTH);
}

/**
 * One level of the copy: an object value (not null) is copied a level further, its own object values
 * once more, and from there shallowly (`Object.assign`); an array becomes a new array of its distinct
 * items in order; a null is left out; anything else is taken as it is. Keys in `Object.entries` order.
 */
function copyLevel(source: Record<string, unknown>, depth: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const value = source[key];
    let made: unknown = value;
    if (typeof value === 'object') {
      if (value === null) continue;
      if (Array.isArray(value)) made = distinct(value);
      else made = depth - 1 <= 0 ? Object.assign({}, value) : copyLevel(value as Record<string, unknown>, depth - 1);
    }
    // A key `__proto__` is defined, not assigned: a property like any other, as in mermaid's merge.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: made, writable: true, enumerable: true, configurable: true });
    else copy[key] = made;
  }
  return copy;
}

function distinct(items: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const item of items) if (!out.includes(item)) out.push(item);
  return out;
}
