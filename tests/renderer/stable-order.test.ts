// The list holds still under the agent (conversations/stable-order.ts): the row the cursor is on,
// and the open conversation's, keep their places when their sort position changes; they take the
// new place once the agent leaves them; every other row follows the sort.
import { describe, expect, it } from 'vitest';
import { stableOrder } from '../../renderer/src/conversations/stable-order';

const rows = (...ids: number[]) => ids.map((id) => ({ id }));
const ids = (r: readonly { id: number }[]) => r.map((x) => x.id);

describe('stableOrder', () => {
  const screen = rows(1, 2, 3, 4, 5);
  it('a label on the row under the cursor moves it to the top of the sort: it stays where it is', () => {
    expect(ids(stableOrder(rows(3, 1, 2, 4, 5), screen, [3]))).toEqual([1, 2, 3, 4, 5]);
  });

  it('once the cursor leaves it, it takes its new place; the row the cursor went to stays put', () => {
    // The agent pressed j: cursor on 4, nothing open. 3 goes to the top, 4 keeps its index.
    expect(ids(stableOrder(rows(3, 1, 2, 4, 5), screen, [4]))).toEqual([3, 1, 2, 4, 5]);
    // 4 also moved up in the sort meanwhile: still held at its index while the cursor is on it.
    expect(ids(stableOrder(rows(4, 3, 1, 2, 5), rows(3, 1, 2, 4, 5), [4]))).toEqual([3, 1, 2, 4, 5]);
  });

  it('rows held where the sort puts them anyway: the sort\'s own array, unchanged', () => {
    const sorted = rows(1, 2, 3, 4, 5);
    expect(stableOrder(sorted, screen, [2, 4])).toBe(sorted);
    const moved = rows(3, 1, 2, 4, 5);
    expect(stableOrder(moved, screen, [3])).not.toBe(moved);
  });

  it('the open conversation holds too, and both keep their order relative to each other', () => {
    expect(ids(stableOrder(rows(5, 2, 1, 3, 4), screen, [2, 5]))).toEqual([1, 2, 3, 4, 5]);
    // The cursor on the open conversation: one row, once.
    expect(ids(stableOrder(rows(3, 1, 2, 4, 5), screen, [3, 3]))).toEqual([1, 2, 3, 4, 5]);
  });

  it('rows that leave the view go at once; a new one enters at its sorted place', () => {
    expect(ids(stableOrder(rows(1, 3, 4), screen, [3]))).toEqual([1, 3, 4]);
    expect(ids(stableOrder(rows(9, 3, 1, 2, 4, 5), screen, [3]))).toEqual([9, 1, 3, 2, 4, 5]);
  });

  it('nothing pinned, or a fresh view (nothing on screen yet): the sort as it is', () => {
    expect(ids(stableOrder(rows(3, 1, 2), rows(1, 2, 3), [undefined]))).toEqual([3, 1, 2]);
    expect(ids(stableOrder(rows(3, 1, 2), rows(), [1]))).toEqual([3, 1, 2]);
  });

  // The rule said plainly (slow, and a copy at every step): the rows held are the pinned ones on
  // screen still in the view, each at its index on screen less the rows above it that left, in
  // screen order; every other row in the sort's order.
  const plain = (sorted: readonly { id: number }[], previous: readonly { id: number }[], pinned: readonly (number | undefined)[]) => {
    const inView = new Set(sorted.map((r) => r.id));
    const held = previous.filter((r) => pinned.includes(r.id) && inView.has(r.id)).map((r) => r.id);
    const out = sorted.filter((r) => !held.includes(r.id));
    for (const id of held) {
      const stayed = previous.slice(0, previous.findIndex((r) => r.id === id)).filter((r) => inView.has(r.id)).length;
      out.splice(Math.min(stayed, out.length), 0, sorted.find((r) => r.id === id)!);
    }
    return out;
  };

  it('follows that rule on random views, and copies nothing when it changes nothing', () => {
    // mulberry32, seeded: the same views on every run.
    let seed = 7;
    const random = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return (((t ^ (t >>> 14)) >>> 0) % n);
    };
    let same = 0;
    for (let round = 0; round < 2_000; round++) {
      const n = 1 + random(30);
      const previous = rows(...Array.from({ length: n }, (_, i) => i + 1));
      // The view now: some rows gone, some new, a few moved.
      const next = previous.filter(() => random(6) !== 0);
      for (let k = random(3); k > 0; k--) next.splice(random(next.length + 1), 0, { id: 100 + round * 10 + k });
      for (let k = random(4); k > 0 && next.length > 1; k--) next.splice(random(next.length), 0, next.splice(random(next.length), 1)[0]!);
      const pinned = [random(4) ? 1 + random(n + 2) : undefined, random(2) ? 1 + random(n + 2) : undefined];
      // Often a pinned row moved by the sort (a label, a reply), the case the rule is for.
      const moved = next.findIndex((r) => r.id === pinned[0]);
      if (moved >= 0 && random(2)) next.splice(random(next.length), 0, next.splice(moved, 1)[0]!);
      const got = stableOrder(next, previous, pinned);
      const want = plain(next, previous, pinned);
      expect(ids(got), JSON.stringify({ next: ids(next), previous: n, pinned })).toEqual(ids(want));
      if (want.every((r, i) => r === next[i])) {
        expect(got).toBe(next);
        same++;
      } else expect(got).not.toBe(next);
    }
    // Both kinds were met.
    expect(same).toBeGreaterThan(100);
    expect(same).toBeLessThan(1_900);
  });
});
