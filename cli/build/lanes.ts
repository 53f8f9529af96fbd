/**
 * Which render thread takes which page. A thread pays once for each code language it meets (shiki
 * compiles the grammar's patterns on first use: 0.1–0.3 s for bash, Ruby, TypeScript or Swift) and
 * for the first mermaid diagram (mermaid's load, about half a second). Pages handed out in file order
 * make every thread meet nearly every language: on the portal both threads compiled the same grammars,
 * a second of CPU on a cold build of a few seconds.
 *
 * So each costly thing a page holds (a fence's language, a diagram) is given to one thread, the things
 * spread so that every thread gets about as many, and a page goes to the thread that owns most of what
 * it holds. The pages that hold none fill the lanes up to the same amount of markdown. A thread whose
 * lane is empty takes from the end of the fullest lane (`takeBatch`), where the lanes keep the pages
 * that hold nothing costly: the threads still finish together, and a stolen page seldom brings a
 * grammar along.
 */

/** What rendering a page costs a thread: its markdown's length and the costly things it holds (`costlyParts`), when any. */
export interface PageCost {
  size: number;
  parts?: string[];
}

/**
 * A page's cost, taken from its body. A doc read without its body (`readPageLean`, every page of `docs
 * build`) keeps this instead, so the lanes still see what each page holds.
 */
export function pageCost(body: string): PageCost {
  const parts = costlyParts(body);
  return parts.length > 0 ? { size: body.length, parts } : { size: body.length };
}

/** What a page costs beyond its length: its fences' languages and its diagrams. */
export function costlyParts(body: string | undefined): string[] {
  if (!body) return [];
  const parts = new Set<string>();
  for (const match of body.matchAll(FENCE)) {
    const lang = match[1]!.toLowerCase();
    if (!PLAIN.has(lang)) parts.add(ALIASES[lang] ?? lang);
  }
  return [...parts];
}

/** The opening line of a fence and its language (what `parseMeta` in plugins/code.ts reads first). */
const FENCE = /^[ \t]{0,3}(?:`{3,}|~{3,})[ \t]*([\w#+.-]+)/gm;
/** Languages drawn without a grammar. */
const PLAIN = new Set(['text', 'txt', 'plain', 'plaintext', 'ansi', 'console', 'output']);
/** Names that load the same grammar as another (shiki's aliases the portal and most sites use). */
const ALIASES: Record<string, string> = { ts: 'typescript', js: 'javascript', sh: 'bash', shell: 'bash', shellscript: 'bash', zsh: 'bash', yml: 'yaml', py: 'python', rb: 'ruby', md: 'markdown', jsonc: 'json', tsx: 'typescript', jsx: 'javascript' };
/**
 * What a first use costs, where it is far from a typical grammar's (1, some 0.1 s): measured on the
 * portal's fences (`bench`-style, one thread, first pass against a warm one). A diagram loads mermaid.
 */
const WEIGHT: Record<string, number> = { mermaid: 5, typescript: 3, ruby: 3, swift: 2.5, cpp: 2.5, php: 2, bash: 1.3, json: 0.2, dockerfile: 0.1, ini: 0.1, diff: 0.1, xml: 0.2, kotlin: 0.2, dart: 0.2, nix: 0.3, sql: 0.3, graphql: 0.3, http: 0.3, html: 0.5 };
const weightOf = (part: string): number => WEIGHT[part] ?? 1;

/** A lane per thread: the job numbers it renders, in order. */
export type Lanes = number[][];

/**
 * Spreads the jobs (their costs, as far as they are known) over `threads` lanes as the file comment
 * says. Each costly part is given to a lane, the parts with the most markdown first (a page's length
 * shared among its parts), each to the lane with the least markdown yet; a page goes to the lane that
 * owns most of what it holds. Then the pages that hold nothing costly, the longest first, each to the
 * lane with the least markdown. Every job number is in exactly one lane; within a lane, the pages that
 * hold the most of what the lane owns first, the pages that hold nothing costly last, each in job order.
 */
export function planLanes(costs: (PageCost | undefined)[], threads: number): Lanes {
  const count = Math.max(1, threads);
  const parts = costs.map((cost) => cost?.parts ?? []);
  const lengthOf = (job: number): number => costs[job]?.size ?? AVERAGE_PAGE;
  const volume = new Map<string, number>();
  parts.forEach((list, job) => {
    for (const part of list) volume.set(part, (volume.get(part) ?? 0) + lengthOf(job) / list.length);
  });
  const owner = new Map<string, number>();
  const owned = new Array<number>(count).fill(0);
  for (const [part, markdown] of [...volume].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    const lane = lightest(owned);
    owner.set(part, lane);
    owned[lane]! += markdown;
  }
  const size = new Array<number>(count).fill(0);
  // What each page holds of its lane's parts: a lane's lightest pages go last, where other threads take from.
  const weight = new Array<number>(costs.length).fill(0);
  const costly: number[][] = Array.from({ length: count }, () => []);
  const plain: number[][] = Array.from({ length: count }, () => []);
  parts.forEach((list, job) => {
    if (list.length === 0) return;
    const held = new Array<number>(count).fill(0);
    for (const part of list) held[owner.get(part)!]! += weightOf(part);
    const most = Math.max(...held);
    // Of the lanes owning as much, the one with the least markdown so far.
    let lane = -1;
    held.forEach((weight, at) => {
      if (weight === most && (lane < 0 || size[at]! < size[lane]!)) lane = at;
    });
    costly[lane]!.push(job);
    size[lane]! += lengthOf(job);
    weight[job] = most;
  });
  const rest = costs.map((_, job) => job).filter((job) => parts[job]!.length === 0);
  for (const job of rest.sort((a, b) => lengthOf(b) - lengthOf(a) || a - b)) {
    const lane = lightest(size);
    plain[lane]!.push(job);
    size[lane]! += lengthOf(job);
  }
  return costly.map((list, lane) => [...list.sort((a, b) => weight[b]! - weight[a]! || a - b), ...plain[lane]!.sort((a, b) => a - b)]);
}

/**
 * The next `size` jobs for the thread of `lane`: from its own lane's front, or, once that is empty,
 * from the end of the lane with the most left. Empty when every lane is. Takes them out of `lanes`.
 */
export function takeBatch(lanes: Lanes, lane: number, size: number): number[] {
  const own = lanes[lane]!;
  if (own.length > 0) return own.splice(0, size);
  let fullest = -1;
  lanes.forEach((jobs, at) => {
    if (jobs.length > 0 && (fullest < 0 || jobs.length > lanes[fullest]!.length)) fullest = at;
  });
  if (fullest < 0) return [];
  const from = lanes[fullest]!;
  return from.splice(Math.max(0, from.length - size), size);
}

/** A job's weight in markdown when its cost is not known (a doc the store kept from before costs were). */
const AVERAGE_PAGE = 4096;

const lightest = (values: number[]): number => values.indexOf(Math.min(...values));
