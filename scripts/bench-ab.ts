// npm run bench:ab -- <build A> <build B> [--rounds 3] [--dir /tmp/bench-ab] [--measure firstRows,<mark>,<mark>..<mark>,…]
// npm run bench:ab -- --analyze <dir> [--measure …]
//
// Two built renderers (`npx vite build --outDir <folder>` each) compared in the same loads: each
// round runs the cold open (`--scenario open`) twice, A under test with B in the React floor's
// place (BENCH_AB_BUILD), then the two swapped, every load written as a line (BENCH_LOADDETAIL);
// then prints, for each way of loading, B − A per pair of loads (scripts/bench/ab-pairs.ts). This is
// how bench/README.md's "per-load difference" figures are made. dist/renderer is set aside while it
// runs and put back after. A measure other than `firstRows` is a `performance.mark` the builds set
// (the probe sets `probe:options`, the first rows in the page, and `probe:raf`, their frame begun),
// the page's `domInteractive` or `domContentLoaded`, or `from..to`, the time between two of those
// in each load; each build's own median is printed too.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { AbRun, LoadLine } from './bench/ab-pairs';
import { buildMedians, pairedDifferences, summarizePairs } from './bench/ab-pairs';
import { round } from './bench/figures';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '3' },
    dir: { type: 'string', default: '/tmp/bench-ab' },
    measure: { type: 'string', default: 'firstRows' },
    analyze: { type: 'string' },
  },
});
const root = resolve(import.meta.dirname, '..');
const measures = values.measure.split(',').map((m) => m.trim()).filter(Boolean);
const signed = (n: number) => `${n > 0 ? '+' : ''}${round(n)}`;

function runBoth(a: string, b: string, rounds: number, dir: string) {
  const dist = join(root, 'dist/renderer');
  const aside = join(root, 'dist/renderer.bench-ab-aside');
  if (existsSync(aside)) throw new Error(`${aside} is there from an earlier run: put it back as dist/renderer (or delete it) first`);
  mkdirSync(dir, { recursive: true });
  // An earlier comparison's loads in the same folder would be counted with these.
  for (const file of readdirSync(dir)) if (/^(loads-\d+-[ab]\.jsonl|open-\d+-[ab]\.json)$/.test(file)) rmSync(join(dir, file));
  if (existsSync(dist)) renameSync(dist, aside);
  try {
    for (let r = 1; r <= rounds; r++) {
      for (const [underTest, build, other] of [['a', a, b], ['b', b, a]] as const) {
        rmSync(dist, { recursive: true, force: true });
        cpSync(build, dist, { recursive: true });
        const name = `${r}-${underTest}`;
        const started = Date.now();
        const run = spawnSync('npx', ['--no-install', 'tsx', 'scripts/bench.ts', '--only', 'renderer', '--scenario', 'open', '--no-build', '--out', join(dir, `open-${name}.json`)], {
          cwd: root,
          env: { ...process.env, BENCH_LOADDETAIL: join(dir, `loads-${name}.jsonl`), BENCH_AB_BUILD: other },
          stdio: ['ignore', 'pipe', 'pipe'],
          encoding: 'utf8',
        });
        console.log(`round ${r}, ${underTest.toUpperCase()} under test: ${((Date.now() - started) / 1000).toFixed(0)} s, exit ${run.status}`);
        if (run.status !== 0) throw new Error(`the run failed:\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
      }
    }
  } finally {
    rmSync(dist, { recursive: true, force: true });
    if (existsSync(aside)) renameSync(aside, dist);
  }
}

function analyze(dir: string) {
  const runs: AbRun[] = [];
  for (const file of readdirSync(dir).sort()) {
    const m = /^loads-\d+-([ab])\.jsonl$/.exec(file);
    if (!m) continue;
    const lines = readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LoadLine);
    runs.push({ underTest: m[1] as 'a' | 'b', lines });
  }
  if (!runs.length) throw new Error(`no loads-<round>-<a|b>.jsonl in ${dir}`);
  console.log(`${runs.length} runs in ${dir}; B − A per pair of loads, ms (nearest-rank median)`);
  for (const measure of measures) {
    const medians = buildMedians(runs, measure);
    for (const [way, diffs] of pairedDifferences(runs, measure)) {
      const s = summarizePairs(diffs);
      const own = medians.get(way);
      if (!s.pairs) {
        console.log(`${measure.padEnd(16)} ${way.padEnd(10)} no pairs (measured in only one of the builds)`);
        continue;
      }
      console.log(`${measure.padEnd(16)} ${way.padEnd(10)} median ${signed(s.median).padStart(6)}  mean ${signed(s.mean).padStart(6)}  B sooner in ${s.bSooner} of ${s.pairs}  (A ${round(own!.a)}, B ${round(own!.b)})`);
    }
  }
}

if (values.analyze) analyze(values.analyze);
else {
  const [a, b] = positionals.map((p) => resolve(p));
  if (!a || !b || !existsSync(join(a, 'index.html')) || !existsSync(join(b, 'index.html'))) {
    console.error('usage: npm run bench:ab -- <build A> <build B> [--rounds 3] [--dir /tmp/bench-ab] [--measure firstRows,<mark>,<mark>..<mark>]; each a folder `vite build --outDir` wrote');
    process.exit(2);
  }
  runBoth(a, b, Number(values.rounds), resolve(values.dir));
  analyze(resolve(values.dir));
}
