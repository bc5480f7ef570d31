// A small seeded random source (mulberry32): the same seed gives the same faults and actions, so a
// failing run can be replayed. Not for anything secret.
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One of `items`, weighted. */
export function pick<T>(random: () => number, items: readonly (readonly [T, number])[]): T {
  const total = items.reduce((n, [, w]) => n + w, 0);
  let r = random() * total;
  for (const [item, w] of items) {
    r -= w;
    if (r < 0) return item;
  }
  return items.at(-1)![0];
}
