/**
 * Which render thread takes which page. A thread pays once for each code language it meets (shiki
 * loads a grammar and compiles its patterns as its rules are first reached: ~0.1 s for TypeScript or
 * Ruby) and for the first mermaid diagram (mermaid's load). Pages handed out in file order make every
 * thread meet nearly every language: on the portal both threads compiled the same grammars, a second of
 * CPU on a cold build of a few seconds.
 *
 * So the pages are planned as work, in milliseconds of a render thread: a page's markdown at a steady
 * pace, and each costly thing it holds (a fence's language, a diagram) at its first-use cost, once in
 * each lane that meets it. A page whose costliest thing costs enough to plan around is anchored by it,
 * and the pages of one anchor form a group that goes to one lane: the groups are spread over the lanes
 * and then moved and swapped between them while that ends the build sooner (its fullest lane, or every
 * lane's share of all the work), or ends it as soon and costs less (a language met by one lane instead
 * of two). The pages that hold only cheap things go next, each where it adds least to the fullest
 * lane's end, then the pages that hold nothing costly, each to the least loaded lane; last, while a lane
 * is fuller than another by more than a page's move costs, pages move from its end to the other.
 *
 * A thread whose lane is empty takes from the end of the fullest lane (`takeBatch`), where the lanes
 * keep the pages that hold nothing costly: the threads still finish together, and a stolen page seldom
 * brings a grammar along.
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
 * What a first use costs a thread, in milliseconds, where it is far from a typical grammar's: measured in
 * the portal's cold build (2026-11-29: each thread's time in the highlighter by language, less what the
 * same blocks take once compiled), and mermaid's load with its first diagram. Since each expression
 * is compiled once a thread (markdown/shared-patterns.ts) a grammar's first use costs less (TypeScript
 * and C++ ~0.1 s, Swift ~15 ms: one thread, a fresh highlighter, its blocks twice less twice what they
 * take once compiled); a table of those figures planned lanes that built the portal no faster (six
 * alternated cold builds: 2.42–2.73 s against 2.42–2.63 s with these), so these stay: they keep more
 * of each language to one lane.
 */
const FIRST_USE_MS: Record<string, number> = { typescript: 300, swift: 170, mermaid: 150, ruby: 130, c: 120, javascript: 110, cpp: 250, php: 200, html: 25, http: 25, python: 15, graphql: 15, sql: 15, nix: 8, bash: 8, yaml: 4, json: 2, dart: 2, kotlin: 2, xml: 2, dockerfile: 1, ini: 1, diff: 1 };
/** A grammar the table does not name. */
const FIRST_USE_DEFAULT_MS = 30;
const firstUse = (part: string): number => FIRST_USE_MS[part] ?? FIRST_USE_DEFAULT_MS;
/** A thread's steady pace, in milliseconds a character of markdown (the portal: ~1.9 s for 385 KB a thread, first uses aside). */
const MS_PER_CHAR = 0.005;

/** A lane per thread: the job numbers it renders, in order. */
export type Lanes = number[][];

/** A page whose costliest thing costs at least this (in ms) is anchored by it (see the file comment). */
const ANCHOR_MS = 20;
/** Moves that end the build within this of the best so far (in ms) are as good: the one that costs less wins. */
const SAME_END_MS = 1;
/** Rounds of moving and swapping groups: each round that changes nothing ends the search sooner. */
const SEARCH_ROUNDS = 8;

/** The pages of one anchor, and what they cost together. */
interface Group {
  jobs: number[];
  work: number;
  parts: Set<string>;
}

/**
 * Spreads the jobs (their costs, as far as they are known) over `threads` lanes as the file comment
 * says. Every job number is in exactly one lane; within a lane, the anchored pages first, group by
 * group, then the pages that hold only cheap things, then those that hold nothing costly.
 */
