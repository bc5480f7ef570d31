// The floors under the triage keys: keys on pages with nothing of the app's code, each in a tab of
// its own (its own browser context), measured with the same probe in the same run.
// - The bare key page (bare-read.ts, mode=keys: 60 plain rows; `e` removes one, after working
//   `busyMs`): what this method reads for a key that does nothing else, or that much.
// - A copy of the app's own page (its DOM and styles as they stand after the measured triage
//   rounds, scripts left out), whose `e` handler works `busyMs` and then makes by hand the DOM
//   changes the app's resolve makes (below): what this method reads for that change on that page,
//   with no React, no cache and no other task of the app's beside it. The app's resolve key does
//   its own work (4-6 ms before its change, bench/README.md) and then the same change.
import type { Page } from '@playwright/test';
import { rendererSchedMeter, schedWords } from '../../scripts/bench/cpu';
import { bareKeysPage } from './bare-read';
import { arm, inPageOf, measured, PROBES, tickOf } from './page-probes';
import { traced } from './trace';

export interface KeyTimes {
  times: number[];
  inPage: number[];
  /** Each key's frame's tick, ms from the key (page-probes.ts, `tickOf`). */
  ticks: number[];
  sched: string;
}

/**
 * `samples` keys (`e`) in a tab of its own, each after `idleMs` of quiet: `open` loads the page,
 * `gone` names (for key i) the element whose removal ends the measurement.
 */
async function keysInTab(page: Page, samples: number, idleMs: number, open: (tab: Page) => Promise<void>, gone: (tab: Page, i: number) => Promise<string>, traceName?: string): Promise<KeyTimes> {
  const tab = await page.context().browser()!.newPage({ viewport: page.viewportSize() ?? { width: 1280, height: 800 } });
  try {
    await tab.addInitScript(PROBES);
    await open(tab);
    // Key i, after the quiet: what the probe read.
    const key = async (i: number) => {
      await arm(tab, 'keydown', { selector: await gone(tab, i), present: false });
      if (idleMs) await tab.waitForTimeout(idleMs);
      await tab.keyboard.press('e');
      return measured(tab);
    };
    const times: number[] = [];
    const inPage: number[] = [];
    const ticks: number[] = [];
    const meter = rendererSchedMeter();
    for (let i = 0; i < samples; i++) {
      times.push(await key(i));
      inPage.push(await inPageOf(tab));
      ticks.push(await tickOf(tab));
    }
    const sched = schedWords(meter.stop());
    // With BENCH_TRACE: BENCH_TRACE_ROUNDS keys more, not counted, traced (beside the app's own traced rounds).
    if (traceName && process.env.BENCH_TRACE) {
      await traced(tab, traceName, async () => {
        for (let i = 0; i < Number(process.env.BENCH_TRACE_ROUNDS || 1); i++) await key(samples + i);
      });
    }
    return { times, inPage, ticks, sched };
  } finally {
    await tab.close();
  }
}

/** The bare key page's key → frame without the row, `samples` times (at most 59). */
export function bareKeys(page: Page, origin: string, samples: number, idleMs: number, busyMs = 0): Promise<KeyTimes> {
  return keysInTab(page, Math.min(samples, 59), idleMs, (tab) => bareKeysPage(tab, origin, busyMs), async (_tab, i) => `#r${i}`);
}

/** The app's page as it stands, its scripts left out; each scrolled element says how far (`data-copy-scroll`). */
export function appPageCopy(page: Page): Promise<string> {
  return page.evaluate(() => {
    const doc = document.documentElement.cloneNode(true) as HTMLElement;
    // A copy keeps no scroll position: the list, scrolled down by the scenarios before, would show
    // its first rows and the key's change would be out of sight (and not painted). The clone's
    // elements are in the same order as the page's.
    const originals = document.documentElement.querySelectorAll('*');
    const copies = doc.querySelectorAll('*');
    originals.forEach((el, i) => {
      if (el.scrollTop || el.scrollLeft) copies[i]!.setAttribute('data-copy-scroll', `${el.scrollTop},${el.scrollLeft}`);
    });
    // Any policy in the document too: the copy is written into a document the host did not send it with.
    for (const el of doc.querySelectorAll('script, link[rel="modulepreload"], link[rel="preload"], meta[http-equiv]')) el.remove();
    return `<!doctype html>${doc.outerHTML}`;
  });
}

