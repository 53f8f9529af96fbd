/**
 * The list item handler of mdast-util-to-hast, once per list rather than once per item in deciding
 * whether the list is loose: its own handler walks every item of the list for each item (a list of
 * 20,000 items took 14 s to render, one of 200,000 never ended). The HTML is the same: the default
 * handler is given a stand-in parent that says at once what the whole list is. A task item's checkbox
 * is named by the item's text, which a screen reader then reads with it ("checkbox, not checked" alone
 * said nothing of the task).
 */
import type { Element, ElementContent } from 'hast';
import type { List, ListItem, Parents } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { defaultHandlers, type Handler } from 'mdast-util-to-hast';

/** The item's checkbox: its first child, or its first paragraph's (a loose list). */
function checkboxOf(item: ElementContent): Element | undefined {
  if (item.type !== 'element') return undefined;
  for (const child of item.children.slice(0, 2)) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'input') return child;
    if (child.tagName === 'p') return checkboxOf(child);
  }
  return undefined;
}

/** Names a task item's checkbox by the item's first paragraph (at most 120 characters). */
function nameCheckbox(made: ReturnType<Handler>, node: ListItem): ReturnType<Handler> {
  const checkbox = typeof node.checked === 'boolean' && made && !Array.isArray(made) ? checkboxOf(made as ElementContent) : undefined;
  const first = node.children[0];
  const text = first ? toString(first).replace(/\s+/g, ' ').trim().slice(0, 120) : '';
  if (checkbox && text) checkbox.properties.ariaLabel = text;
  return made;
}

/** A list is loose when it is spread, or when one of its items is (mdast-util-to-hast's rule). */
function isLoose(list: List): boolean {
  return Boolean(list.spread) || list.children.some((item) => (item.spread === null || item.spread === undefined ? item.children.length > 1 : item.spread));
}

/** A `listItem` handler for one render (it remembers each list it met). */
export function listItemHandler(): Handler {
  const stand = new WeakMap<List, List>();
  return (state, node: ListItem, parent: Parents | undefined) => {
    if (parent?.type !== 'list') return nameCheckbox(defaultHandlers.listItem(state, node, parent), node);
    let standIn = stand.get(parent);
    if (!standIn) stand.set(parent, (standIn = { type: 'list', spread: isLoose(parent), children: [] }));
    return nameCheckbox(defaultHandlers.listItem(state, node, standIn), node);
  };
}
