// npm test: typecheck, lint, vitest, then Playwright end-to-end. Every stage runs even if an
// earlier one failed, and the last line sums them all as `N passed, N failed` (what CI reads).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const reports = resolve(root, 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
delete env.FORCE_COLOR;

interface Tally {
  stage: string;
  passed: number;
  failed: number;
  skipped: string[];
}
const tallies: Tally[] = [];

function run(cmd: string, args: string[], extraEnv: Record<string, string> = {}): number {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  return r.status ?? 1;
}
const npx = (bin: string, args: string[], extraEnv?: Record<string, string>) => run('npx', ['--no-install', bin, ...args], extraEnv);

// 1. Typecheck: each process boundary is its own check.
for (const project of ['shared', 'main', 'renderer', 'server', 'tests']) {
  const ok = npx('tsc', ['-p', project]) === 0;
  tallies.push({ stage: `typecheck ${project}`, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: [] });
}

// 2. Lint, including the process-boundary rules.
{
  const ok = npx('eslint', ['--max-warnings=0', '.']) === 0;
  tallies.push({ stage: 'lint', passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: [] });
}

// 3. Vitest (unit, server conformance, renderer components).
{
  const out = resolve(reports, 'vitest.json');
  const code = npx('vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  tallies.push(readVitest(out, code));
}

// 4. Playwright end-to-end in Chromium, web mode, against the real service.
{
  const out = resolve(reports, 'playwright.json');
  const built = npx('vite', ['build', '--logLevel', 'warn']) === 0;
  const code = built ? npx('playwright', ['test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: out }) : 1;
  tallies.push(readPlaywright(out, code));
}

function readVitest(file: string, code: number): Tally {
  if (!existsSync(file)) return { stage: 'vitest', passed: 0, failed: 1, skipped: [] };
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    testResults: { status: string; assertionResults: { status: string; fullName: string }[] }[];
  };
  const skipped = report.testResults.flatMap((f) => f.assertionResults.filter((a) => a.status === 'skipped' || a.status === 'pending' || a.status === 'todo').map((a) => a.fullName));
  // A file that fails to load has no failed test in it; count it, so a broken file cannot pass silently.
  const brokenFiles = report.testResults.filter((f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed')).length;
  const failed = report.numFailedTests + brokenFiles + (code !== 0 && report.numFailedTests + brokenFiles === 0 ? 1 : 0);
  return { stage: 'vitest', passed: report.numPassedTests, failed, skipped };
}

function readPlaywright(file: string, code: number): Tally {
  if (!existsSync(file)) return { stage: 'playwright', passed: 0, failed: 1, skipped: [] };
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    suites: Suite[];
    errors?: unknown[];
  };
  type Spec = { title: string; tests: { status: string; results: { annotations?: { type: string; description?: string }[] }[]; annotations?: { type: string; description?: string }[] }[] };
  type Suite = { title: string; specs: Spec[]; suites?: Suite[] };
  const skipped: string[] = [];
  const walk = (s: Suite) => {
    for (const spec of s.specs) {
      for (const t of spec.tests) {
        if (t.status === 'skipped') {
          const why = [...(t.annotations ?? []), ...t.results.flatMap((r) => r.annotations ?? [])].find((a) => a.type === 'skip')?.description;
          skipped.push(`${spec.title}${why ? ` (${why})` : ''}`);
        }
      }
    }
    s.suites?.forEach(walk);
  };
  report.suites.forEach(walk);
  const failed = report.stats.unexpected + (report.errors?.length ?? 0) + (code !== 0 && report.stats.unexpected === 0 && !report.errors?.length ? 1 : 0);
  return { stage: 'playwright', passed: report.stats.expected + report.stats.flaky, failed, skipped };
}

const passed = tallies.reduce((n, t) => n + t.passed, 0);
const failed = tallies.reduce((n, t) => n + t.failed, 0);
console.log('\nSummary');
for (const t of tallies) console.log(`  ${t.stage.padEnd(20)} ${t.passed} passed, ${t.failed} failed${t.skipped.length ? `, ${t.skipped.length} skipped` : ''}`);
for (const t of tallies) for (const s of t.skipped) console.log(`  skipped in ${t.stage}: ${s}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