/**
 * In the copy: `e` works BUSY ms, then changes the list as the app's resolve does (React's commit
 * for it, read from a resolve's DOM changes): the cursor's row is removed, every row under it
 * moves up one row (its transform) and its place in the set goes down one, a row comes in at the
 * bottom, every row's set size and the list's height shrink by one, the status line counts one
 * fewer, and the cursor's marks move to the row that took its place.
 */
const COPY_KEYS = (busyMs: number) => `
(() => {
  const list = document.getElementById('conversation-listbox');
  const inner = list.firstElementChild;
  const status = document.querySelector('.list-status');
  const y = (el) => Number(/translateY\\(([-0-9.]+)px\\)/.exec(el.style.transform)?.[1] ?? 0);
  let serial = 0;
  // The keyboard's focus on the list, as in the app while it triages (the cursor's row outlined).
  list.focus();
  addEventListener('keydown', (e) => {
    if (e.key !== 'e') return;
    // As the app's shortcuts do: a key taken by a handler sends no keypress (whose default action
    // brought style and layout up to date in the key's task, traced).
    e.preventDefault();
    for (const end = performance.now() + ${busyMs}; performance.now() < end; );
    const rows = [...inner.children].sort((a, b) => y(a) - y(b));
    const active = inner.querySelector('.active') ?? rows[0];
    const at = y(active);
    const h = parseFloat(active.style.height);
    const size = Number(active.getAttribute('aria-setsize')) - 1;
    const last = rows[rows.length - 1];
    const added = last.cloneNode(true);
    serial++;
    added.id = 'copy-row-' + serial;
    added.setAttribute('data-conversation-id', String(-serial));
    added.classList.remove('active', 'open');
    added.setAttribute('aria-selected', 'false');
    const next = rows.find((r) => y(r) > at);
    for (const r of rows) {
      if (y(r) <= at) continue;
      r.style.transform = 'translateY(' + (y(r) - h) + 'px)';
      r.setAttribute('aria-posinset', String(Number(r.getAttribute('aria-posinset')) - 1));
    }
    active.remove();
    inner.append(added);
    for (const r of inner.children) r.setAttribute('aria-setsize', String(size));
    inner.style.height = parseFloat(inner.style.height) - h + 'px';
    status.firstChild.textContent = size + ' conversations';
    if (next) {
      next.classList.add('active');
      next.setAttribute('aria-selected', 'true');
      list.setAttribute('aria-activedescendant', next.id);
    }
  });
})();
`;

/** The copy's key → frame without the cursor's row, `samples` times. */
export function copyKeys(page: Page, origin: string, html: string, samples: number, idleMs: number, busyMs: number): Promise<KeyTimes> {
  return keysInTab(
    page,
    samples,
    idleMs,
    async (tab) => {
      // A document of the app's origin first (a path beside index.html the host does not serve: its 404),
      // then the copy written into it: a document of no origin may not load the styles from
      // loopback (Chromium's private network rules), and the probes go into each new document.
      await tab.goto(`${origin}/__bench-copy`);
      await tab.setContent(html, { waitUntil: 'load' });
      // The copy must look as the app did: its styles applied (the list's scroller is laid out as the app's).
      const styled = await tab.evaluate(() => getComputedStyle(document.querySelector('.row')!).position === 'absolute');
      if (!styled) throw new Error("the copy of the app's page has not the app's styles");
      // Scrolled as the app's page was, its cursor's row in sight (else the copy measures nothing painted).
      const inSight = await tab.evaluate(() => {
        for (const el of document.querySelectorAll<HTMLElement>('[data-copy-scroll]')) {
          const [top, left] = el.dataset.copyScroll!.split(',').map(Number);
          el.scrollTop = top!;
          el.scrollLeft = left!;
          el.removeAttribute('data-copy-scroll');
        }
        const list = document.getElementById('conversation-listbox')!.getBoundingClientRect();
        const row = document.querySelector('#conversation-listbox .active')?.getBoundingClientRect();
        return !!row && row.top >= list.top && row.bottom <= list.bottom;
      });
      if (!inSight) throw new Error("the copy of the app's page does not show its cursor's row");
      await tab.evaluate(COPY_KEYS(busyMs));
    },
    async (tab) => {
      const id = await tab.evaluate(() => document.querySelector('#conversation-listbox .active')?.getAttribute('data-conversation-id'));
      if (!id) throw new Error('the copy of the page has no cursor row');
      return `#conversation-listbox [data-conversation-id="${id}"]`;
    },
    'triage-copy',
  );
}
