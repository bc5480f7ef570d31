// Offline completeness: in idle time, the newest page of messages and the contact of every
// conversation in the agent's open queues are kept in the cache, so any of them reads offline
// (on a train, the agent can still open and answer what is theirs). Mine first, then Unassigned,
// then the rest of their inboxes' open conversations, newest first, bounded. One conversation at
// a time, yielding between them; the first failure ends the round (the service is unreachable:
// the next catch-up starts another).
import type { Bridge } from '../../../shared/bridge/contract';
import { saveContact } from '../db/save';
import type { CachedConversation, InboxDb } from '../db/schema';
import { callOrThrow } from '../platform/call';
import type { HistoryFollower } from './history';

/** Conversations kept readable offline (each costs a newest page and, once, its contact). */
export const PREFETCH_LIMIT = 200;

export interface PrefetchResult {
  conversations: number;
  requests: number;
}

/** The queues' conversations in the order they are kept: mine, unassigned, the rest; newest activity first within each. */
export async function prefetchCandidates(db: InboxDb, meId: number, limit = PREFETCH_LIMIT): Promise<CachedConversation[]> {
  const open = await db.conversations.where('status').equals('open').toArray();
  const rank = (c: CachedConversation) => (c.assigneeId === meId ? 0 : c.assigneeId === 0 ? 1 : 2);
  return open.sort((a, b) => rank(a) - rank(b) || b.lastActivityAt - a.lastActivityAt).slice(0, limit);
}

/** Whether the cache already reads this conversation offline: its newest message held, its contact cached. */
async function needs(db: InboxDb, c: CachedConversation): Promise<{ history: boolean; contact: boolean }> {
  const cursor = await db.cursors.get(c.id);
  const record = (await db.conversationRecords.get(c.id))?.record;
  const newest = Math.max(0, ...(record?.messages ?? []).map((m) => m.id), record?.last_non_activity_message?.id ?? 0);
  const history = !cursor || cursor.newestId === 0 || cursor.newestId < newest;
  const contact = c.contactId > 0 && !(await db.contacts.get(c.contactId));
  return { history, contact };
}

/**
 * Idle work: between two conversations the page waits until the browser has nothing better to do
 * (at most a second), or a tenth of a second where it cannot tell, so the agent never feels it.
 */
export const idle = () =>
  new Promise<void>((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 1_000 });
    else setTimeout(resolve, 100);
  });

export async function prefetchQueues(deps: {
  bridge: Bridge;
  db: InboxDb;
  history: Pick<HistoryFollower, 'refreshLatest'>;
  meId: number;
  limit?: number;
  stopped?: () => boolean;
  /** Between conversations (tests: at once). */
  pause?: () => Promise<void>;
}): Promise<PrefetchResult> {
  const { bridge, db } = deps;
  const result: PrefetchResult = { conversations: 0, requests: 0 };
  // Idle work started with `void`: it never rejects. A failure of the cache ends the round like a
  // failure of the service does (the cache can go under it: a sign-out deletes it, issue 14's CI run).
  try {
    for (const c of await prefetchCandidates(db, deps.meId, deps.limit)) {
      if (deps.stopped?.()) break;
      const need = await needs(db, c);
      if (!need.history && !need.contact) continue;
      if (need.history) {
        await deps.history.refreshLatest(c.id);
        result.requests++;
      }
      if (need.contact) {
        // The record does not carry the contact's labels; both are saved together (as the panel does).
        const [contact, labels] = await Promise.all([callOrThrow(bridge, 'contacts.get', { contactId: c.contactId }), callOrThrow(bridge, 'contacts.labels', { contactId: c.contactId })]);
        result.requests += 2;
        await saveContact(db, { ...contact.payload, labels: labels.payload });
      }
      result.conversations++;
      await (deps.pause ?? idle)();
    }
  } catch {
    // The round ends here; the next catch-up starts another.
  }
  return result;
}
