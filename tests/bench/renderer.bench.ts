// npm run bench:renderer — the conversation list with 10,000 conversations in the cache, in
// Chromium, web mode: time from opening the app to the first rows painted from the cache,
// scrolling through the whole list (frame times from requestAnimationFrame timestamps, long tasks
// from PerformanceObserver), and triage from the cache: from pressing `e` on a row to the frame
// after it left the list (the action applied and queued; the service is stopped, so it stays
// queued). Prints the figures; asserts nothing (numbers depend on the machine).
import { chromium } from '@playwright/test';
import type { Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runWebMode } from '../../main/web/cli';
import { chromiumPath } from '../../playwright.config';
import { startService } from '../../scripts/lib/service-process';
import { seedConversations } from './seed-cache';

const ROWS = 10_000;
const OPEN_RUNS = 5;
const SCROLL_PX_PER_FRAME = 600;
const RESOLVE_RUNS = 20;

const root = resolve(import.meta.dirname, '../..');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const round = (n: number) => Math.round(n * 10) / 10;

/** Installed before any app script: notes when the first list row is painted. */
const FIRST_PAINT_PROBE = `
  // tsx compiles this script with esbuild's keepNames, which wraps functions passed to
  // page.evaluate in a __name() helper the page does not have.
  globalThis.__name = globalThis.__name || ((f) => f);
  window.__bench = { firstRows: undefined, fullList: undefined, shell: undefined, firstSetsize: undefined };
  new MutationObserver((_m, obs) => {
    if (window.__bench.shell === undefined && document.querySelector('[role="listbox"]')) window.__bench.shell = performance.now();
    const first = document.querySelector('[role="listbox"] [role="option"]');
    if (!first || window.__bench.firstRows !== undefined) return;
    // The frame after the rows are in the DOM is the one that paints them.
    requestAnimationFrame(() => { window.__bench.firstRows = performance.now(); });
    window.__bench.firstSetsize = Number(first.getAttribute('aria-setsize'));
    obs.disconnect();
    // The whole view is in once the list's status line counts it.
    const full = () => /[0-9]+ conversations/.test(document.querySelector('.list-status')?.textContent ?? '') ? (window.__bench.fullList = performance.now()) : requestAnimationFrame(full);
    requestAnimationFrame(full);
  }).observe(document, { childList: true, subtree: true });
`;

async function timeToFirstRows(page: Page, url: string) {
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __bench: { fullList?: number } }).__bench.fullList !== undefined, undefined, { timeout: 60_000 });
  return page.evaluate(() => {
    const b = (window as unknown as { __bench: { firstRows: number; fullList?: number; shell: number; firstSetsize: number } }).__bench;
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return { firstRows: b.firstRows, fullList: b.fullList, shell: b.shell, firstSetsize: b.firstSetsize, domContentLoaded: nav?.domContentLoadedEventEnd ?? 0, setsize: Number(document.querySelector('[role="option"]')?.getAttribute('aria-setsize')) };
  });
}