export function planLanes(costs: (PageCost | undefined)[], threads: number): Lanes {
  const count = Math.max(1, threads);
  const parts = costs.map((cost) => cost?.parts ?? []);
  const work = (job: number): number => (costs[job]?.size ?? AVERAGE_PAGE) * MS_PER_CHAR;
  const byAnchor = new Map<string, Group>();
  const cheap: number[] = [];
  const plain: number[] = [];
  /** The work no group holds: the lanes share it whatever the groups do. */
  let spread = 0;
  parts.forEach((list, job) => {
    const anchor = list.filter((part) => firstUse(part) >= ANCHOR_MS).sort((a, b) => firstUse(b) - firstUse(a) || (a < b ? -1 : 1))[0];
    if (anchor === undefined) {
      (list.length > 0 ? cheap : plain).push(job);
      spread += work(job);
      return;
    }
    const group = byAnchor.get(anchor) ?? { jobs: [], work: 0, parts: new Set<string>() };
    byAnchor.set(anchor, group);
    group.jobs.push(job);
    group.work += work(job);
    for (const part of list) group.parts.add(part);
  });
  const groups = [...byAnchor.values()];
  /** What a lane of these groups costs: their work, and each thing they hold once. */
  const laneCost = (members: Group[]): number => {
    const met = new Set<string>();
    let sum = 0;
    for (const group of members) {
      sum += group.work;
      for (const part of group.parts) met.add(part);
    }
    for (const part of met) sum += firstUse(part);
    return sum;
  };
  /** When the build ends with the groups in these lanes (by group), and what the lanes cost in all. */
  const judge = (owner: number[]): { end: number; total: number } => {
    const loads = Array.from({ length: count }, (_, lane) => laneCost(groups.filter((_, at) => owner[at] === lane)));
    const total = loads.reduce((sum, load) => sum + load, 0);
    return { end: Math.max(...loads, (total + spread) / count), total };
  };
  // A start: the costliest groups first, each to the lane that costs least so far.
  const owner = new Array<number>(groups.length).fill(0);
  const start = new Array<number>(count).fill(0);
  for (const at of groups.map((_, at) => at).sort((a, b) => laneCost([groups[b]!]) - laneCost([groups[a]!]) || a - b)) {
    owner[at] = start.indexOf(Math.min(...start));
    start[owner[at]!]! += laneCost([groups[at]!]);
  }
  let best = judge(owner);
  /**
   * Gives each group of `moves` its lane, and keeps that when the build then ends sooner, or as soon
   * for less (SAME_END_MS); else puts them back. True when kept.
   */
  const attempt = (moves: [group: number, lane: number][]): boolean => {
    const before = moves.map(([at]) => owner[at]!);
    for (const [at, lane] of moves) owner[at] = lane;
    const found = judge(owner);
    if (found.end < best.end - SAME_END_MS || (found.end <= best.end + SAME_END_MS && found.total < best.total - SAME_END_MS)) {
      best = found;
      return true;
    }
    moves.forEach(([at], i) => (owner[at] = before[i]!));
    return false;
  };
  for (let round = 0; round < SEARCH_ROUNDS && count > 1; round++) {
    let changed = false;
    for (let at = 0; at < groups.length; at++) {
      for (let lane = 0; lane < count; lane++) {
        const was = owner[at]!;
        if (lane === was) continue;
        // Moved to that lane, or else swapped with a group of it.
        if (attempt([[at, lane]]) || groups.some((_, other) => owner[other] === lane && attempt([[at, lane], [other, was]]))) changed = true;
      }
    }
    if (!changed) break;
  }

  // The lanes as planned, and what each holds: its load and how many of its pages hold each thing.
  const anchored: number[][] = Array.from({ length: count }, () => []);
  const loose: number[][] = Array.from({ length: count }, () => []);
  const load = new Array<number>(count).fill(0);
  const held = Array.from({ length: count }, () => new Map<string, number>());
  /** What `job` adds to `lane`: its work, and what it holds that the lane has not met. */
  const adds = (job: number, lane: number): number => work(job) + parts[job]!.reduce((sum, part) => sum + (held[lane]!.has(part) ? 0 : firstUse(part)), 0);
  /** What `job` takes from `lane` when it leaves: its work, and what no other page of the lane holds. */
  const takes = (job: number, lane: number): number => work(job) + parts[job]!.reduce((sum, part) => sum + (held[lane]!.get(part) === 1 ? firstUse(part) : 0), 0);
  const place = (job: number, lane: number, into: number[][]): void => {
    load[lane]! += adds(job, lane);
    for (const part of parts[job]!) held[lane]!.set(part, (held[lane]!.get(part) ?? 0) + 1);
    into[lane]!.push(job);
  };
  groups.forEach((group, at) => group.jobs.forEach((job) => place(job, owner[at]!, anchored)));
  const longestFirst = (a: number, b: number): number => work(b) - work(a) || a - b;
  for (const job of cheap.sort(longestFirst)) {
    let lane = 0;
    for (let other = 1; other < count; other++) if (load[other]! + adds(job, other) < load[lane]! + adds(job, lane)) lane = other;
    place(job, lane, loose);
  }
  for (const job of plain.sort(longestFirst)) place(job, load.indexOf(Math.min(...load)), loose);

  // A group larger than a lane's share: pages move from the fullest lane's end to the emptiest while that ends it sooner.
  for (;;) {
    const from = load.indexOf(Math.max(...load));
    const to = load.indexOf(Math.min(...load));
    if (from === to) break;
    const source = loose[from]!.length > 0 ? loose[from]! : anchored[from]!;
    const job = source[source.length - 1];
    if (job === undefined || Math.max(load[from]! - takes(job, from), load[to]! + adds(job, to)) >= load[from]! - SAME_END_MS) break;
    load[from]! -= takes(job, from);
    for (const part of parts[job]!) held[from]!.set(part, held[from]!.get(part)! - 1);
    for (const part of parts[job]!) if (held[from]!.get(part) === 0) held[from]!.delete(part);
    source.pop();
    place(job, to, source === loose[from] ? loose : anchored);
  }
  return anchored.map((lane, at) => [...lane, ...loose[at]!.filter((job) => parts[job]!.length > 0).sort((a, b) => a - b), ...loose[at]!.filter((job) => parts[job]!.length === 0).sort((a, b) => a - b)]);
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

