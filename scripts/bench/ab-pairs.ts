// Two builds compared in the same loads (scripts/bench-ab.ts): the cold-open scenario loads the
// build under test at `/` and the other at `/__ab.html` in turn (BENCH_AB_BUILD), and writes each
// load as one line (BENCH_LOADDETAIL). Loads of the two next to each other in one run met the same
// machine, so the difference of each such pair is what is compared, not two runs' medians (which
// move with the machine by more than most changes tried). Pure: reading files is the script's.
import { median } from './figures';

/** One load as BENCH_LOADDETAIL writes it (tests/bench/scenarios/open.ts), the fields used here. */
export interface LoadLine {
  way: string;
  page: string;
  firstRows?: number;
  /** The document's parse done, and its deferred scripts (the entry) run: from the navigation timing. */
  domInteractive?: number;
  domContentLoaded?: number;
  marks?: [string, number][];
}

/** One run's loads, and which of the two builds was the one under test (served at `/`). */
export interface AbRun {
  underTest: 'a' | 'b';
  lines: readonly LoadLine[];
}

/**
 * What a load is measured by: its first rows painted, the document's `domInteractive` or
 * `domContentLoaded` (so `domInteractive..domContentLoaded` is the entry's run), one of its
 * `performance.mark`s (the first of that name), or `from..to`, the time from one of those to
 * another in the same load (a step: where a change moved time within the load rather than when the
 * load ended).
 */
export function measureOf(line: LoadLine, what: string): number | undefined {
  const step = what.split('..');
  if (step.length === 2) {
    const from = measureOf(line, step[0]!);
    const to = measureOf(line, step[1]!);
    return from === undefined || to === undefined ? undefined : to - from;
  }
  if (what === 'firstRows') return line.firstRows;
  if (what === 'domInteractive' || what === 'domContentLoaded') return line[what];
  return line.marks?.find(([name]) => name === what)?.[1];
}

/**
 * B − A for each pair, by way of loading (in memory, reloads, new tabs). In each run, the n-th load
 * of one build in a way is paired with the n-th load of the other in that way; loads of other pages
 * (none in such a run) and loads without the measure are left out, and so is a load with no partner.
 */
export function pairedDifferences(runs: readonly AbRun[], what = 'firstRows'): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const byWay of runs.map((run) => valuesByBuild(run, what))) {
    for (const [name, { a, b }] of byWay) {
      let diffs = out.get(name);
      if (!diffs) out.set(name, (diffs = []));
      for (let i = 0; i < Math.min(a.length, b.length); i++) diffs.push(b[i]! - a[i]!);
    }
  }
  return out;
}

/** Each build's own nearest-rank median by way of loading, over every run's loads that have the measure. */
export function buildMedians(runs: readonly AbRun[], what = 'firstRows'): Map<string, { a: number; b: number }> {
  const all = new Map<string, { a: number[]; b: number[] }>();
  for (const byWay of runs.map((run) => valuesByBuild(run, what))) {
    for (const [name, { a, b }] of byWay) {
      const way = all.get(name) ?? { a: [], b: [] };
      all.set(name, { a: [...way.a, ...a], b: [...way.b, ...b] });
    }
  }
  return new Map([...all].map(([name, { a, b }]) => [name, { a: median(a), b: median(b) }]));
}

/** One run's values of the measure, by way of loading and build, in load order. */
function valuesByBuild(run: AbRun, what: string): Map<string, { a: number[]; b: number[] }> {
  const byWay = new Map<string, { a: number[]; b: number[] }>();
  for (const line of run.lines) {
    if (line.page !== '/' && line.page !== '/__ab.html') continue;
    const value = measureOf(line, what);
    if (value === undefined || !Number.isFinite(value)) continue;
    const isUnderTest = line.page === '/';
    const build = isUnderTest === (run.underTest === 'a') ? 'a' : 'b';
    let way = byWay.get(line.way);
    if (!way) byWay.set(line.way, (way = { a: [], b: [] }));
    way[build].push(value);
  }
  return byWay;
}

export interface PairSummary {
  pairs: number;
  /** Nearest-rank median of B − A, as every figure of the benchmark (figures.ts). */
  median: number;
  mean: number;
  /** Pairs in which B was sooner (a negative difference). */
  bSooner: number;
}

export function summarizePairs(diffs: readonly number[]): PairSummary {
  return {
    pairs: diffs.length,
    median: median(diffs),
    mean: diffs.length ? diffs.reduce((s, d) => s + d, 0) / diffs.length : NaN,
    bSooner: diffs.filter((d) => d < 0).length,
  };
}
