// npm run bench [-- --only service|renderer] [--quick] [--out bench/results.json]
// The performance budget (bench/README.md): every figure an agent feels, each measured against
// its reference in the same run where it has one (a bare IndexedDB read, one frame, Fastify's
// hello world), printed as one table and written to bench/results.json. Asserts nothing: a missed
// target is a row marked MISSED, and the command still exits 0; it exits 1 only when a
// measurement could not be taken (or the service lost or misdelivered an event).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { benchRenderer } from '../tests/bench/renderer';
import type { Figure } from './bench/figures';
import { notes, table } from './bench/figures';
import { benchService } from './bench/service';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/results.json' },
  },
});
const quick = values.quick;
const root = resolve(import.meta.dirname, '..');
const started = Date.now();
const log = (line: string) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

const figures: Figure[] = [];
let failed = false;
const only = values.only;
if (!only || only === 'renderer') {
  try {
    log('building the renderer (vite build)');
    const built = spawnSync('npx', ['--no-install', 'vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('vite build failed');
    await benchRenderer({ quick, log, figures });
  } catch (err) {
    failed = true;
    console.error('renderer benchmark failed:', err);
  }
}
if (!only || only === 'service') {
  try {
    figures.push(
      ...(await benchService({
        messages: quick ? 1_000 : 5_000,
        connections: 16,
        sockets: 200,
        helloSeconds: quick ? 3 : 10,
        profileMessages: quick ? 500 : 3_000,
        log,
      })),
    );
  } catch (err) {
    failed = true;
    console.error('service benchmark failed:', err);
  }
}

const out = resolve(root, values.out);
mkdirSync(dirname(out), { recursive: true });
const machine = { node: process.version, platform: process.platform, cpus: (await import('node:os')).cpus().length, at: new Date().toISOString(), quick };
writeFileSync(out, JSON.stringify({ machine, figures }, null, 2) + '\n');
console.log(`\nnpm run bench${quick ? ' -- --quick' : ''} (${machine.at}, Node ${machine.node}, ${machine.cpus} cores, ${((Date.now() - started) / 60_000).toFixed(1)} min)\n`);
console.log(table(figures));
console.log(`\nNotes\n${notes(figures)}`);
const missed = figures.filter((f) => f.met === false).length;
console.log(`\n${figures.filter((f) => f.met === true).length} targets met, ${missed} missed; written to ${values.out}`);
process.exit(failed ? 1 : 0);
