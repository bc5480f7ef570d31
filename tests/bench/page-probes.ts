// What the benchmark installs in the page before any app script, and the Node side that drives it.
//
// - A measurement runs from an input event (its `timeStamp`, when the browser took it in) or from a
//   moment Node names, to the end of the first frame that shows a condition on the DOM: the
//   condition is checked on every mutation, then a frame is awaited and a message posted from it,
//   which runs once that frame's style, layout and paint are done. The frame's own time (its
//   animation frame's timestamp: the compositor tick it was made for) is kept too: a frame is
//   usually made for the tick under way when the page asks for one, or the next one a moment
//   later; a tick more than half a frame after the event means the page's frame waited for a whole
//   tick (bench/README.md, thirty-eighth stop).
// - A frame recorder: the longest gap between animation frames and the longest long animation frame
//   (PerformanceObserver `long-animation-frame`, which includes style and layout) while it runs.
// - First paint of the list: when the first row is in the DOM (and the frame after it), and when
//   the whole view is in (the status line counts it).
import type { Page } from '@playwright/test';

export interface Condition {
  selector: string;
  /** false: done when nothing matches. */
  present: boolean;
  /** Done when an element matching `selector` contains this text. */
  text?: string;
}

export const PROBES = `
  // tsx compiles the benchmark with esbuild's keepNames, which wraps functions passed to
  // page.evaluate in a __name() helper the page does not have.
  globalThis.__name = globalThis.__name || ((f) => f);
  (() => {
    const afterFrame = (done, begun) => requestAnimationFrame((tick) => {
      if (begun) begun(tick);
      const ch = new MessageChannel();
      ch.port1.onmessage = () => done(performance.now());
      ch.port2.postMessage(0);
    });
    const holds = (c) => {
      if (!c.present) return !document.querySelector(c.selector);
      const all = document.querySelectorAll(c.selector);
      if (c.text === undefined) return all.length > 0;
      for (const el of all) if ((el.textContent || '').includes(c.text)) return true;
      return false;
    };
    const bench = {
      firstRows: undefined, fullList: undefined, shell: undefined,
      m: undefined,
      /** The next event of this type starts it; the first frame showing the condition ends it. */
      arm(eventType, cond) {
        const m = { start: undefined, inPage: undefined, tick: undefined, end: undefined };
        bench.m = m;
        if (eventType) addEventListener(eventType, (e) => { m.start = e.timeStamp; }, { capture: true, once: true });
        else m.start = performance.now();
        let seen = false;
        const check = () => {
          if (seen || m.start === undefined || !holds(cond)) return;
          seen = true;
          m.inPage = performance.now();
          obs.disconnect();
          afterFrame((t) => { m.end = t; }, (tick) => { m.tick = tick; });
        };
        const obs = new MutationObserver(check);
        obs.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
        if (!eventType) check();
      },
      frames: {
        running: false, maxGap: 0, maxLoaf: 0, count: 0, observer: undefined, parts: '', t0: 0,
        // The longest frame, and what it was made of: its scripts (the longest three, by what
        // invoked them), then style and layout, then the rest (paint, and what the page cannot name).
        loaf(e) {
          const f = bench.frames;
          if (e.duration <= f.maxLoaf) return;
          f.maxLoaf = e.duration;
          const scripts = [...(e.scripts || [])].sort((a, b) => b.duration - a.duration).slice(0, 3)
            .map((s) => (s.invoker || s.invokerType) + ' ' + s.duration.toFixed(0) + ' ms (of it forced style and layout ' + (s.forcedStyleAndLayoutDuration || 0).toFixed(0) + ')');
          const from = (t) => (t ? t - e.startTime : 0).toFixed(0);
          f.parts = e.duration.toFixed(0) + ' ms, ' + (e.startTime - f.t0).toFixed(0) + ' ms after the start: scripts ' + (scripts.join(', ') || 'none') + '; rendering from ' + from(e.renderStart) + ' ms, style and layout from ' + from(e.styleAndLayoutStart) + ' ms to the end';
        },
        start() {
          const f = bench.frames;
          f.running = true; f.maxGap = 0; f.maxLoaf = 0; f.count = 0; f.parts = ''; f.t0 = performance.now();
          let last = 0;
          const tick = (t) => {
            if (!f.running) return;
            if (last) f.maxGap = Math.max(f.maxGap, t - last);
            last = t; f.count++;
            requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
          try {
            f.observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) f.loaf(e); });
            f.observer.observe({ type: 'long-animation-frame', buffered: false });
          } catch { f.observer = undefined; }
        },
        stop() {
          const f = bench.frames;
          f.running = false;
          if (f.observer) { for (const e of f.observer.takeRecords()) f.loaf(e); f.observer.disconnect(); }
          return { maxGap: f.maxGap, maxLoaf: f.maxLoaf, frames: f.count, slowestParts: f.parts };
        },
      },
    };
    window.__bench = bench;
    new MutationObserver((_m, obs) => {
      if (bench.shell === undefined && document.querySelector('[role="listbox"]')) bench.shell = performance.now();
      if (!document.querySelector('[role="listbox"] [role="option"]') || bench.firstRows !== undefined) return;
      bench.firstRows = null;
      // Marked for BENCH_LOADDETAIL (scenarios/open.ts): the first rows in the page, and the frame
      // that shows them begun; the first rows' figure is the first task after that frame, so a task
      // a page queued before it (React's passive effects) is counted in it too.
      performance.mark('probe:options');
      requestAnimationFrame(() => performance.mark('probe:raf'));
      afterFrame((t) => { bench.firstRows = t; });
      obs.disconnect();
      const full = () => /[0-9]+ conversations/.test(document.querySelector('.list-status')?.textContent ?? '') ? afterFrame((t) => { bench.fullList = t; console.debug('bench:fullList'); }) : requestAnimationFrame(full);
      requestAnimationFrame(full);
    }).observe(document, { childList: true, subtree: true });
  })();
`;

