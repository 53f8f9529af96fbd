/**
 * remark plugin: GitHub Flavoured Markdown through remark-gfm, with one measured shortcut. GFM's
 * autolink-literal transform runs four regular expressions over every text node (about a fifth of
 * parse time on the benchmark corpus), yet each of its patterns needs `@`, `://` or `www.` in the text;
 * documents whose text holds none of these skip it. Output is identical either way.
 */
import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import type { Processor } from 'unified';
import { walk } from '../walk';

interface FromMarkdownExtension {
  transforms?: ((tree: Root) => Root | undefined | void)[];
}

/** True when some text outside links could hold an autolink literal. */
function mayHoldLiteral(tree: Root): boolean {
  let found = false;
  walk(tree, (node) => {
    if (found || node.type === 'link' || node.type === 'linkReference' || node.type === 'code' || node.type === 'inlineCode') return 'skip';
    if (node.type === 'text') {
      const value = (node as unknown as { value: string }).value;
      if (value.includes('@') || value.includes('://') || value.includes('www.')) found = true;
    }
  });
  return found;
}

export function remarkGfmFast(this: Processor): void {
  remarkGfm.call(this as never);
  const extensions = (this.data('fromMarkdownExtensions') ?? []) as (FromMarkdownExtension | FromMarkdownExtension[])[];
  for (const extension of extensions.flat()) {
    if (!extension.transforms) continue;
    extension.transforms = extension.transforms.map((transform) =>
      transform.name === 'transformGfmAutolinkLiterals' ? (tree: Root) => (mayHoldLiteral(tree) ? transform(tree) : undefined) : transform,
    );
  }
}
