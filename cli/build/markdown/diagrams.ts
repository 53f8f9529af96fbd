/**
 * The size a mermaid diagram will take, known at build time, so the page reserves its box before the
 * diagram is drawn and nothing below it moves when it is (see docs/architecture.md, "Diagrams keep their place").
 *
 * Mermaid lays diagrams out in the browser, measuring each label in the page's font; no browser runs
 * at build time. So the diagram is parsed by mermaid itself (its parsers need no DOM), and laid out
 * here the way mermaid will: graph diagrams (flowchart, state, class, ER) by the same layout library
 * (dagre) with the node sizes of mermaid's shapes, sequence diagrams and git graphs by mermaid's own
 * spacing rules, every other kind by a rough rule. Labels are measured without a browser
 * (label-metrics.ts).
 * The estimate is close, not exact — fonts differ per reader — so the runtime draws the diagram
 * scaled into the reserved box (runtime/islands/mermaid.ts): the page never moves, and the diagram
 * is drawn a few per cent smaller or larger than mermaid's own size.
 *
 * Mermaid is loaded on the first diagram a worker meets (about half a second), never otherwise.
 */
import type { Graph as DagreGraph } from 'dagre-d3-es/src/graphlib/index.js';
import type { Code, Root } from 'mdast';
import type { Diagnostic } from '../../util/errors';
import { labelBox, textWidth } from './label-metrics';
import { walk } from './walk';

/** The natural size of a drawn diagram, in CSS pixels. */
export interface DiagramBox {
  width: number;
  height: number;
}

/** A diagram's reserved box, or why it cannot be drawn (a syntax error, with its line in the fence). */
export type DiagramEstimate = { box: DiagramBox } | { error: string; line?: number };

/**
 * The reserved box of every mermaid fence of a page, by fence. A diagram mermaid cannot parse gets no
 * box (the page shows its source, and the browser the reason) and a warning naming its line.
 */
export async function measureDiagrams(tree: Root, file: string, warnings: Diagnostic[]): Promise<Map<Code, DiagramBox>> {
  const fences: Code[] = [];
  walk(tree, (node) => {
    if (node.type === 'code' && ((node as Code).lang ?? '').toLowerCase() === 'mermaid') fences.push(node as Code);
  });
  const boxes = new Map<Code, DiagramBox>();
  for (const fence of fences) {
    const estimate = await estimateDiagram(fence.value);
    if ('box' in estimate) {
      boxes.set(fence, estimate.box);
      continue;
    }
    const start = fence.position?.start.line;
    warnings.push({
      file,
      // The fence's first line holds ```mermaid; the diagram's line 1 is the next one.
      line: start === undefined ? undefined : start + (estimate.line ?? 0),
      message: `this diagram does not parse: ${estimate.error}`,
      fix: 'Correct the diagram (the syntax of each kind is at https://mermaid.js.org/intro/syntax-reference.html); until then the page shows its source.',
    });
  }
  return boxes;
}

// ------------------------------------------------------------------ mermaid in Node

/** The part of mermaid's API used here (its diagram databases are untyped internals). */
interface MermaidApi {
  parse(text: string): Promise<unknown>;
  mermaidAPI: { getDiagramFromText(text: string): Promise<{ type: string; db: unknown }>; reset(): void };
}

let loading: Promise<MermaidApi> | undefined;
/** The layout library mermaid uses, loaded with it. */
let dagre: Dagre | undefined;

/**
 * Mermaid's parsers need no DOM, but it sanitises every label with DOMPurify, which needs a window.
 * The labels parsed here are only measured, never written to a page, so DOMPurify's methods are
 * replaced by no-ops in this process (the page keeps the fence's text; the browser's mermaid
 * sanitises what it draws).
 */
async function loadMermaid(): Promise<MermaidApi> {
  loading ??= (async () => {
    const deps = await import('./diagram-deps');
    const purify = deps.purify as unknown as Record<string, unknown>;
    if (typeof purify.sanitize !== 'function') {
      purify.sanitize = (text: unknown) => String(text);
      purify.addHook = () => undefined;
      purify.removeHook = () => undefined;
      purify.removeHooks = () => undefined;
      purify.removeAllHooks = () => undefined;
    }
    const mermaid = deps.mermaid as unknown as MermaidApi & { initialize(config: object): void };
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
    dagre = { Graph: deps.Graph, layout: deps.layout };
    return mermaid;
  })();
  return loading;
}

/** Mermaid keeps one database per diagram type: diagrams are measured one at a time. */
let queue: Promise<unknown> = Promise.resolve();

