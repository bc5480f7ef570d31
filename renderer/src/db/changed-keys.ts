// What a cache write changed, as Dexie tells every reader after a commit (`storagemutated`): the
// primary keys of one table, when the write named them one by one and they are few. Readers that
// keep a table's rows in memory read those rows again instead of the whole table.
import { RangeSet } from 'dexie';
import type { IntervalTree, IntervalTreeNode, ObservabilitySet } from 'dexie';

/** More changed rows than this in one go (a page saved, a catch-up) and the reader reads everything again. */
export const PATCH_LIMIT = 200;

/** The primary keys a cache write changed, when it names them one by one (not a range) and they are few. */
export function changedKeys(keys: IntervalTree | undefined): number[] | undefined {
  if (!keys) return [];
  const ids: number[] = [];
  // Dexie's own walk of the set (a plain tree when the change came from another tab).
  for (const node of RangeSet(keys)) {
    if (typeof node.from !== 'number' || node.from !== node.to || ids.length >= PATCH_LIMIT) return undefined;
    ids.push(node.from);
  }
  return ids;
}

/**
 * Of one table's change: `[]` when the write did not touch it, the keys it named, or undefined when
 * it changed a range or too many (read everything again).
 */
export function tableChange(parts: ObservabilitySet, dbName: string, table: string): number[] | undefined {
  const prefix = `idb://${dbName}/${table}/`;
  if (!Object.keys(parts).some((part) => part.startsWith(prefix))) return [];
  return changedKeys(parts[prefix]);
}

/**
 * A RangeSet of `keys`, built as one balanced tree in a single pass when they are strictly
 * ascending numbers (a conversation's messages, as read): `addKeys` inserts them one by one,
 * rebalancing as it goes, and took 13 ms of a reply's task for 10,000 messages (profiled, bench
 * "reply", thirty-third stop). The tree is Dexie's own shape (IntervalTreeNode), which RangeSet
 * takes as it takes a change told by another tab.
 */
export function keySet(keys: readonly number[]): RangeSet {
  for (let i = 1; i < keys.length; i++) if (!(keys[i - 1]! < keys[i]!)) return new RangeSet().addKeys([...keys]);
  const node = (lo: number, hi: number): IntervalTreeNode | undefined => {
    if (lo > hi) return undefined;
    const mid = (lo + hi) >>> 1;
    const l = node(lo, mid - 1);
    const r = node(mid + 1, hi);
    return { from: keys[mid]!, to: keys[mid]!, l, r, d: Math.max(l?.d ?? 0, r?.d ?? 0) + 1 };
  };
  const root = node(0, keys.length - 1);
  // Called, not constructed: `new RangeSet(x)` is the range of the one key x.
  return root ? RangeSet(root) : new RangeSet();
}
