// The heights thread items (messages, day dividers, the start) had when last laid out, kept when
// their conversation closes: opened again, its message list starts from the heights it had, so the
// virtualizer's first render with the messages already places them right and measuring them changes
// nothing (no second render and layout, no scroll correction: issue 14, switching back and forth).
// Only an estimate: every rendered item is still measured (a resized pane, an edited message).
// Keyed by the items' keys, which carry message ids; bounded, most recently kept last. No text.
const KEPT = 3_000;
const heights = new Map<string, number>();

/** The height an item had when last measured, if known. */
export const knownHeight = (key: string): number | undefined => heights.get(key);

/** Keeps the measured heights of a thread that is closing (the virtualizer's size cache). */
export function keepHeights(measured: ReadonlyMap<string | number | bigint, number>): void {
  for (const [key, height] of measured) {
    heights.delete(String(key));
    heights.set(String(key), height);
  }
  while (heights.size > KEPT) heights.delete(heights.keys().next().value!);
}