/** The box `source` will be drawn in, or its syntax error. */
export function estimateDiagram(source: string): Promise<DiagramEstimate> {
  const run = queue.then(() => estimateNow(source));
  queue = run.catch(() => undefined);
  return run;
}

async function estimateNow(source: string): Promise<DiagramEstimate> {
  const mermaid = await loadMermaid();
  let box: DiagramBox;
  try {
    // `parse` sets the diagram's own settings (frontmatter `config:`, `%%{init}%%`), which size its
    // layout, and parses it; `getDiagramFromText` parses it again to hand out its database. A
    // diagram with no settings of its own needs only the site's: the first parse is skipped (a
    // third of the time mermaid takes here).
    if (/^\s*---|%%\{/.test(source)) await mermaid.parse(source);
    else mermaid.mermaidAPI.reset();
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(source);
    box = measure(diagram.type, diagram.db, source);
  } catch (error) {
    if (isSyntaxError(error)) return syntaxError(error);
    // Anything else is this estimate's limit, not the writer's mistake: a rough box, and the browser
    // decides whether the diagram draws.
    box = fallbackBox(source);
  }
  return { box: { width: Math.max(40, Math.round(box.width)), height: Math.max(20, Math.round(box.height)) } };
}

/** Mermaid's parse errors: the parsers' (with a position) and "no diagram type detected". */
function isSyntaxError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { hash, name, message } = error as { hash?: unknown; name?: unknown; message?: unknown };
  return hash !== undefined || name === 'UnknownDiagramError' || /^(Parse|Lexical|Lexing|Parsing) (error|failed)/i.test(String(message ?? ''));
}

function syntaxError(error: unknown): DiagramEstimate {
  const hash = (error as { hash?: { loc?: { first_line?: number }; line?: number } }).hash;
  // Jison's message is "Parse error on line N:", the text, a caret and "Expecting …, got …": the line
  // is reported apart, the expectation is what helps.
  const lines = (error instanceof Error ? error.message : String(error)).split('\n').map((line) => line.trim()).filter(Boolean);
  const first = lines[0] ?? 'unknown error';
  const text = /^Parse error on line \d+:?$/i.test(first) && lines.length > 1 ? lines[lines.length - 1]! : first;
  const message = text.length > 200 ? `${text.slice(0, 199)}…` : text;
  const line = hash?.loc?.first_line ?? (hash?.line !== undefined ? hash.line + 1 : undefined) ?? Number(/line (\d+)/i.exec(first)?.[1] ?? NaN);
  return { error: message, line: Number.isFinite(line) ? line : undefined };
}

/** Picks the layout rule for the diagram's kind. */
function measure(type: string, db: unknown, source: string): DiagramBox {
  const database = db as Record<string, unknown>;
  if (type === 'sequence') return sequenceBox(database as unknown as SequenceDb);
  if (type === 'gitGraph') return gitGraphBox(database as unknown as GitGraphDb);
  if (typeof database.getData === 'function') {
    const data = (database.getData as () => LayoutData)();
    // Flowcharts keep their direction in the database, not in the layout data.
    const direction = typeof database.getDirection === 'function' ? (database.getDirection as () => string | undefined)() : undefined;
    if (Array.isArray(data?.nodes) && data.nodes.length > 0) return graphBox(type, { ...data, direction: data.direction ?? direction });
  }
  return fallbackBox(source);
}

/** Kinds drawn with no rule of their own here (pie, gantt, mindmap…): a box by their line count. */
function fallbackBox(source: string): DiagramBox {
  const lines = source.split('\n').filter((line) => line.trim() && !line.trim().startsWith('%%')).length;
  return { width: 640, height: 80 + 32 * Math.max(1, lines - 1) };
}

// ------------------------------------------------------------------ graph diagrams

interface LayoutNode {
  id: string;
  label?: string;
  shape?: string;
  isGroup?: boolean;
  parentId?: string;
  dir?: string;
}
interface LayoutEdge {
  start: string;
  end: string;
  label?: string;
  length?: number;
}
interface LayoutData {
  nodes: LayoutNode[];
  edges: LayoutEdge[];
  direction?: string;
  config?: Record<string, { nodeSpacing?: number; rankSpacing?: number; wrappingWidth?: number; minNodeWidth?: number } | undefined>;
}

