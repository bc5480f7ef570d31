// What a cache write changed, as Dexie tells every reader after a commit (`storagemutated`): the
// primary keys of one table, when the write named them one by one and they are few. Readers that
// keep a table's rows in memory read those rows again instead of the whole table.
import { RangeSet } from 'dexie';
import type { IntervalTree, ObservabilitySet } from 'dexie';

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
