// Cold open: navigation to the first list rows painted from the cache (10,000 conversations), and
// in the same run, alternating with it, a bare page reading the same first rows and the whole view
// from the same IndexedDB (bare-read.ts). Medians over the runs.
//
// In the run's own browser context, as since the first table: Playwright's contexts are off the
// record, so IndexedDB is kept in memory and compiled code is cached in the tab's process only. An
// agent's browser profile and the Electron app's session keep both on disk, so the cold open is
// measured again in a profile on disk (`benchOpenOnDisk`), by reloads and by new tabs (bench/README.md,
// "The cold open in a profile on disk").
//
// Neither page is asked anything until its load is over: each says it is done on its console,
// which Playwright hears without touching the page. Waiting with page.waitForFunction injected
// Playwright's own script into the page the moment its load event fired (27 ms of compiling in a
// traced load), inside the measured window of both pages.
import type { Page } from '@playwright/test';
import { chromium } from '@playwright/test';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumArgs, chromiumPath } from '../../../playwright.config';
import type { Figure } from '../../../scripts/bench/figures';
import { absolute, against, median } from '../../../scripts/bench/figures';
import { bareOpen } from '../bare-read';
import { PROBES } from '../page-probes';
import type { CachePlan } from '../seed-cache';
import { seedCache } from '../seed-cache';
import { traced } from '../trace';

async function appOpen(page: Page, url: string, way = 'in memory') {
  const done = page.waitForEvent('console', { predicate: (m) => m.text() === 'bench:fullList', timeout: 120_000 });
  await page.goto(url, { waitUntil: 'commit' });
  await done;
  if (process.env.BENCH_LOADDETAIL) appendFileSync(process.env.BENCH_LOADDETAIL, JSON.stringify({ way, ...(await loadDetail(page)) }) + '\n');
  return page.evaluate(() => ({ firstRows: window.__bench.firstRows!, shell: window.__bench.shell!, fullList: window.__bench.fullList!, setsize: Number(document.querySelector('[role="option"]')?.getAttribute('aria-setsize')) }));
}

/**
 * BENCH_LOADDETAIL=<file>: each load of the app or the floor, one JSON line: its page, first rows,
 * and the browser's own timings from navigation (ms): the document's response begun and in
 * (docResponseStart, docResponseEnd), its parse done (domInteractive),
 * its deferred scripts run (domContentLoadedEventStart), each script's and style sheet's
 * request and response, and the page's `performance.mark`s: the probe's in every page
 * (`probe:options`, the first rows in the page; `probe:raf`, the frame that shows them begun), the
 * floor's (`fl:rows`, `fl:rendered`), and any a build under study adds (none in a build as
 * shipped). Read untraced, unlike a trace: where a load's time went before its first render,
 * without a trace's doubling.
 */
const loadDetail = (page: Page) =>
  page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const files = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({ file: r.name.replace(/^.*\//, ''), start: r.startTime, requestStart: r.requestStart, responseStart: r.responseStart, responseEnd: r.responseEnd }));
    return { marks: performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime * 10) / 10]), page: location.pathname, firstRows: window.__bench.firstRows, docResponseStart: nav?.responseStart, docResponseEnd: nav?.responseEnd, domInteractive: nav?.domInteractive, domContentLoaded: nav?.domContentLoadedEventStart, files };
  });

/** Runs `load` in a tab of its own (same browser context: the same storage and HTTP cache), then closes it. */
async function inNewTab<T>(page: Page, load: (tab: Page) => Promise<T>): Promise<T> {
  const tab = await page.context().newPage();
  try {
    await tab.addInitScript(PROBES);
    return await load(tab);
  } finally {
    await tab.close();
  }
}

/** The cold open's target, for every way it is measured. */
const COLD_OPEN_TARGET = '≤ 2× the bare read and < 150 ms';
const coldOpenMet = (value: number, ratio: number) => ratio <= 2 && value < 150;

/**
 * The React floor's page (tests/bench/react-floor.ts), served beside the bare page; or, comparing two
 * builds (BENCH_AB_BUILD, bare-read.ts), the other build's page at the app's address (its launch key
 * and route): its figures are then named "B build" and have no target.
 */
