// Cold open: navigation to the first list rows painted from the cache (10,000 conversations), and
// in the same run, alternating with it, a bare page reading the same first rows and the whole view
// from the same IndexedDB (bare-read.ts). Medians over the runs.
//
// Neither page is asked anything until its load is over: each says it is done on its console,
// which Playwright hears without touching the page. Waiting with page.waitForFunction injected
// Playwright's own script into the page the moment its load event fired (27 ms of compiling in a
// traced load), inside the measured window of both pages.
import type { Page } from '@playwright/test';
import type { Figure } from '../../../scripts/bench/figures';
import { absolute, against, median } from '../../../scripts/bench/figures';
import { bareOpen } from '../bare-read';
import { traced } from '../trace';

async function appOpen(page: Page, url: string) {
  const done = page.waitForEvent('console', { predicate: (m) => m.text() === 'bench:fullList', timeout: 120_000 });
  await page.goto(url, { waitUntil: 'commit' });
  await done;
  return page.evaluate(() => ({ firstRows: window.__bench.firstRows!, shell: window.__bench.shell!, fullList: window.__bench.fullList!, setsize: Number(document.querySelector('[role="option"]')?.getAttribute('aria-setsize')) }));
}

export async function benchOpen(page: Page, appUrl: string, origin: string, runs: number): Promise<Figure[]> {
  const app: Awaited<ReturnType<typeof appOpen>>[] = [];
  const first: Awaited<ReturnType<typeof bareOpen>>[] = [];
  const whole: Awaited<ReturnType<typeof bareOpen>>[] = [];
  // One of each first, unmeasured: the disk cache and the database file warm up.
  await bareOpen(page, origin, 'whole');
  await appOpen(page, appUrl);
  for (let i = 0; i < runs; i++) {
    first.push(await bareOpen(page, origin, 'first'));
    app.push(await appOpen(page, appUrl));
    whole.push(await bareOpen(page, origin, 'whole'));
  }
  // Traced last (BENCH_TRACE), then back on the bare page, where the run goes on.
  if (process.env.BENCH_TRACE) await traced(page, 'open', () => appOpen(page, appUrl)).then(() => bareOpen(page, origin, 'whole'));
  const bareFirst = median(first.map((r) => r.navToRead));
  const appFirst = median(app.map((r) => r.firstRows));
  const note = `medians of ${runs} loads each, alternating; the list showed ${app[0]!.setsize} rows; the app's list box (the inbox mounted) at ${median(app.map((r) => r.shell)).toFixed(0)} ms; bare read alone: first ${first[0]!.rows} rows ${median(first.map((r) => r.read)).toFixed(1)} ms, whole view ${whole[0]!.rows} rows ${median(whole.map((r) => r.read)).toFixed(1)} ms`;
  return [
    against('cold open: navigation → first rows painted', appFirst, 'ms', { limit: bareFirst, limitName: 'bare page: navigation → same rows read' }, '≤ 2× the bare read and < 150 ms', (v, r) => r <= 2 && v < 150, note),
    against('cold open: navigation → whole view in the list', median(app.map((r) => r.fullList)), 'ms', { limit: median(whole.map((r) => r.navToRead)), limitName: 'bare page: navigation → whole view read' }, '', () => true, note),
    absolute('bare read alone: first rows', median(first.map((r) => r.read)), 'ms', ''),
    absolute('bare read alone: whole view', median(whole.map((r) => r.read)), 'ms', ''),
  ].map((f, i) => (i === 1 ? { ...f, met: null } : f));
}
