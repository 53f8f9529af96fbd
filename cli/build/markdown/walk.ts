/**
 * A minimal depth-first walk for the hot path. unist-util-visit builds an ancestor list and runs a
 * test per node; over a thousand pages that generic overhead showed up in profiles.
 */

/** Any unist node that may have children. */
export interface WalkNode {
  type: string;
  children?: WalkNode[];
}

/**
 * Calls `enter` on every descendant of `root`, parents before children. `enter` may return an array
 * of nodes to replace the node with (they are not walked), or `'skip'` to leave its children alone.
 */
export function walk<T extends WalkNode>(root: T, enter: (node: WalkNode, parent: WalkNode) => WalkNode[] | 'skip' | void): void {
  const children = root.children;
  if (!children) return;
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    const result = enter(node, root);
    if (Array.isArray(result)) {
      children.splice(i, 1, ...result);
      i += result.length - 1;
      continue;
    }
    if (result !== 'skip' && node.children) walk(node, enter);
  }
}
