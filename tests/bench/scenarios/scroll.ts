// Scrolling the whole list (10,000 conversations from the cache) a fixed distance per frame: frame
// times from animation-frame timestamps, against one frame of the idle page measured first.
import type { Page } from '@playwright/test';
import type { Figure } from '../../../scripts/bench/figures';
import { against, percentile } from '../../../scripts/bench/figures';
import { frameInterval } from '../page-probes';

const PX_PER_FRAME = 600;

export async function benchScroll(page: Page): Promise<Figure[]> {
  const frame = await frameInterval(page);
  const r = await page.evaluate(async (step) => {
    const list = document.querySelector('#conversation-listbox') as HTMLElement;
    list.scrollTop = 0;
    const frames: number[] = [];
    await new Promise<void>((done) => {
      let last = 0;
      const tick = (t: number) => {
        if (last) frames.push(t - last);
        last = t;
        if (list.scrollTop + list.clientHeight >= list.scrollHeight - 1) return done();
        list.scrollTop += step;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const reached = Number(list.querySelector('[role="option"]:last-of-type')?.getAttribute('aria-posinset'));
    list.scrollTop = 0;
    return { frames, reached };
  }, PX_PER_FRAME);
  const note = `${r.frames.length} frames at ${PX_PER_FRAME} px each, to row ${r.reached}; ${r.frames.filter((f) => f > 50).length} frames over 50 ms`;
  return [against('scroll the whole list: frame time, p95', percentile(r.frames, 95), 'ms', { limit: frame, limitName: 'one frame' }, '', () => true, note)].map((f) => ({ ...f, met: null }));
}
