// The yardstick, measured in the same run: unified + remark-gfm → HTML on one thread, no
// highlighting, no layout, no output. Prints {seconds} as JSON.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { toHtml } from 'hast-util-to-html';
import { toHast } from 'mdast-util-to-hast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.md')) files.push(path);
  }
};
walk(process.argv[2]);
const processor = unified().use(remarkParse).use(remarkGfm);
const started = performance.now();
for (const file of files) toHtml(toHast(processor.runSync(processor.parse(readFileSync(file, 'utf8')))));
process.stdout.write(`${JSON.stringify({ seconds: (performance.now() - started) / 1000 })}\n`);
