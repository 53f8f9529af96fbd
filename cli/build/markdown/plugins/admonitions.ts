/**
 * remark plugin: Docusaurus admonitions (`:::note`, `:::tip`, `:::info`, `:::warning`, `:::danger`,
 * with an optional `[Title]`) and GitHub's alerts (`> [!NOTE]`) become
 * `<aside class="admonition admonition-KIND">`. Any other directive is turned back into the text it
 * was written as, so `12:30` or `a:b` in prose survive.
 */
import type { Blockquote, Root, Paragraph, PhrasingContent, RootContent } from 'mdast';
import type { ContainerDirective, LeafDirective, TextDirective } from 'mdast-util-directive';
import { walk, type WalkNode } from '../walk';

/** Admonition kinds and their default titles. */
export const ADMONITIONS: Record<string, string> = { note: 'Note', tip: 'Tip', info: 'Info', warning: 'Warning', danger: 'Danger', caution: 'Warning' };

const KINDS = Object.keys(ADMONITIONS).join('|');
/** An opening line of an admonition or tab set with a space after the colons (VitePress' `::: tip`). */
const SPACED = new RegExp(`^([ \\t]*:{3,})[ \\t]+(${KINDS}|tabs)(?=[ \\t[{]|$)`);
/** An admonition's opening line with a title after its name (Docusaurus' older syntax). */
const TITLED = new RegExp(`^([ \\t]*:{3,})(${KINDS})[ \\t]+([^[{].*?)[ \\t]*$`);
/** A code fence's opening or closing line: its marker. */
const FENCE_LINE = /^[ \t]*(`{3,}|~{3,})/;

/**
 * The other ways writers open an admonition, in the syntax the parser reads: `:::tip Some title`
 * (Docusaurus' older syntax) → `:::tip[Some title]`, and `::: tip` (VitePress') → `:::tip`, also with
 * a title, and `::: tabs` → `:::tabs`. Line numbers are unchanged; lines inside a code fence are
 * left as they are (a page that shows the syntax shows it as written).
 */
export function normaliseAdmonitionTitles(markdown: string): string {
  if (!markdown.includes(':::')) return markdown;
  const lines = markdown.split('\n');
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = FENCE_LINE.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.slice(line.indexOf(marker) + marker.length).trim() === '') fence = undefined;
      continue;
    }
    // An opening fence (a backtick fence's info string holds no backtick).
    if (marker && !(marker[0] === '`' && line.slice(line.indexOf(marker) + marker.length).includes('`'))) {
      fence = marker;
      continue;
    }
    if (!line.includes(':::')) continue;
    lines[i] = line.replace(SPACED, '$1$2').replace(TITLED, '$1$2[$3]');
  }
  return lines.join('\n');
}

type Directive = ContainerDirective | LeafDirective | TextDirective;

/**
 * `warn` hears of each `:::name` block that is no admonition (`:::NOTE`, `:::tips`): it is shown as the
 * text it was written as, which a writer should know. (`:name` and `::name` in prose are not warned
 * of: `12:30` and `a::b` are text.)
 */
export function remarkAdmonitions(warn: (message: string, fix: string, line?: number) => void = () => undefined) {
  return (tree: Root): void => {
    const enter = (node: WalkNode): WalkNode[] | void => {
      if (node.type === 'blockquote') {
        fromGithubAlert(node as unknown as Blockquote);
        return;
      }
      if (node.type !== 'containerDirective' && node.type !== 'leafDirective' && node.type !== 'textDirective') return;
      const directive = node as unknown as Directive;
      // A directive an earlier plugin turned into an element (tabs, api-endpoint) is left as it is.
      if (directive.data?.hName) return;
      if (directive.type === 'containerDirective' && ADMONITIONS[directive.name]) {
        toAdmonition(directive);
        return;
      }
      if (directive.type === 'containerDirective') {
        const near = Object.keys(ADMONITIONS).find((kind) => kind === directive.name.toLowerCase() || kind === directive.name.toLowerCase().replace(/s$/, ''));
        warn(
          `\`:::${directive.name}\` is not an admonition, so it is shown as text`,
          near ? `write \`:::${near}\`` : `use one of ${Object.keys(ADMONITIONS).map((kind) => `\`:::${kind}\``).join(', ')}, or \`:::tabs\` for code tabs`,
          directive.position?.start.line,
        );
      }
      // The restored nodes may hold directives of their own: walk them inside a wrapper first.
      const wrapper: WalkNode = { type: 'root', children: restore(directive) as unknown as WalkNode[] };
      walk(wrapper, enter);
      return wrapper.children;
    };
    walk(tree, enter);
  };
}