/** The size of one node as mermaid's (default, `neo`) shapes draw it around its label. */
function nodeSize(node: LayoutNode, state: boolean, wrapping: number, minWidth: number): DiagramBox {
  const shape = node.shape ?? 'squareRect';
  if (shape === 'stateStart' || shape === 'stateEnd') return { width: 14, height: 14 };
  if (shape === 'fork' || shape === 'join') return { width: 70, height: 10 };
  if (shape === 'choice') return { width: 28, height: 28 };
  const label = labelBox(node.label ?? node.id, wrapping, minWidth);
  switch (shape) {
    case 'diamond':
    case 'question': {
      const side = label.width + label.height + 30;
      return { width: side, height: side };
    }
    case 'cylinder':
      return { width: label.width + 24, height: label.height + 64 };
    case 'circle':
    case 'doublecircle': {
      const diameter = Math.max(label.width, label.height) + 32;
      return { width: diameter, height: diameter };
    }
    default:
      return state ? { width: label.width + 16, height: label.height + 16 } : { width: label.width + 32, height: label.height + 24 };
  }
}

interface Dagre {
  Graph: typeof import('dagre-d3-es/src/graphlib/index.js').Graph;
  layout: typeof import('dagre-d3-es/src/dagre/index.js').layout;
}

/** Lays out a graph diagram with dagre, as mermaid's default layout does. */
function graphBox(type: string, data: LayoutData): DiagramBox {
  const state = type.startsWith('state');
  const key = state ? 'state' : type.startsWith('class') ? 'class' : type === 'er' ? 'er' : 'flowchart';
  const settings = data.config?.[key] ?? data.config?.flowchart ?? {};
  const flowchart = data.config?.flowchart ?? {};
  const wrapping = flowchart.wrappingWidth ?? 200;
  const minWidth = state || key === 'flowchart' ? (flowchart.minNodeWidth ?? 0) : 0;
  const { Graph, layout } = dagre!;
  const graph = new Graph({ multigraph: true, compound: true });
  graph.setGraph({
    rankdir: rankdir(data.direction),
    nodesep: settings.nodeSpacing ?? flowchart.nodeSpacing ?? 50,
    ranksep: settings.rankSpacing ?? flowchart.rankSpacing ?? 50,
    marginx: 8,
    marginy: 8,
  });
  graph.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(data.nodes.map((node) => node.id));
  for (const node of data.nodes) {
    if (node.isGroup) {
      // A subgraph: dagre draws its border around its children; its title takes a line at the top.
      const title = labelBox(node.label ?? '', wrapping * 2, 0);
      graph.setNode(node.id, { width: title.width + 16, height: title.height + 16, paddingTop: title.height, clusterLabelPos: 'top' });
    } else graph.setNode(node.id, nodeSize(node, state, wrapping, minWidth));
  }
  for (const node of data.nodes) if (node.parentId && ids.has(node.parentId)) graph.setParent(node.id, node.parentId);
  data.edges.forEach((edge, index) => {
    if (!ids.has(edge.start) || !ids.has(edge.end)) return;
    // Edges to a subgraph attach to one of its nodes, as mermaid does.
    const start = leafOf(graph, edge.start);
    const end = leafOf(graph, edge.end);
    if (start === undefined || end === undefined) return;
    const label = edge.label?.trim() ? labelBox(edge.label, wrapping * 2, 0) : { width: 0, height: 0 };
    graph.setEdge(start, end, { minlen: edge.length ?? 1, width: label.width ? label.width + 8 : 0, height: label.height ? label.height + 8 : 0, labelpos: 'c' }, `e${index}`);
  });
  layout(graph, {});
  const laid = graph.graph() as { width?: number; height?: number };
  return { width: laid.width ?? 0, height: laid.height ?? 0 };
}

/** A node id that is not a subgraph: the subgraph's first leaf, for edges that name a subgraph. */
function leafOf(graph: DagreGraph, id: string): string | undefined {
  const children = (graph.children(id) ?? []) as string[];
  if (children.length === 0) return id;
  for (const child of children) {
    const leaf = leafOf(graph, child);
    if (leaf !== undefined) return leaf;
  }
  return undefined;
}

function rankdir(direction: string | undefined): string {
  const value = (direction ?? 'TB').toUpperCase();
  return value === 'TD' ? 'TB' : ['TB', 'BT', 'LR', 'RL'].includes(value) ? value : 'TB';
}


// ------------------------------------------------------------------ sequence diagrams

interface SequenceActor {
  description?: string;
  name: string;
  prevActor?: string;
  nextActor?: string;
}
interface SequenceMessage {
  from?: string;
  to?: string;
  /** The text; not a string for some control statements (autonumber). */
  message?: unknown;
  type?: number;
  placement?: number;
}
interface SequenceDb {
  getActors(): Map<string, SequenceActor>;
  getMessages(): SequenceMessage[];
  LINETYPE: Record<string, number>;
  PLACEMENT: Record<string, number>;
}