const AB = Boolean(process.env.BENCH_AB_BUILD);
const floorUrl = (origin: string, appUrl: string) => (AB ? appUrl.replace(/^(https?:\/\/[^/]+)\/[^#?]*/, '$1/__ab.html') : `${origin}/__bench/floor.html`);
const floorName = (name: string) => (AB ? name.replace('cold open floor, a React page', 'B build, cold open') : name);

/**
 * The floor's figure: a reference, with no target of its own. Its ratio to the bare read is the
 * least any React page painting these rows reads here; the note puts the app beside it.
 */
function floorFigure(name: string, floor: { firstRows: number }[], bare: { navToRead: number }[], appFirst: number, how: string): Figure {
  const value = median(floor.map((r) => r.firstRows));
  const what = AB ? `the build in ${process.env.BENCH_AB_BUILD}` : "React 19 and Dexie only, the app's style sheet, the rows in sight in one render";
  const note = `medians of ${floor.length} loads each, alternating with the app and the bare page${how}: ${what}; the app in the same loads ${appFirst.toFixed(1)} ms, ${(appFirst / value).toFixed(2)}× this; each load, ${AB ? 'B build' : 'floor'} / bare (ms): ${eachLoad(floor, bare)}`;
  return { ...against(floorName(name), value, 'ms', { limit: median(bare.map((r) => r.navToRead)), limitName: `bare page${how}: navigation → same rows read` }, '', () => true, note), met: null };
}

/** Each load's pair, for the note: app / bare, ms from navigation. */
const eachLoad = (app: { firstRows: number }[], bare: { navToRead: number }[]) => app.map((r, i) => `${r.firstRows.toFixed(1)} / ${bare[i]!.navToRead.toFixed(1)}`).join(', ');

/**
 * In one tab, a page loaded right after the app (its whole list in) reads about 20 ms slower, in
 * memory and on disk alike, its entry asked for about 15 ms later: the app is still at its after-start
 * work (idle callbacks, live queries, the search index's feed) as the next page's navigation waits to
 * commit. With two builds (`BENCH_AB_BUILD`, 32 runs), the page in the floor's place read 19.8 ms (in
 * memory) and 20.6 ms (reloads on disk) slower as medians, whichever build was there; in new tabs -1.0.
 * So the floor, like the app, is loaded after the bare page: an unmeasured bare load comes between
 * them (bench/README.md, eighteenth stop).
 */
export async function benchOpen(page: Page, appUrl: string, origin: string, runs: number): Promise<Figure[]> {
  const app: Awaited<ReturnType<typeof appOpen>>[] = [];
  const floor: Awaited<ReturnType<typeof appOpen>>[] = [];
  const first: Awaited<ReturnType<typeof bareOpen>>[] = [];
  const whole: Awaited<ReturnType<typeof bareOpen>>[] = [];
  // One of each first, unmeasured: the disk cache and the database file warm up.
  await bareOpen(page, origin, 'whole');
  await appOpen(page, appUrl);
  await appOpen(page, floorUrl(origin, appUrl));
  for (let i = 0; i < runs; i++) {
    first.push(await bareOpen(page, origin, 'first'));
    app.push(await appOpen(page, appUrl));
    // Unmeasured: the floor, like the app, loads after the bare page (above).
    await bareOpen(page, origin, 'first');
    floor.push(await appOpen(page, floorUrl(origin, appUrl)));
    // Last on the bare page: the run goes on from it (renderer.ts).
    whole.push(await bareOpen(page, origin, 'whole'));
  }
  // Traced last (BENCH_TRACE), then back on the bare page, where the run goes on.
  if (process.env.BENCH_TRACE) await traced(page, 'open', () => appOpen(page, appUrl, 'in memory, traced')).then(() => bareOpen(page, origin, 'whole'));
  const bareFirst = median(first.map((r) => r.navToRead));
  const appFirst = median(app.map((r) => r.firstRows));
  const note = `medians of ${runs} loads each, alternating; the list showed ${app[0]!.setsize} rows; the app's list box (the inbox mounted) at ${median(app.map((r) => r.shell)).toFixed(0)} ms; bare read alone: first ${first[0]!.rows} rows ${median(first.map((r) => r.read)).toFixed(1)} ms, whole view ${whole[0]!.rows} rows ${median(whole.map((r) => r.read)).toFixed(1)} ms; each load, app / bare (ms): ${eachLoad(app, first)}`;
  return [
    against('cold open: navigation → first rows painted', appFirst, 'ms', { limit: bareFirst, limitName: 'bare page: navigation → same rows read' }, COLD_OPEN_TARGET, coldOpenMet, note),
    floorFigure('cold open floor, a React page: navigation → first rows painted', floor, first, appFirst, ''),
    { ...against('cold open: navigation → whole view in the list', median(app.map((r) => r.fullList)), 'ms', { limit: median(whole.map((r) => r.navToRead)), limitName: 'bare page: navigation → whole view read' }, '', () => true, note), met: null },
    absolute('bare read alone: first rows', median(first.map((r) => r.read)), 'ms', ''),
    absolute('bare read alone: whole view', median(whole.map((r) => r.read)), 'ms', ''),
  ];
}

/**
 * Bare, app and floor loads alternating, `runs` of each; `bare` and `app` load a page (by a reload of
 * one tab, or in a tab of its own). In one tab (`sameTab`) an unmeasured bare load comes between the
 * app and the floor (benchOpen says why).
 */
async function rounds(runs: number, bare: () => Promise<Awaited<ReturnType<typeof bareOpen>>>, app: (url: string) => Promise<Awaited<ReturnType<typeof appOpen>>>, appUrl: string, origin: string, sameTab: boolean) {
  const out = { bare: [] as Awaited<ReturnType<typeof bareOpen>>[], app: [] as Awaited<ReturnType<typeof appOpen>>[], floor: [] as Awaited<ReturnType<typeof appOpen>>[] };
  for (let i = 0; i < runs; i++) {
    out.bare.push(await bare());
    out.app.push(await app(appUrl));
    if (sameTab) await bare();
    out.floor.push(await app(floorUrl(origin, appUrl)));
  }
  return out;
}

/**
 * The cold open in a browser profile on disk, as an agent's browser or the Electron app's session
 * keeps it: IndexedDB in files, and the scripts' compiled code kept in the disk cache, where a tab
 * in a new process finds it. A browser of its own, signed in through the same web host (`launchUrl`
 * carries its launch key: a tab keeps it in its own sessionStorage, platform/bridge.ts), its cache
 * seeded with the same plan; then reloads of one tab, and loads each in a new tab (a renderer
 * process that has run neither page), the bare page alternating with the app.
 */
export async function benchOpenOnDisk(launchUrl: string, origin: string, plan: CachePlan, runs: number): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath,
    args: chromiumArgs,
    viewport: { width: 1280, height: 800 },
  });
  try {
    await context.addInitScript(PROBES);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(launchUrl);
    await page.locator('#conversation-listbox').waitFor({ timeout: 60_000 });
    const appUrl = page.url();
    // The list can be up before the cache's database is listed (a first sign-in opens it with the
    // list's first read): one run of three once found none here.
    await page.waitForFunction(async () => (await indexedDB.databases()).some((d) => d.name?.startsWith('inbox:')), undefined, { timeout: 60_000 });
    await seedCache(page, plan);
    // Warm-up, unmeasured: each page loaded (and its scripts compiled and cached) a few times.
    for (let i = 0; i < 3; i++) {
      await bareOpen(page, origin, 'first');
      await appOpen(page, appUrl);
      await appOpen(page, floorUrl(origin, appUrl));
    }
    const reloads = await rounds(runs, () => bareOpen(page, origin, 'first'), (url) => appOpen(page, url, 'reload'), appUrl, origin, true);
    const tabs = await rounds(runs, () => inNewTab(page, (tab) => bareOpen(tab, origin, 'first')), (url) => inNewTab(page, (tab) => appOpen(tab, url, 'new tab')), launchUrl, origin, false);
    // Traced last (BENCH_TRACE): one more load of the app in a new tab.
    if (process.env.BENCH_TRACE) await inNewTab(page, (tab) => traced(tab, 'open-new-tab', () => appOpen(tab, launchUrl, 'new tab, traced')));
    const figure = (name: string, r: typeof reloads, how: string) =>
      against(name, median(r.app.map((x) => x.firstRows)), 'ms', { limit: median(r.bare.map((x) => x.navToRead)), limitName: `bare page${how}: navigation → same rows read` }, COLD_OPEN_TARGET, coldOpenMet, `medians of ${runs} loads each, alternating, a profile on disk${how}; the list showed ${r.app[0]!.setsize} rows; the app's list box at ${median(r.app.map((x) => x.shell)).toFixed(0)} ms; bare read alone ${median(r.bare.map((x) => x.read)).toFixed(1)} ms; each load, app / bare (ms): ${eachLoad(r.app, r.bare)}`);
    return [
      figure('cold open, a profile on disk: navigation → first rows painted', reloads, ''),
      floorFigure('cold open floor, a React page, a profile on disk: navigation → first rows painted', reloads.floor, reloads.bare, median(reloads.app.map((x) => x.firstRows)), ', a profile on disk'),
      figure('cold open, a profile on disk, in a new tab: navigation → first rows painted', tabs, ', each page in a new tab'),
      floorFigure('cold open floor, a React page, a profile on disk, in a new tab: navigation → first rows painted', tabs.floor, tabs.bare, median(tabs.app.map((x) => x.firstRows)), ', a profile on disk, each page in a new tab'),
    ];
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
