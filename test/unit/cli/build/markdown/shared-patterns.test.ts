/**
 * Each regular expression compiled once per thread (cli/build/markdown/shared-patterns.ts): the tokens
 * are those of shiki's own Oniguruma scanner for every code block of the portal and for the cases its
 * shortcuts meet (`\G`, a heredoc's end made from its begin, a line past 1,000 bytes, characters of two
 * and four bytes), and each distinct expression is compiled once while states list it, a state searched
 * often once more, whole.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHighlighter, type HighlighterGeneric, type RegexEngine } from 'shiki';
import { createOnigurumaEngine } from 'shiki/engine/oniguruma';
import { describe, expect, it } from 'vitest';
import { HOT, sharePatterns } from '../../../../../cli/build/markdown/shared-patterns';

type Highlighter = HighlighterGeneric<string, string>;

const LANGUAGES = ['ini', 'diff', 'xml', 'typescript', 'tsx', 'javascript', 'ruby', 'bash', 'yaml', 'markdown', 'html', 'python', 'c', 'swift', 'json', 'sql', 'graphql', 'nix', 'dockerfile', 'http', 'kotlin', 'dart', 'php', 'rust', 'go'];

/** Blocks that reach the scanners' edges, beside the portal's own. */
const EDGES: [lang: string, code: string][] = [
  ['ruby', 'query = <<~SQL\n  SELECT * FROM laps WHERE team = 3\nSQL\nbanner = <<-HTML\n  <b>Lap</b>\n  HTML\nother = <<~EOS\n  SQL\nEOS\nputs query\n'],
  ['bash', "cat <<EOF > /etc/relay.conf\nport=8080\nEOF\ncat <<-'END'\n\t$HOME stays\n\tEND\necho \"done: ${#laps[@]}\"\n"],
  ['markdown', '# Lap ✓\n\n````md\n```ts\nconst a = 1;\n```\n````\n\n- [ ] item\n  > quote `code` **bold**\n\n| a | b |\n|---|---|\n| 1 | 2 |\n'],
  ['yaml', 'steps:\n  - run: |\n      echo "Ronde 🏃 ${{ matrix.node }}"\n      npm ci\n    env:\n      A: >-\n        folded\n        text\n'],
  ['typescript', `const long = [${Array.from({ length: 160 }, (_, i) => `"lap${i}"`).join(', ')}] as const; // ${'é'.repeat(40)} 🏁\nconst s = \`\${long.length} ronde's — 24 urenloop 🏃‍♀️\`;\n`],
  ['python', `x = "${'ü'.repeat(600)}" + f"{1 if True else 2}" # ${'𝔘'.repeat(300)}\n`],
  ['html', '<script>\nconst lap = 1 < 2 && "</b>";\n</script>\n<style>p::before { content: "→"; }</style>\n<p title="Ronde">Tekst ✓</p>\n'],
];

/** Every fenced block of the portal's content, by language. */
function portalBlocks(): [lang: string, code: string][] {
  const blocks: [string, string][] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) for (const match of readFileSync(path, 'utf8').matchAll(/^```([\w+#.-]+)[^\n]*\n([\s\S]*?)^```/gm)) blocks.push([match[1]!.toLowerCase(), match[2]!]);
    }
  };
  walk(fileURLToPath(new URL('../../../../../content', import.meta.url)));
  return blocks;
}

const wasm = (): Uint8Array => readFileSync(createRequire(import.meta.url).resolve('shiki/onig.wasm'));

/** Shiki's Oniguruma engine, counting the expressions it compiles and the scanners it frees. */
async function countingEngine(): Promise<{ engine: RegexEngine; compiled: string[]; freed: () => number }> {
  const engine = await createOnigurumaEngine({ instantiator: (imports) => WebAssembly.instantiate(wasm(), imports) });
  const compiled: string[] = [];
  let freed = 0;
  return {
    compiled,
    freed: () => freed,
    engine: {
      createString: (text) => engine.createString(text),
      createScanner(patterns) {
        const scanner = engine.createScanner(patterns);
        compiled.push(...patterns.map((pattern) => (typeof pattern === 'string' ? pattern : pattern.source)));
        // The fields shared-patterns.ts reads stay the scanner's own.
        const dispose = scanner.dispose?.bind(scanner);
        scanner.dispose = () => {
          freed++;
          dispose?.();
        };
        return scanner;
      },
    },
  };
}

function tokensOf(highlighter: Highlighter, blocks: [string, string][]): string[] {
  const known = new Set(highlighter.getLoadedLanguages());
  return blocks.map(([lang, code]) => (known.has(lang) ? JSON.stringify(highlighter.codeToTokens(code, { lang, theme: 'github-dark' }).tokens) : `${lang}: not loaded`));
}

