/** Seeded random and mutated markdown documents, for the fuzz and equivalence tests of the markdown stage. */

/** mulberry32: a small, seeded PRNG. */
export function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const SEEDS = [
  '---\ntitle: Seed\nsidebar_position: 2\n---\n\n# Title\n\nIntro with **bold**, _em_, `code` and a [link](./other.md#part).\n',
  '## Table\n\n| a | b |\n| --- | :-: |\n| 1 | 2 |\n\n- [ ] task\n- [x] done\n\n1. one\n2. two\n',
  ':::tip[Careful]\nInside a *tip*.\n\n```ruby title="app.rb" {1}\nputs 1\n```\n:::\n',
  '```mermaid\nflowchart LR\n  A --> B\n```\n\n![img](./img/a.png "title")\n\nText[^1]\n\n[^1]: Foot.\n',
  '<details><summary>Raw</summary>\n\n*markdown* inside\n\n</details>\n\n<script>x()</script> <b onclick="y()">b</b>\n',
  ':::tabs\n```bash title="curl"\ncurl x\n```\n```python title="python"\nprint(1)\n```\n:::\n\n::api-endpoint{method="post" path="/x"}\n',
  '> quote\n> > nested\n\n***\n\nhttps://auto.link and www.example.com ~~strike~~\n\n### H3 {#id}\n',
];

export const TOKENS = ['#', '## ', '```', '~~~', ':::', ':::note', '::', ':', '[', ']', '(', ')', '![', '*', '_', '`', '|', '---', '\n', '\n\n', '<', '>', '</', '&', '\\', '[^1]', '{', '}', '"', "'", '\t', '    ', '- ', '1. ', '<div>', '</div>', '\u0000', '\uFFFF', '😀', '\u200B', 'title="', '{1,3-', 'javascript:', '%', '$', 'lang'];

/** One to six random edits: insert a token, cut, duplicate a stretch, insert any character, truncate. */
export function mutate(text: string, next: () => number, tokens: readonly string[] = TOKENS): string {
  let out = text;
  const steps = 1 + Math.floor(next() * 6);
  for (let i = 0; i < steps; i++) {
    const at = Math.floor(next() * (out.length + 1));
    const kind = next();
    if (kind < 0.45) out = out.slice(0, at) + tokens[Math.floor(next() * tokens.length)] + out.slice(at);
    else if (kind < 0.65) out = out.slice(0, at) + out.slice(at + Math.floor(next() * 20));
    else if (kind < 0.8) out = out.slice(0, at) + out.slice(at, at + 40) + out.slice(at);
    else if (kind < 0.9) out = out.slice(0, at) + String.fromCharCode(Math.floor(next() * 0xffff)) + out.slice(at);
    else out = out.slice(0, at);
  }
  return out;
}

export function randomDocument(next: () => number): string {
  if (next() < 0.8) return mutate(SEEDS[Math.floor(next() * SEEDS.length)]!, next);
  // Pure noise: tokens and characters in any order.
  return Array.from({ length: Math.floor(next() * 60) }, () => (next() < 0.7 ? TOKENS[Math.floor(next() * TOKENS.length)] : String.fromCharCode(32 + Math.floor(next() * 95)))).join('');
}

/** Inline markup a parser finds costly when repeated (each was quadratic or worse in some parser). */
const COSTLY = ['**a*', '[a](', '[a', '_a_b ', '`a``', '<a ', '*a ', '![a', 'http://a.b ', '~~a~'];

/**
 * The inputs that hurt parsers rather than confuse them: nesting hundreds to thousands of levels
 * deep (quotes, lists, admonitions, a mix), lines of 20,000 to 400,000 characters of costly markup,
 * and documents with Windows line ends and a byte-order mark.
 */
export function hostileDocument(next: () => number): string {
  const kind = next();
  const depth = 50 + Math.floor(next() * 3000);
  if (kind < 0.15) return `# Deep\n\n${'> '.repeat(depth)}quoted\n`;
  if (kind < 0.3) return `# Deep\n\n${Array.from({ length: Math.min(depth, 600) }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n')}\n`;
  if (kind < 0.4) return `# Deep\n\n${Array.from({ length: Math.min(depth, 400) }, (_, i) => `${'> '.repeat(i % 7)}${'- '.repeat(i % 5)}${i % 3 === 0 ? ':::note' : 'text'}`).join('\n')}\n`;
  if (kind < 0.7) {
    const token = COSTLY[Math.floor(next() * COSTLY.length)]!;
    const length = 20_000 + Math.floor(next() * 380_000);
    return `# Long\n\n${token.repeat(Math.ceil(length / token.length))}\n`;
  }
  const crlf = mutate(SEEDS[Math.floor(next() * SEEDS.length)]!, next).replace(/\n/g, '\r\n');
  return next() < 0.5 ? `\uFEFF${crlf}` : crlf;
}
