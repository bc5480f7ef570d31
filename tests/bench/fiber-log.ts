// Optional (BENCH_FIBERS=1): which React components rendered in each commit after a triage key or
// a switch's click, for finding why its task is long. A stand-in for React DevTools' global hook,
// installed before the app loads: React calls it on every commit, and a component counts as rendered
// when its props or state object is not the one the last commit left. Names are the build's: run it
// on an unminified build (`npx vite build --minify false`, then `--no-build`) to read them. Nothing
// in a figure depends on it; without BENCH_FIBERS nothing is installed.
import type { Page } from '@playwright/test';

export const FIBER_LOG = `
(() => {
  const seen = new WeakMap();
  const nameOf = (f) => {
    const t = f.type;
    if (!t || typeof t === 'string') return null;
    return t.displayName || t.name || (t.type && (t.type.displayName || t.type.name)) || (t.render && (t.render.displayName || t.render.name)) || null;
  };
  window.__fibers = { on: false, log: [] };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject(renderer) { this.renderers.set(1, renderer); return 1; },
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
    onCommitFiberRoot(_id, root) {
      const counts = {};
      let n = 0;
      const walk = (f) => {
        for (; f; f = f.sibling) {
          const name = nameOf(f);
          if (name) {
            const last = seen.get(f) || (f.alternate && seen.get(f.alternate)) || {};
            seen.set(f, last);
            if (f.alternate) seen.set(f.alternate, last);
            if (last.p !== f.memoizedProps || last.s !== f.memoizedState) {
              counts[name] = (counts[name] || 0) + 1;
              n++;
              last.p = f.memoizedProps;
              last.s = f.memoizedState;
            }
          }
          if (f.child) walk(f.child);
        }
      };
      walk(root.current.child);
      if (window.__fibers.on) window.__fibers.log.push({ t: performance.now(), n, counts });
    },
  };
})();`;

interface FiberCommit {
  t: number;
  n: number;
  counts: Record<string, number>;
}
declare global {
  interface Window {
    __fibers?: { on: boolean; log: FiberCommit[] };
  }
}

export const fiberLogOn = () => Boolean(process.env.BENCH_FIBERS);

/** Starts recording commits (before the key). */
export async function fibersFrom(page: Page) {
  if (!fiberLogOn()) return;
  await page.evaluate(() => {
    window.__fibers!.log.length = 0;
    window.__fibers!.on = true;
  });
}

/** Stops 150 ms later and prints each commit: when, how many components rendered, the most frequent. */
export async function fibersPrint(page: Page, what: string) {
  if (!fiberLogOn()) return;
  await page.waitForTimeout(150);
  const log = await page.evaluate(() => {
    window.__fibers!.on = false;
    return window.__fibers!.log;
  });
  const t0 = log[0]?.t ?? 0;
  console.error(`${what}:`);
  for (const c of log) {
    const most = Object.entries(c.counts).sort((a, b) => b[1] - a[1]).slice(0, 14);
    console.error(`  +${(c.t - t0).toFixed(1)} ms, ${c.n} components: ${most.map(([k, v]) => `${k}×${v}`).join(' ')}`);
  }
}