describe('shared patterns', () => {
  it("tokenise every block of the portal, and each edge case, as shiki's own scanner does", async () => {
    // The blocks the build highlights: text and diagrams are not.
    const blocks = [...portalBlocks(), ...EDGES].filter(([lang]) => lang !== 'text' && lang !== 'mermaid');
    expect(blocks.length).toBeGreaterThan(300);
    const plain = await countingEngine();
    const counted = await countingEngine();
    const whole = (await createHighlighter({ themes: ['github-dark'], langs: LANGUAGES, engine: plain.engine })) as Highlighter;
    const shared = (await createHighlighter({ themes: ['github-dark'], langs: LANGUAGES, engine: sharePatterns(counted.engine) })) as Highlighter;
    try {
      const expected = tokensOf(whole, blocks);
      expect(expected.filter((tokens) => tokens.endsWith('not loaded'))).toEqual([]);
      // Twice: the second pass finds the states compiled and the lines' searches remembered from the first.
      expect(tokensOf(shared, blocks)).toEqual(expected);
      expect(tokensOf(shared, blocks)).toEqual(expected);
      // Each expression once while a state lists it, and the states searched most once more, whole
      // (3,115 against 13,905 when written).
      expect(counted.compiled.length).toBeLessThan(plain.compiled.length / 3);
    } finally {
      whole.dispose();
      shared.dispose();
    }
  });

  it("frees an expression no state lists any more, finds what shiki's scanner finds beside one that does not compile, and gives a state searched often a scanner of its own", async () => {
    const { engine, compiled, freed } = await countingEngine();
    const shared = sharePatterns(engine);
    const before = freed();
    const first = shared.createScanner(['lap(\\d+)', 'ronde']);
    const second = shared.createScanner(['ronde', 'team']);
    const line = shared.createString('team 3, ronde 12, lap7');
    expect(first.findNextMatchSync(line, 0, 0)).toEqual({ index: 1, captureIndices: [{ start: 8, end: 13, length: 5 }] });
    expect(first.findNextMatchSync(line, 14, 0)).toEqual({ index: 0, captureIndices: [{ start: 18, end: 22, length: 4 }, { start: 21, end: 22, length: 1 }] });
    // The same line searched again from before what was remembered, by another state listing `ronde`.
    expect(second.findNextMatchSync(line, 0, 0)).toEqual({ index: 1, captureIndices: [{ start: 0, end: 4, length: 4 }] });
    expect(second.findNextMatchSync('no match here', 0, 0)).toBeNull();
    expect(compiled.slice(1)).toEqual(['lap(\\d+)', 'ronde', 'team']);
    first.dispose?.();
    // `ronde` is still listed by the second.
    expect(freed() - before).toBe(1);
    second.dispose?.();
    second.dispose?.();
    expect(freed() - before).toBe(3);
    line.dispose?.();

    // An expression Oniguruma cannot compile: shiki's scanner finds nothing in a short line where a state
    // lists one (an empty match where the search begins when it lists only such), the others' matches in a long one.
    const plainEngine = (await countingEngine()).engine;
    const short = 'ronde 3, lap 4';
    const long = `${'x'.repeat(1200)} ronde 3, lap 4`;
    for (const sources of [['(unclosed', 'lap'], ['lap', '(unclosed'], ['(unclosed'], ['(unclosed', 'a{', 'lap']]) {
      const plain = plainEngine.createScanner(sources);
      const lenient = shared.createScanner(sources);
      for (const [line, start] of [[short, 0], [short, 3], [long, 0], [long, 1205]] as const) {
        expect(lenient.findNextMatchSync(line, start, 0), `${sources} from ${start}`).toEqual(plain.findNextMatchSync(line, start, 0));
      }
      lenient.dispose?.();
    }
    expect(shared.createScanner(['(unclosed', 'lap']).findNextMatchSync(long, 0, 0)).toEqual({ index: 1, captureIndices: [{ start: 1210, end: 1213, length: 3 }] });
    expect(shared.createScanner(['(unclosed']).findNextMatchSync(short, 3, 0)).toEqual({ index: 0, captureIndices: [{ start: 3, end: 3, length: 0 }] });
    expect(shared.createScanner(['(unclosed', 'lap']).findNextMatchSync(short, 0, 0)).toBeNull();

    // A state searched often gets a scanner of its own, compiled whole, and finds the same.
    const hot = shared.createScanner(['lap(\\d+)', 'ronde', '\\G\\s*\\d']);
    const plainHot = plainEngine.createScanner(['lap(\\d+)', 'ronde', '\\G\\s*\\d']);
    const singles = compiled.length;
    for (let search = 1; search <= HOT + 20; search++) {
      const start = search % 16;
      expect(hot.findNextMatchSync(short, start, 0), `search ${search}`).toEqual(plainHot.findNextMatchSync(short, start, 0));
      expect(compiled.length).toBe(search < HOT ? singles : singles + 3);
    }
  });
});
