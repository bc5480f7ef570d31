// The sizes of the virtualized scrollers (the conversation list, an open conversation's messages),
// remembered on this computer across opens and switches.
//
// A virtualizer decides which items to render from its scroller's size, which it reads only once
// the scroller is in the page (a layout effect). Until then it assumes 0 × 0 and renders almost
// nothing in sight, so a cold open rendered the list twice before its first frame: once without
// rows, then, after a forced layout, again with them, flushed at once, which also ran every passive
// effect of the first render before that frame (a trace: 9 ms of the 24 ms render task, issue 14).
// An open conversation's message list is a new one on every switch and did the same. The window,
// and so each scroller, is almost always the size it was the last time: starting from that size,
// the first render already has the items in sight, and the measurement finds the same range and
// renders nothing again. A different size only costs the second render, as before.
import type { Rect, Virtualizer } from '@tanstack/react-virtual';
import { observeElementRect } from '@tanstack/react-virtual';

/** Which scroller: the conversation list, or the open conversation's messages. */
export type ViewportName = 'list' | 'thread';

const key = (name: ViewportName) => `inbox.viewport.${name}`;
/** No scroller is taller or wider than this (a value past it was not written by this module). */
const MAX = 100_000;

const valid = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0 && n <= MAX;

/** The size last remembered, or 0 × 0 (the virtualizer's own default) when none or not readable. */
export function rememberedViewport(name: ViewportName): Rect {
  try {
    const stored = JSON.parse(localStorage.getItem(key(name)) ?? 'null') as { width?: unknown; height?: unknown } | null;
    if (stored && valid(stored.width) && valid(stored.height)) return { width: stored.width, height: stored.height };
  } catch {
    // Not JSON: written by something else; start from nothing.
  }
  return { width: 0, height: 0 };
}

/** Remembers a measured size (a hidden scroller, 0 tall, is not remembered); writes only when it changed. */
export function rememberViewport(name: ViewportName, rect: Rect): void {
  if (!valid(rect.width) || !valid(rect.height)) return;
  const text = JSON.stringify({ width: rect.width, height: rect.height });
  try {
    if (localStorage.getItem(key(name)) !== text) localStorage.setItem(key(name), text);
  } catch {
    // Storage full or refused: the next open measures, as it did before.
  }
}

/** The virtualizer's own measurement of its scroller (`observeElementRect`), each size also remembered as `name`. */
export function observeRememberedRect(name: ViewportName) {
  return (instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void) =>
    observeElementRect(instance, (rect) => {
      rememberViewport(name, rect);
      cb(rect);
    });
}