/** Mermaid's sequence layout (sequenceRenderer: calculateActorMargins, boundMessage), by its defaults. */
function sequenceBox(db: SequenceDb): DiagramBox {
  const conf = { width: 150, height: 65, actorMargin: 50, wrapPadding: 10, marginX: 50, marginY: 10, boxMargin: 10 };
  const actors = db.getActors();
  const messages = db.getMessages();
  const L = db.LINETYPE;
  const widths = new Map<string, number>();
  for (const [key, actor] of actors) widths.set(key, Math.max(conf.width, textWidth(actor.description ?? actor.name, 14) + 2 * conf.wrapPadding));
  // The room each actor needs to its right for the messages and notes beside it.
  const room = new Map<string, number>();
  const need = (key: string | undefined, width: number): void => {
    if (key !== undefined) room.set(key, Math.max(room.get(key) ?? 0, width));
  };
  let height = conf.height + conf.marginY;
  for (const message of messages) {
    const text = typeof message.message === 'string' ? message.message : '';
    const lines = Math.max(1, text.split(/<br\s*\/?>/i).length);
    const width = Math.max(...text.split(/<br\s*\/?>/i).map((line) => textWidth(line, 16))) + 2 * conf.wrapPadding;
    if (message.placement !== undefined) {
      // A note: beside or over its actors, as tall as its text.
      const actor = message.to !== undefined ? actors.get(message.to) : undefined;
      if (message.placement === db.PLACEMENT.RIGHTOF) need(message.from, width);
      else if (message.placement === db.PLACEMENT.LEFTOF) need(actor?.prevActor, width);
      else if (message.from !== undefined && message.from !== message.to) need(message.from, width / 2);
      height += 10 + lines * 19 + 20;
      continue;
    }
    if (message.from === undefined || message.to === undefined) {
      // loop / alt / opt / par / critical / rect blocks: a label row when they open, a margin when they end.
      const type = message.type ?? -1;
      const opens = [L.LOOP_START, L.ALT_START, L.OPT_START, L.PAR_START, L.CRITICAL_START, L.BREAK_START, L.RECT_START, L.PAR_OVER_START];
      const middles = [L.ALT_ELSE, L.PAR_AND, L.CRITICAL_OPTION];
      const ends = [L.LOOP_END, L.ALT_END, L.OPT_END, L.PAR_END, L.CRITICAL_END, L.BREAK_END, L.RECT_END];
      if (opens.includes(type)) height += type === L.RECT_START ? conf.boxMargin : 2 * conf.boxMargin + 20 + (text ? 19 : 0);
      else if (middles.includes(type)) height += 2 * conf.boxMargin + 19;
      else if (ends.includes(type)) height += 2 * conf.boxMargin;
      continue;
    }
    const from = actors.get(message.from);
    if (message.from === message.to) {
      need(message.from, width / 2);
      height += 10 + lines * 19 + 19 + 30;
    } else {
      if (from?.nextActor === message.to) need(message.from, width);
      else if (from?.prevActor === message.to) need(message.to, width);
      height += 10 + lines * 19 + 19;
    }
  }
  let total = 0;
  const keys = [...actors.keys()];
  keys.forEach((key, index) => {
    const actor = actors.get(key)!;
    const own = widths.get(key)!;
    const next = actor.nextActor !== undefined ? widths.get(actor.nextActor) : undefined;
    const wanted = room.get(key);
    const margin = wanted === undefined ? conf.actorMargin : Math.max(conf.actorMargin, wanted + conf.actorMargin - own / 2 - (next ?? 0) / 2);
    total += own + (index < keys.length - 1 ? margin : wanted === undefined ? 0 : Math.max(0, margin - conf.actorMargin));
  });
  // Actors again at the bottom (mirrorActors), and the margins round the whole.
  height += 2 * conf.boxMargin + conf.height + conf.marginY;
  return { width: total + 2 * conf.marginX, height };
}

// ------------------------------------------------------------------ git graphs

interface GitGraphDb {
  getCommits(): Map<string, { branch: string; tags?: string[] }>;
  getBranchesAsObjArray?(): { name: string }[];
  getDirection?(): string;
}

/** Mermaid's git graph: a column per commit, a row per branch, branch names on the left. */
function gitGraphBox(db: GitGraphDb): DiagramBox {
  const commits = [...db.getCommits().values()];
  const branches = db.getBranchesAsObjArray?.().map((branch) => branch.name) ?? [...new Set(commits.map((commit) => commit.branch))];
  const nameWidth = Math.max(0, ...branches.map((name) => textWidth(name, 14))) + 30;
  const along = 10 + commits.length * 50 + 40;
  const across = branches.length * 90 + 60;
  const vertical = (db.getDirection?.() ?? 'LR') !== 'LR';
  return vertical ? { width: across, height: along + 40 } : { width: nameWidth + along, height: across };
}
