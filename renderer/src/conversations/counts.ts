// The tab counts as the agent should read them: the service's counts (asked at `countedAt`) with
// the agent's own changes it had not counted yet (still queued, or confirmed after the counts were
// asked for). Without this the tab said "Mine 54" beside a list of 53 after a reassignment waiting
// in the outbox.
import type { ConversationCounts } from '../../../shared/api/records';
import type { CachedConversation, OutboxEntry } from '../model/rows';
import { isPending } from '../model/overlay';
import type { AssigneeTab, ListView } from './view';
import { matchesView } from './view';

/** What the counts read of an outbox entry. */
export type CountedEntry = Pick<OutboxEntry, 'seq' | 'conversationId' | 'state' | 'confirmedAt'> & { before?: { row?: CachedConversation } };

const tabs: [AssigneeTab, keyof ConversationCounts][] = [
  ['me', 'mine_count'],
  ['unassigned', 'unassigned_count'],
  ['all', 'all_count'],
];

/** Entries whose effect counts asked for at `countedAt` cannot show. */
const uncounted = (e: CountedEntry, countedAt: number) => isPending(e) || (e.state === 'confirmed' && (e.confirmedAt ?? 0) >= countedAt);

export function adjustedCounts(counts: ConversationCounts, countedAt: number, entries: readonly CountedEntry[], rows: ReadonlyMap<number, CachedConversation>, view: ListView, meId: number): ConversationCounts {
  const out = { ...counts };
  // Per conversation, the state the service counted (what the agent saw before the first uncounted
  // change) against the state the cache shows now.
  const first = new Map<number, CountedEntry>();
  for (const e of [...entries].sort((a, b) => a.seq! - b.seq!)) if (uncounted(e, countedAt) && !first.has(e.conversationId)) first.set(e.conversationId, e);
  for (const [id, e] of first) {
    const before = e.before?.row;
    const now = rows.get(id);
    if (!before || !now) continue;
    for (const [tab, key] of tabs) {
      const v = { ...view, tab };
      out[key] += Number(matchesView(now, v, meId)) - Number(matchesView(before, v, meId));
    }
  }
  for (const [, key] of tabs) out[key] = Math.max(0, out[key]);
  out.assigned_count = Math.max(0, out.all_count - out.unassigned_count);
  return out;
}