async function scrollThrough(page: Page) {
  return page.evaluate(async (step) => {
    const list = document.querySelector('[role="listbox"][data-virtual-scroller]') as HTMLElement;
    const longTasks: number[] = [];
    const observer = new PerformanceObserver((entries) => entries.getEntries().forEach((e) => longTasks.push(e.duration)));
    observer.observe({ type: 'longtask', buffered: false });
    const frames: number[] = [];
    let maxRowsInDom = 0;
    await new Promise<void>((done) => {
      let last = 0;
      const tick = (t: number) => {
        if (last) frames.push(t - last);
        last = t;
        maxRowsInDom = Math.max(maxRowsInDom, list.querySelectorAll('[role="option"]').length);
        if (list.scrollTop + list.clientHeight >= list.scrollHeight - 1) return done();
        list.scrollTop += step;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await new Promise((r) => setTimeout(r, 200));
    observer.disconnect();
    const lastRow = list.querySelector('[role="option"]:last-of-type')?.getAttribute('aria-posinset');
    return { frames, longTasks, maxRowsInDom, scrolledPx: list.scrollTop, lastRow: Number(lastRow) };
  }, SCROLL_PX_PER_FRAME);
}

/** Presses `e` on the highlighted row, RESOLVE_RUNS times: keydown → the frame after the row left the list. */
async function resolveLatency(page: Page) {
  await page.getByRole('listbox', { name: /conversations/ }).focus();
  await page.keyboard.press('j');
  const times: number[] = [];
  for (let i = 0; i < RESOLVE_RUNS; i++) {
    const id = await page.locator('#conversation-listbox [role="option"][aria-selected="true"]').getAttribute('data-conversation-id');
    await page.evaluate((rowId) => {
      const t: { down?: number; gone?: number } = {};
      (window as unknown as { __resolve: typeof t }).__resolve = t;
      window.addEventListener('keydown', () => (t.down = performance.now()), { capture: true, once: true });
      const list = document.querySelector('#conversation-listbox')!;
      const obs = new MutationObserver(() => {
        if (list.querySelector(`[data-conversation-id="${rowId}"]`)) return;
        obs.disconnect();
        requestAnimationFrame(() => (t.gone = performance.now()));
      });
      obs.observe(list, { childList: true, subtree: true });
    }, id);
    await page.keyboard.press('e');
    await page.waitForFunction(() => (window as unknown as { __resolve: { gone?: number } }).__resolve.gone !== undefined, undefined, { timeout: 30_000 });
    times.push(await page.evaluate(() => {
      const t = (window as unknown as { __resolve: { down: number; gone: number } }).__resolve;
      return t.gone - t.down;
    }));
  }
  const queued = await page.evaluate(async () => {
    const name = (await indexedDB.databases()).find((d) => d.name?.startsWith('inbox:'))!.name!;
    const db = await new Promise<IDBDatabase>((ok) => {
      const req = indexedDB.open(name);
      req.onsuccess = () => ok(req.result);
    });
    const n = await new Promise<number>((ok) => {
      const req = db.transaction('outbox').objectStore('outbox').count();
      req.onsuccess = () => ok(req.result);
    });
    db.close();
    return n;
  });
  return { times, queued };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  const service = await startService({ db: ':memory:', demo: true, credentialsOut: join(dir, 'credentials.json'), quiet: true });
  const host = await runWebMode({ staticDir: join(root, 'dist/renderer'), signIn: { baseUrl: service.credentials!.baseUrl, accessToken: service.credentials!.agentToken } });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(FIRST_PAINT_PROBE);
    await page.goto(host.url);
    const appUrl = page.url();
    await page.getByRole('listbox', { name: /conversations/ }).waitFor();
    // Measure the cache alone: with the service gone, nothing but IndexedDB feeds the list
    // (and no revalidation reconciles the synthetic rows away).
    await service.stop();
    await seedConversations(page, ROWS);

    const opens = [];
    for (let i = 0; i < OPEN_RUNS; i++) opens.push(await timeToFirstRows(page, appUrl));
    const scroll = await scrollThrough(page);
    const resolve = await resolveLatency(page);

    const frames = scroll.frames;
    const result = {
      rows: ROWS,
      open: {
        runs: OPEN_RUNS,
        firstRowsPaintedMs: { median: round(median(opens.map((o) => o.firstRows))), min: round(Math.min(...opens.map((o) => o.firstRows))), max: round(Math.max(...opens.map((o) => o.firstRows))) },
        domContentLoadedMs: round(median(opens.map((o) => o.domContentLoaded))),
        shellPaintedMs: round(median(opens.map((o) => o.shell))),
        wholeViewReadMs: round(median(opens.map((o) => o.fullList ?? NaN))),
        rowsInFirstPaint: median(opens.map((o) => o.firstSetsize)),
        listSizeShown: opens[0]!.setsize,
      },
      scroll: {
        pxPerFrame: SCROLL_PX_PER_FRAME,
        scrolledPx: scroll.scrolledPx,
        reachedRow: scroll.lastRow,
        frames: frames.length,
        avgFrameMs: round(frames.reduce((a, b) => a + b, 0) / frames.length),
        p95FrameMs: round(pct(frames, 95)),
        maxFrameMs: round(Math.max(...frames)),
        framesOver50Ms: frames.filter((f) => f > 50).length,
        longTasks: scroll.longTasks.length,
        longTaskTotalMs: round(scroll.longTasks.reduce((a, b) => a + b, 0)),
        maxRowsInDom: scroll.maxRowsInDom,
      },
      resolveFromCache: {
        runs: RESOLVE_RUNS,
        keyToRowGoneMs: { median: round(median(resolve.times)), p95: round(pct(resolve.times, 95)), max: round(Math.max(...resolve.times)) },
        queuedInOutbox: resolve.queued,
      },
    };
    console.log(`\nRenderer benchmark: ${ROWS} conversations in IndexedDB, Chromium ${browser.version()}, web mode, service stopped`);
    console.log(`  open → first rows painted from cache: median ${result.open.firstRowsPaintedMs.median} ms (min ${result.open.firstRowsPaintedMs.min}, max ${result.open.firstRowsPaintedMs.max}; ${OPEN_RUNS} reloads)`);
    console.log(`    DOMContentLoaded ${result.open.domContentLoadedMs} ms, app shell ${result.open.shellPaintedMs} ms, first paint held ${result.open.rowsInFirstPaint} rows, whole view (${result.open.listSizeShown}) read ${result.open.wholeViewReadMs} ms (medians)`);
    console.log(`  scroll through all rows (${SCROLL_PX_PER_FRAME} px/frame, ${result.scroll.scrolledPx} px, reached row ${result.scroll.reachedRow}): ${result.scroll.frames} frames, avg ${result.scroll.avgFrameMs} ms, p95 ${result.scroll.p95FrameMs} ms, max ${result.scroll.maxFrameMs} ms, ${result.scroll.framesOver50Ms} frames > 50 ms`);
    console.log(`  long tasks while scrolling: ${result.scroll.longTasks} (total ${result.scroll.longTaskTotalMs} ms); at most ${result.scroll.maxRowsInDom} rows in the DOM`);
    console.log(`  e (resolve) → row gone from the list, ${RESOLVE_RUNS} times: median ${result.resolveFromCache.keyToRowGoneMs.median} ms, p95 ${result.resolveFromCache.keyToRowGoneMs.p95} ms, max ${result.resolveFromCache.keyToRowGoneMs.max} ms; ${resolve.queued} actions queued in the outbox`);
    const out = join(root, 'test-results/bench');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'renderer.json'), JSON.stringify(result, null, 2));
  } finally {
    await browser.close();
    await host.close();
    await service.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
