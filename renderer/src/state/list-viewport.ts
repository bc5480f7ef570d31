// The conversation list's viewport (its scroller's size), remembered on this computer across opens.
//
// The virtualizer decides which rows to render from the scroller's size, which it reads only once
// the list is in the page (a layout effect). Until then it assumes 0 × 0 and renders no rows in
// sight, so a cold open rendered the list twice before its first frame: once without rows, then,
// after a forced layout, again with them, flushed at once, which also ran every passive effect of
// the first render before that frame (a trace: 9 ms of the 24 ms render task, issue 14). The
// window, and so the list, is almost always the size it was when the app was last open: starting
// from that size, the first render already has the rows in sight, and the measurement finds the
// same rows and renders nothing again. A different size only costs the second render, as before.
import type { Rect } from '@tanstack/react-virtual';

const KEY = 'inbox.listViewport';
/** No scroller is taller or wider than this (a value past it was not written by this module). */
const MAX = 100_000;

const valid = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0 && n <= MAX;

/** The size last remembered, or 0 × 0 (the virtualizer's own default) when none or not readable. */
export function rememberedListViewport(): Rect {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? 'null') as { width?: unknown; height?: unknown } | null;
    if (stored && valid(stored.width) && valid(stored.height)) return { width: stored.width, height: stored.height };
  } catch {
    // Not JSON: written by something else; start from nothing.
  }
  return { width: 0, height: 0 };
}

/** Remembers a measured size (a hidden list, 0 tall, is not remembered); writes only when it changed. */
export function rememberListViewport(rect: Rect): void {
  if (!valid(rect.width) || !valid(rect.height)) return;
  const text = JSON.stringify({ width: rect.width, height: rect.height });
  try {
    if (localStorage.getItem(KEY) !== text) localStorage.setItem(KEY, text);
  } catch {
    // Storage full or refused: the next open measures, as it did before.
  }
}
