/**
 * remark plugin: `:::tabs` holding code fences becomes a tab set, one tab per fence, labelled by the
 * fence's `title="…"`. All panels are in the HTML; the first shows until the reader picks another,
 * and the runtime's tabs island remembers the pick across pages (`data-tab` names it).
 * Also `::api-endpoint{method="post" path="/api/login" operation="userLogin"}`: the method badge and path of an API page.
 */
import type { Code, Root, RootContent } from 'mdast';
import type { ContainerDirective, LeafDirective } from 'mdast-util-directive';
import { walk, type WalkNode } from '../walk';
import { parseFenceMeta } from './code';

/**
 * Turns tab sets and endpoint lines into elements; calls `onTabs` when the page has a tab set, and
 * `warn` (with the line) for a `:::tabs` that holds no code fence, whose text is then shown as it is.
 */
export function remarkTabs(onTabs: () => void, warn: (message: string, fix: string, line?: number) => void = () => undefined) {
  return (tree: Root): void => {
    walk(tree, (node: WalkNode) => {
      if (node.type === 'containerDirective' && (node as unknown as ContainerDirective).name === 'tabs') {
        const tabs = node as unknown as ContainerDirective;
        if (tabs.children.some((child) => child.type === 'code')) {
          toTabs(tabs, warn);
          onTabs();
        } else {
          // Its text was dropped: a tab set of no tabs.
          tabs.data = { hName: 'div' };
          warn('`:::tabs` holds no code fence, so it makes no tabs: its text is shown as it is', 'put one fenced code block per tab inside it (its `title="…"` labels the tab), or remove the `:::tabs` lines', tabs.position?.start.line);
        }
      } else if (node.type === 'leafDirective' && (node as unknown as LeafDirective).name === 'api-endpoint') {
        toEndpoint(node as unknown as LeafDirective);
      }
    });
  };
}

/**
 * One tab per code fence, with what follows a fence (up to the next) in its panel. What comes before
 * the first fence (an introduction) is shown above the tabs, not dropped.
 */
function toTabs(node: ContainerDirective, warn: (message: string, fix: string, line?: number) => void): void {
  const panels: { label: string; children: RootContent[] }[] = [];
  const before: RootContent[] = [];
  for (const child of node.children as RootContent[]) {
    if (child.type === 'code') {
      const fence = child as Code;
      let label = parseFenceMeta(fence.lang, fence.meta).title ?? fence.lang ?? `Tab ${panels.length + 1}`;
      // Two tabs of one label would be one tab to the runtime: both panels shown at once.
      if (panels.some((panel) => panel.label === label)) {
        warn(`two tabs of this set are labelled "${label}", so this one is shown as "${label} (${panels.length + 1})"`, 'give each fence of a tab set its own title="…"', fence.position?.start.line);
        label = `${label} (${panels.length + 1})`;
      }
      // The tab shows the label; the block itself needs no title bar.
      fence.meta = (fence.meta ?? '').replace(/title=(?:"[^"]*"|'[^']*'|\S+)/, '').trim() || null;
      panels.push({ label, children: [fence] });
    } else if (panels.length > 0) {
      panels[panels.length - 1]!.children.push(child);
    } else {
      before.push(child);
    }
  }
  const tabList = {
    type: 'paragraph',
    data: { hName: 'div', hProperties: { className: ['tab-list'], role: 'tablist' } },
    children: panels.map((panel, index) => ({
      type: 'emphasis',
      data: { hName: 'button', hProperties: { type: 'button', className: ['tab'], role: 'tab', ariaSelected: index === 0 ? 'true' : 'false', tabIndex: index === 0 ? 0 : -1, dataTab: panel.label } },
      children: [{ type: 'text', value: panel.label }],
    })),
  };
  const panelNodes = panels.map((panel, index) => ({
    type: 'blockquote',
    data: { hName: 'div', hProperties: { className: ['tab-panel'], role: 'tabpanel', dataTab: panel.label, ...(index === 0 ? { dataDefault: '' } : {}) } },
    children: panel.children,
  }));
  const tabs = { type: 'blockquote', data: { hName: 'div', hProperties: { className: ['tabs'] } }, children: [tabList, ...panelNodes] };
  if (before.length === 0) {
    node.children = tabs.children as never;
    node.data = tabs.data;
  } else {
    node.children = [...before, tabs] as never;
    node.data = { hName: 'div' };
  }
}

function toEndpoint(node: LeafDirective): void {
  const method = (node.attributes?.method ?? 'get').toLowerCase();
  node.children = [
    { type: 'emphasis', data: { hName: 'span', hProperties: { className: ['api-badge', `api-badge-${method}`] } }, children: [{ type: 'text', value: method.toUpperCase() }] },
    { type: 'inlineCode', value: node.attributes?.path ?? '' },
  ] as never;
  // Method, path and operationId are what search indexes an operation by (cli/build/search/extract.ts).
  const operation = node.attributes?.operation;
  node.data = { hName: 'div', hProperties: { className: ['api-endpoint'], dataMethod: method, dataPath: node.attributes?.path ?? '', ...(operation ? { dataOperation: operation } : {}) } };
}
