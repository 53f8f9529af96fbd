/**
 * The list item handler of mdast-util-to-hast, once per list rather than once per item in deciding
 * whether the list is loose: its own handler walks every item of the list for each item (a list of
 * 20,000 items took 14 s to render, one of 200,000 never ended). The HTML is the same: the default
 * handler is given a stand-in parent that says at once what the whole list is.
 */
import type { List, ListItem, Parents } from 'mdast';
import { defaultHandlers, type Handler } from 'mdast-util-to-hast';

/** A list is loose when it is spread, or when one of its items is (mdast-util-to-hast's rule). */
function isLoose(list: List): boolean {
  return Boolean(list.spread) || list.children.some((item) => (item.spread === null || item.spread === undefined ? item.children.length > 1 : item.spread));
}

/** A `listItem` handler for one render (it remembers each list it met). */
export function listItemHandler(): Handler {
  const stand = new WeakMap<List, List>();
  return (state, node: ListItem, parent: Parents | undefined) => {
    if (parent?.type !== 'list') return defaultHandlers.listItem(state, node, parent);
    let standIn = stand.get(parent);
    if (!standIn) stand.set(parent, (standIn = { type: 'list', spread: isLoose(parent), children: [] }));
    return defaultHandlers.listItem(state, node, standIn);
  };
}