/**
 * `inPage`: when the condition first held in the DOM (the frame showing it came after); `tick`: that
 * frame's own time (its animation frame's timestamp).
 */
type Measured = { start?: number; inPage?: number; tick?: number; end?: number };
declare global {
  interface Window {
    __bench: {
      firstRows?: number | null;
      fullList?: number;
      shell?: number;
      m?: Measured;
      arm(eventType: string | undefined, cond: Condition): void;
      frames: { start(): void; stop(): { maxGap: number; maxLoaf: number; frames: number; slowestParts: string } };
    };
  }
}

/** Arms a measurement for the next `eventType` (or from now, with none). */
export const arm = (page: Page, eventType: string | undefined, cond: Condition) => page.evaluate(([type, c]) => window.__bench.arm(type ?? undefined, c), [eventType ?? null, cond] as const);

/** Milliseconds from the armed event to the end of the first frame showing the condition. */
export async function measured(page: Page, timeout = 60_000): Promise<number> {
  await page.waitForFunction(() => window.__bench.m?.end !== undefined, undefined, { timeout, polling: 20 });
  return page.evaluate(() => window.__bench.m!.end! - window.__bench.m!.start!);
}

/**
 * Of the last measurement, the milliseconds from the armed event to the change being in the page
 * (before the frame that shows it): the page's own work for it, apart from the wait for and the
 * work of that frame.
 */
export const inPageOf = (page: Page): Promise<number> => page.evaluate(() => window.__bench.m!.inPage! - window.__bench.m!.start!);

/**
 * Of the last measurement, the time of the frame that showed it (the compositor tick it was made
 * for), in milliseconds from the armed event: at or below 0, the tick under way when the page asked
 * for a frame; a few milliseconds above, the next tick; more than half a frame above, the page's
 * frame waited for a whole tick (bench/README.md, thirty-eighth stop).
 */
export const tickOf = (page: Page): Promise<number> => page.evaluate(() => window.__bench.m!.tick! - window.__bench.m!.start!);

/** When the armed condition showed, as epoch milliseconds (to compare with a Node clock). */
export async function shownAtEpoch(page: Page, timeout = 30_000): Promise<number> {
  await page.waitForFunction(() => window.__bench.m?.end !== undefined, undefined, { timeout, polling: 20 });
  return page.evaluate(() => performance.timeOrigin + window.__bench.m!.end!);
}

/** The page's frame interval when idle: the median gap between animation frames over `n` frames. */
export function frameInterval(page: Page, n = 120): Promise<number> {
  return page.evaluate(
    (count) =>
      new Promise<number>((done) => {
        const gaps: number[] = [];
        let last = 0;
        const tick = (t: number) => {
          if (last) gaps.push(t - last);
          last = t;
          if (gaps.length >= count) return done(gaps.sort((a, b) => a - b)[Math.floor(gaps.length / 2)]!);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    n,
  );
}

/** Node's clock as the page's epoch milliseconds (performance.timeOrigin + now on both sides). */
export const epochNow = () => performance.timeOrigin + performance.now();
