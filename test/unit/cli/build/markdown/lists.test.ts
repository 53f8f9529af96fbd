/**
 * Lists render in time proportional to their length (cli/build/markdown/plugins/lists.ts): the list
 * item handler of mdast-util-to-hast asked, for every item, whether the whole list is loose by walking
 * all its items, and a page with one list of 200,000 items never finished building.
 */
import { toHtml } from 'hast-util-to-html';
import type { List, ListItem, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toHast } from 'mdast-util-to-hast';
import { describe, expect, it } from 'vitest';
import { listItemHandler } from '../../../../../cli/build/markdown/plugins/lists';

const item = (text: string, spread = false): ListItem => ({ type: 'listItem', spread, children: [{ type: 'paragraph', children: [{ type: 'text', value: text }] }] });

describe('cli/build/markdown/plugins/lists', () => {
  it('renders tight, loose and task lists as mdast-util-to-hast does', () => {
    for (const markdown of ['- a\n- b\n- c\n', '- a\n\n- b\n- c\n', '1. a\n2. b\n\n   more\n', '- [x] done\n- [ ] to do\n', '- a\n  - nested\n  - tight\n- b\n']) {
      const tree = fromMarkdown(markdown) as Root;
      const own = toHtml(toHast(tree, { handlers: { listItem: listItemHandler() } }));
      expect(own, markdown).toBe(toHtml(toHast(tree)));
    }
  });

  it("names a task item's checkbox by the item's text, in tight and loose lists", () => {
    const task = (text: string, checked: boolean, spread = false): ListItem => ({ ...item(text, spread), checked });
    for (const spread of [false, true]) {
      const tree: Root = { type: 'root', children: [{ type: 'list', ordered: false, spread, children: [task('Book the  sports hall', true, spread), task('Order the beacons', false, spread)] }] };
      const html = toHtml(toHast(tree, { handlers: { listItem: listItemHandler() } }));
      expect(html).toContain('<input type="checkbox" checked disabled aria-label="Book the sports hall">');
      expect(html).toContain('<input type="checkbox" disabled aria-label="Order the beacons">');
    }
  });

  it('looks at each item of a long list a few times, not once per other item', () => {
    const items = Array.from({ length: 2000 }, (_, i) => item(`item ${i}`));
    let reads = 0;
    // Every read of an item of the list is counted.
    const children = new Proxy(items, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const list: List = { type: 'list', ordered: false, spread: false, children };
    const html = toHtml(toHast({ type: 'root', children: [list] }, { handlers: { listItem: listItemHandler() } }));
    expect(html.match(/<li>/g)).toHaveLength(2000);
    // The default handler read about 2,000 × 2,000 = 4,000,000.
    expect(reads).toBeLessThan(10 * items.length);
  });
});
