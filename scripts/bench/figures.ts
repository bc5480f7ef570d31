// The benchmark's figures: one object per figure (what `bench/results.json` holds), percentiles,
// and the one table `npm run bench` prints. Pure: no timing, no I/O beyond formatting.

export interface Figure {
  /** What is measured, e.g. "switch: open → last message painted, p95". */
  name: string;
  value: number;
  unit: string;
  /** The reference measured in the same run (a bare read, one frame, Fastify's hello world), where there is one. */
  limit?: number;
  /** What `limit` is. */
  limitName?: string;
  /** value / limit. */
  ratio?: number;
  /** The target in words ("≤ 2× the bare read and < 150 ms"); empty for a figure shown for context. */
  target: string;
  /** Whether the target is met; null where there is none. */
  met: boolean | null;
  /** Anything the reader needs to read the figure (samples, what was left out). */
  note?: string;
}

/** Nearest-rank percentile (p in 0–100) of a non-empty sample. */
export function percentile(xs: readonly number[], p: number): number {
  if (!xs.length) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export const median = (xs: readonly number[]) => percentile(xs, 50);

/** The item whose `key` is the median (nearest rank: the lower middle one of an even count). */
export function medianBy<T>(items: readonly T[], key: (item: T) => number): T {
  if (!items.length) throw new Error('no items');
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  return sorted[Math.ceil(sorted.length / 2) - 1]!;
}

/**
 * Of keys measured with the ticks their frames were made for (ms from each key: tests/bench/page-probes.ts,
 * `tickOf`): how many frames waited for a whole tick (made for a tick over `lateMs` after the key),
 * of all and of the keys at or over `frameMs` (bench/README.md, thirty-eighth stop).
 */
export function lateTicks(times: readonly number[], ticks: readonly number[], lateMs: number, frameMs: number): { late: number; over: number; overLate: number } {
  if (times.length !== ticks.length) throw new Error(`${times.length} times but ${ticks.length} ticks`);
  let late = 0;
  let over = 0;
  let overLate = 0;
  times.forEach((t, i) => {
    const waited = ticks[i]! > lateMs;
    if (waited) late++;
    if (t >= frameMs) {
      over++;
      if (waited) overLate++;
    }
  });
  return { late, over, overLate };
}

export const round = (n: number, digits = 1) => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

/** A figure against a reference: ratio = value / limit. `met` from the caller's rule. */
export function against(name: string, value: number, unit: string, ref: { limit: number; limitName: string }, target: string, met: (value: number, ratio: number) => boolean, note?: string): Figure {
  const ratio = value / ref.limit;
  return {
    name,
    value: round(value, 2),
    unit,
    limit: round(ref.limit, 2),
    limitName: ref.limitName,
    ratio: round(ratio, 3),
    target,
    met: Number.isFinite(value) && Number.isFinite(ratio) ? met(value, ratio) : false,
    ...(note ? { note } : {}),
  };
}

/** A figure with an absolute target (or none: `met` undefined gives null). */
export function absolute(name: string, value: number, unit: string, target: string, met?: (value: number) => boolean, note?: string): Figure {
  return { name, value: round(value, 2), unit, target, met: met ? Number.isFinite(value) && met(value) : null, ...(note ? { note } : {}) };
}

const fmt = (n: number | undefined, unit = '') => {
  if (n === undefined || Number.isNaN(n)) return '';
  const digits = Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : 2;
  return `${n.toLocaleString('en-US', { maximumFractionDigits: digits })}${unit ? ` ${unit}` : ''}`;
};

/** The table `npm run bench` prints: one line per figure, the reference and the ratio beside it. */
export function table(figures: readonly Figure[]): string {
  const rows = figures.map((f) => [
    f.name,
    fmt(f.value, f.unit),
    f.limit === undefined ? '' : `${fmt(f.limit, f.unit === '%' ? '' : f.unit)}${f.limitName ? ` (${f.limitName})` : ''}`,
    f.ratio === undefined ? '' : `${fmt(f.ratio)}×`,
    f.target,
    f.met === null ? '' : f.met ? 'met' : 'MISSED',
  ]);
  const head = ['figure', 'value', 'limit (same run)', 'ratio', 'target', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The notes under the table: what each figure's number rests on. */
export function notes(figures: readonly Figure[]): string {
  return figures.filter((f) => f.note).map((f) => `- ${f.name}: ${f.note}`).join('\n');
}

/** The markdown form of the table, for bench/README.md. */
export function markdownTable(figures: readonly Figure[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const lines = ['| figure | value | limit (same run) | ratio | target | |', '| - | - | - | - | - | - |'];
  for (const f of figures) {
    lines.push(
      `| ${esc(f.name)} | ${fmt(f.value, f.unit)} | ${f.limit === undefined ? '' : esc(`${fmt(f.limit, f.unit === '%' ? '' : f.unit)}${f.limitName ? ` (${f.limitName})` : ''}`)} | ${f.ratio === undefined ? '' : `${fmt(f.ratio)}×`} | ${esc(f.target)} | ${f.met === null ? '' : f.met ? 'met' : '**missed**'} |`,
    );
  }
  return lines.join('\n');
}
