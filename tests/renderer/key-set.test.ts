// keySet (db/changed-keys.ts): a RangeSet of a conversation's message ids built in one pass, which
// must answer every question Dexie asks of one (overlap with a write's parts, membership, its
// ranges in order, more keys added) as one built key by key does.
import { RangeSet, rangesOverlap } from 'dexie';
import type { IntervalTree } from 'dexie';
import { describe, expect, it } from 'vitest';
import { keySet } from '../../renderer/src/db/changed-keys';

/** A seeded generator, so that a failure names keys that can be read again. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}
const ascending = (n: number, next: () => number) => {
  const keys: number[] = [];
  let k = Math.floor(next() * 100);
  for (let i = 0; i < n; i++) keys.push((k += 1 + Math.floor(next() * 20)));
  return keys;
};
const ranges = (set: IntervalTree) => [...RangeSet(set)].map((n) => [n.from, n.to]);
const depth = (node: IntervalTree | null | undefined): number => (node && 'from' in node ? 1 + Math.max(depth(node.l), depth(node.r)) : 0);

describe('keySet', () => {
  it.each([0, 1, 2, 3, 7, 60, 500, 10_000])('holds the same %i keys as addKeys, balanced, with depths Dexie can rebalance by', (n) => {
    const next = random(n + 1);
    const keys = ascending(n, next);
    const built = keySet(keys);
    const byOne = new RangeSet().addKeys(keys);
    expect(ranges(built)).toEqual(ranges(byOne));
    for (const k of keys) expect(built.hasKey(k)).toBe(true);
    for (const k of keys) expect(Boolean(built.hasKey(k + 0.5))).toBe(false);
    // Each node's d is its height: what Dexie's rebalancing reads.
    const check = (node: IntervalTree | null | undefined) => {
      if (!node || !('from' in node)) return;
      expect(node.d).toBe(depth(node));
      check(node.l);
      check(node.r);
    };
    check(built);
    expect(depth(built)).toBeLessThanOrEqual(Math.ceil(Math.log2(n + 1)));
  });

  it('overlaps a write exactly where one built key by key does', () => {
    const next = random(7);
    const keys = ascending(2_000, next);
    const built = keySet(keys);
    const byOne = new RangeSet().addKeys(keys);
    for (let i = 0; i < 500; i++) {
      const written = new RangeSet();
      const at = keys[Math.floor(next() * keys.length)]!;
      // A key held, a key between two held, a range.
      if (i % 3 === 0) written.addKey(at);
      else if (i % 3 === 1) written.addKey(at + 0.5);
      else written.add({ from: at - Math.floor(next() * 50), to: at + Math.floor(next() * 50) });
      expect(rangesOverlap(built, written)).toBe(rangesOverlap(byOne, written));
    }
    expect(rangesOverlap(built, new RangeSet(keys[0]! - 10, keys[0]! - 1))).toBe(false);
  });

  it('takes more keys and ranges afterwards as any RangeSet does', () => {
    const next = random(3);
    const keys = ascending(300, next);
    const more = ascending(200, next).map((k) => k + 0.25);
    const built = keySet(keys).addKeys(more).add({ from: 5, to: 9 });
    const byOne = new RangeSet().addKeys(keys).addKeys(more).add({ from: 5, to: 9 });
    expect(ranges(built)).toEqual(ranges(byOne));
  });

  it('keys out of order or repeated are added one by one', () => {
    expect(ranges(keySet([5, 3, 9]))).toEqual([[3, 3], [5, 5], [9, 9]]);
    expect(ranges(keySet([1, 1, 2]))).toEqual([[1, 1], [2, 2]]);
  });
});
