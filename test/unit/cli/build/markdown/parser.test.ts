/**
 * The parser's shortcut (plugins/gfm.ts): a document whose `@`, `://` and `www.` all sit in code
 * blocks is parsed without GFM's autolink literal syntax. It must give exactly the tree that
 * remark-parse + remark-gfm + remark-directive give, positions included, for every document.
 */
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { createParser } from '../../../../../cli/build/markdown/plugins/gfm';
import { mutate, random, SEEDS, TOKENS } from '../../../../support/markdown-fuzz';

const reference = unified().use(remarkParse).use(remarkGfm).use(remarkDirective).freeze();
const parse = createParser();

const CASES: Record<string, string> = {
  'URLs and addresses only in a fenced block': 'Text.\n\n```bash\ncurl https://api.quad.example -u me@quad.example\n# www.quad.example\n```\n\nMore text.\n',
  'a tilde fence and an info string with a URL': '~~~yaml title="https://x.example"\nurl: https://x.example\n~~~\n',
  'an indented code block': 'Para.\n\n    git clone git@git.quad.example:quad/docs.git\n\nAfter.\n',
  'a URL in prose next to a fenced one': '```\nhttps://in.code\n```\n\nSee https://in.prose.example/path.\n',
  'an e-mail address in prose': 'Mail it@quad.example.\n',
  'a www. link in a heading': '## Visit www.quad.example\n',
  'a fence inside an HTML block, URL after it': '<div>\n```\n</div>\n\nhttps://after.html.example\n\n```\n',
  'a fence in a blockquote': '> ```\n> https://quoted.code\n> ```\n\nhttps://prose.example\n',
  'a fence in a list item': '- item\n\n  ```\n  https://listed.code\n  ```\n- www.second.example\n',
  'an unclosed fence': 'Intro www.intro.example\n\n```\nhttps://never.closed\n',
  'a backtick fence whose info holds a backtick (not a fence)': '``` a`b https://not.a.fence\n\nhttps://still.prose\n',
  'an address written with a character reference': 'Write to it&#64;quad.example.\n',
  'a URL inside a code span': 'Run `curl https://span.example` now.\n',
  'a URL in a link destination only': '[the portal](https://portal.quad.example)\n',
};

describe('cli/build/markdown/plugins/gfm: the parse shortcut', () => {
  it.each(Object.entries(CASES))('gives the reference tree for %s', (_, source) => {
    expect(parse(source)).toEqual(reference.parse(source));
  });

  it('links literals in prose and leaves code alone', () => {
    const tree = JSON.stringify(parse(CASES['a URL in prose next to a fenced one']!));
    expect(tree).toContain('"url":"https://in.prose.example/path"');
    expect(tree).not.toContain('"url":"https://in.code"');
  });

  it('gives the reference tree for 3,000 mutated documents with code blocks, URLs and addresses', () => {
    const seeds = [
      ...SEEDS,
      '# Setup\n\n```bash\ncurl -fsS https://get.quad.example | sh\nssh deploy@build.quad.example\n```\n\nThen open the dashboard.\n',
      'Intro.\n\n~~~json\n{"url": "https://api.quad.example", "mail": "it@quad.example"}\n~~~\n\n- step one\n\n      indented https://code.example\n',
      '> note\n> ```\n> www.quoted.example\n> ```\n\n| a | b |\n| - | - |\n| `x@y.z` | https://cell.example |\n',
    ];
    const tokens = [...TOKENS, '@', 'https://', 'www.', 'x@y.example', '```\n', '\n```', '~~~\n', '    ', '> ', '&#64;', 'mailto:'];
    const next = random(424242);
    const mismatches: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const source = mutate(seeds[Math.floor(next() * seeds.length)]!, next, tokens);
      if (JSON.stringify(parse(source)) !== JSON.stringify(reference.parse(source))) mismatches.push(JSON.stringify(source));
    }
    expect(mismatches).toEqual([]);
  });
});
