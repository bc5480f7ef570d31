// The heights thread items (messages, day dividers, the start) had when last laid out, kept when
// their conversation closes: opened again, its message list starts from the heights it had, so the
// virtualizer's first render with the messages already places them right and measuring them changes
// nothing (no second render and layout, no scroll correction: issue 14, switching back and forth).
// Each is kept with the width of the pane it was laid out in. At that same width it is taken as the
// item's measurement when it mounts (`heightAt`), so the switch's commit reads no layout for it; at
// another it is only the first guess, and the item is measured (text wraps differently).
// Every rendered item is still watched by the virtualizer's ResizeObserver (an edited message).
// Keyed by the items' keys, which carry message ids; bounded, most recently kept last. No text.
const KEPT = 3_000;
const heights = new Map<string, { height: number; width: number }>();

/** The height an item had when last measured, if known (at whatever width). */
export const knownHeight = (key: string): number | undefined => heights.get(key)?.height;

/** The height an item had when last measured in a pane `width` wide, if that is what is known. */
export function heightAt(key: string, width: number): number | undefined {
  const kept = heights.get(key);
  return kept && width > 0 && kept.width === width ? kept.height : undefined;
}

/** Keeps the measured heights of a thread that is closing (the virtualizer's size cache), laid out `width` wide. */
export function keepHeights(measured: ReadonlyMap<string | number | bigint, number>, width: number): void {
  for (const [key, height] of measured) {
    heights.delete(String(key));
    heights.set(String(key), { height, width });
  }
  while (heights.size > KEPT) heights.delete(heights.keys().next().value!);
}
