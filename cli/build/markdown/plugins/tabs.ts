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

/** Turns tab sets and endpoint lines into elements; calls `onTabs` when the page has a tab set. */
export function remarkTabs(onTabs: () => void) {
  return (tree: Root): void => {
    walk(tree, (node: WalkNode) => {
      if (node.type === 'containerDirective' && (node as unknown as ContainerDirective).name === 'tabs') {
        toTabs(node as unknown as ContainerDirective);
        onTabs();
      } else if (node.type === 'leafDirective' && (node as unknown as LeafDirective).name === 'api-endpoint') {
        toEndpoint(node as unknown as LeafDirective);
      }
    });
  };
}

function toTabs(node: ContainerDirective): void {
  const panels: { label: string; children: RootContent[] }[] = [];
  for (const child of node.children as RootContent[]) {
    if (child.type === 'code') {
      const fence = child as Code;
      const label = parseFenceMeta(fence.lang, fence.meta).title ?? fence.lang ?? `Tab ${panels.length + 1}`;
      // The tab shows the label; the block itself needs no title bar.
      fence.meta = (fence.meta ?? '').replace(/title=(?:"[^"]*"|'[^']*'|\S+)/, '').trim() || null;
      panels.push({ label, children: [fence] });
    } else if (panels.length > 0) {
      panels[panels.length - 1]!.children.push(child);
    }
  }
  const tabList = {
    type: 'paragraph',
    data: { hName: 'div', hProperties: { className: ['tab-list'], role: 'tablist' } },
    children: panels.map((panel, index) => ({
      type: 'emphasis',
      data: { hName: 'button', hProperties: { type: 'button', className: ['tab'], role: 'tab', ariaSelected: index === 0 ? 'true' : 'false', dataTab: panel.label } },
      children: [{ type: 'text', value: panel.label }],
    })),
  };
  const panelNodes = panels.map((panel, index) => ({
    type: 'blockquote',
    data: { hName: 'div', hProperties: { className: ['tab-panel'], role: 'tabpanel', dataTab: panel.label, ...(index === 0 ? { dataDefault: '' } : {}) } },
    children: panel.children,
  }));
  node.children = [tabList, ...panelNodes] as never;
  node.data = { hName: 'div', hProperties: { className: ['tabs'] } };
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
