// The main window's size and place, remembered between launches. Pure: the Electron glue passes
// the displays' work areas in and applies what comes out, so clamping is tested without a screen.
import { z } from 'zod';
import type { PendingWork } from '../pending-work';
import type { Logger } from '../redact';
import { jsonFileStore } from '../storage/json-file';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const finite = z.number().finite();
export const windowStateSchema = z.object({
  bounds: z.object({ x: finite, y: finite, width: finite.positive(), height: finite.positive() }),
  maximized: z.boolean().default(false),
  fullScreen: z.boolean().default(false),
});
export type WindowState = z.infer<typeof windowStateSchema>;

export const WINDOW_DEFAULTS = { width: 1280, height: 820, minWidth: 720, minHeight: 480 };
/** How much of the window must be on a display for it to count as visible (enough to grab the title bar). */
export const MIN_VISIBLE = { width: 120, height: 48 };

const overlap = (a: Rect, b: Rect) => ({
  width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
  height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
});

const centredIn = (area: Rect, width: number, height: number): Rect => ({
  x: Math.round(area.x + (area.width - width) / 2),
  y: Math.round(area.y + (area.height - height) / 2),
  width,
  height,
});

/**
 * Where to open the window. `workAreas` are the displays' work areas, the primary first. Saved
 * bounds that are still visible are kept, shrunk to fit their display and moved fully onto it;
 * bounds on a display that is gone are centred on the primary one, keeping their size if it fits.
 */
export function placeWindow(saved: WindowState | undefined, workAreas: readonly Rect[], defaults = WINDOW_DEFAULTS): WindowState {
  const primary = workAreas[0] ?? { x: 0, y: 0, width: defaults.width, height: defaults.height };
  const fit = (area: Rect, width: number, height: number) => ({
    width: Math.round(Math.max(Math.min(width, area.width), Math.min(defaults.minWidth, area.width))),
    height: Math.round(Math.max(Math.min(height, area.height), Math.min(defaults.minHeight, area.height))),
  });
  if (!saved) {
    const size = fit(primary, defaults.width, defaults.height);
    return { bounds: centredIn(primary, size.width, size.height), maximized: false, fullScreen: false };
  }
  const b = saved.bounds;
  // The display holding the largest part of the window, if any holds enough of it.
  let best: { area: Rect; size: number } | undefined;
  for (const area of workAreas) {
    const o = overlap(b, area);
    if (o.width >= Math.min(MIN_VISIBLE.width, b.width) && o.height >= Math.min(MIN_VISIBLE.height, b.height) && (!best || o.width * o.height > best.size)) {
      best = { area, size: o.width * o.height };
    }
  }
  if (!best) {
    const size = fit(primary, b.width, b.height);
    return { bounds: centredIn(primary, size.width, size.height), maximized: saved.maximized, fullScreen: false };
  }
  const { area } = best;
  const size = fit(area, b.width, b.height);
  const x = Math.round(Math.min(Math.max(b.x, area.x), area.x + area.width - size.width));
  const y = Math.round(Math.min(Math.max(b.y, area.y), area.y + area.height - size.height));
  return { bounds: { x, y, ...size }, maximized: saved.maximized, fullScreen: saved.fullScreen };
}

export function windowStateFile(file: string, logger: Logger, pending?: PendingWork) {
  const store = jsonFileStore({
    file,
    schema: windowStateSchema.optional(),
    fallback: () => undefined,
    ...(pending ? { pending } : {}),
    onCorrupt: (movedTo) => logger.warn(`The window state file did not parse; kept it as ${movedTo}.`),
  });
  return { read: () => store.read(), write: (state: WindowState) => store.write(state) };
}

/**
 * Saves at most once per `delayMs` while the window moves, and at once on `flush` (close). The
 * glue calls `changed` on resize/move with the window's current state.
 */
export function debouncedSaver(save: (state: WindowState) => Promise<void>, delayMs: number, timer: (ms: number, fire: () => void) => () => void) {
  let latest: WindowState | undefined;
  let cancel: (() => void) | undefined;
  const flush = async () => {
    cancel?.();
    cancel = undefined;
    if (!latest) return;
    const state = latest;
    latest = undefined;
    await save(state);
  };
  return {
    changed(state: WindowState) {
      latest = state;
      cancel ??= timer(delayMs, () => {
        cancel = undefined;
        void flush();
      });
    },
    flush,
  };
}