function toAdmonition(node: ContainerDirective): void {
  const first = node.children[0];
  let title = ADMONITIONS[node.name]!;
  let titleChildren: PhrasingContent[] | undefined;
  if (first && first.type === 'paragraph' && (first.data as { directiveLabel?: boolean } | undefined)?.directiveLabel) {
    titleChildren = first.children;
    node.children.shift();
    title = '';
  }
  const kind = node.name === 'caution' ? 'warning' : node.name;
  const heading: Paragraph = {
    type: 'paragraph',
    data: { hName: 'div', hProperties: { className: ['admonition-title'] } },
    children: titleChildren ?? [{ type: 'text', value: title }],
  };
  node.children.unshift(heading as never);
  node.data = { hName: 'aside', hProperties: { className: ['admonition', `admonition-${kind}`], dataKind: kind } };
}

/** GitHub's alerts (`> [!NOTE]`, as VitePress reads them too): their kind here and their title. */
const GITHUB_ALERTS: Record<string, [kind: string, title: string]> = { note: ['note', 'Note'], tip: ['tip', 'Tip'], important: ['info', 'Important'], warning: ['warning', 'Warning'], caution: ['danger', 'Caution'] };

/** `[!NOTE]` alone on a quote's first line. */
const ALERT_LINE = /^\[!(note|tip|important|warning|caution)\][ \t]*(?:\n|$)/i;

/** A quote that opens with a GitHub alert line becomes the admonition it names (GitHub shows it as one). */
function fromGithubAlert(node: Blockquote): void {
  const first = node.children[0];
  const text = first?.type === 'paragraph' ? first.children[0] : undefined;
  const match = text?.type === 'text' ? ALERT_LINE.exec(text.value) : null;
  if (!match || !first || first.type !== 'paragraph' || text?.type !== 'text') return;
  const [kind, title] = GITHUB_ALERTS[match[1]!.toLowerCase()]!;
  text.value = text.value.slice(match[0].length);
  if (text.value === '') first.children.shift();
  // A line break after the alert line leaves a break node first: it goes too.
  if (first.children[0]?.type === 'break') first.children.shift();
  if (first.children.length === 0) node.children.shift();
  const heading: Paragraph = { type: 'paragraph', data: { hName: 'div', hProperties: { className: ['admonition-title'] } }, children: [{ type: 'text', value: title }] };
  node.children.unshift(heading);
  node.data = { hName: 'aside', hProperties: { className: ['admonition', `admonition-${kind}`], dataKind: kind } };
}

/** The markdown text a non-admonition directive was written as. */
function restore(node: Directive): RootContent[] {
  const marker = node.type === 'textDirective' ? ':' : node.type === 'leafDirective' ? '::' : ':::';
  const attrs = node.attributes && Object.keys(node.attributes).length > 0
    ? `{${Object.entries(node.attributes).map(([k, v]) => `${k}="${v ?? ''}"`).join(' ')}}`
    : '';
  const head = { type: 'text', value: `${marker}${node.name}` } as const;
  if (node.type === 'textDirective') {
    const label: PhrasingContent[] = node.children.length > 0
      ? [{ type: 'text', value: '[' }, ...node.children, { type: 'text', value: `]${attrs}` }]
      : attrs ? [{ type: 'text', value: attrs }] : [];
    return [head, ...label] as RootContent[];
  }
  if (node.type === 'leafDirective') {
    return [{ type: 'paragraph', children: [head, ...(node.children.length ? [{ type: 'text' as const, value: '[' }, ...node.children, { type: 'text' as const, value: ']' }] : [])] }];
  }
  // A block's closing `:::` too (an unclosed one fails the build: plugins/unclosed.ts).
  return [{ type: 'paragraph', children: [head, ...(attrs ? [{ type: 'text' as const, value: attrs }] : [])] }, ...(node.children as RootContent[]), { type: 'paragraph', children: [{ type: 'text', value: ':::' }] }];
}
