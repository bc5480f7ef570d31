// Writes what the service returned into the cache. Reads go: cache first (useLiveQuery), then the
// service through the bridge, then here.
import type { Contact } from '../../../shared/api/contacts';
import type { Conversation } from '../../../shared/api/records';
import { isLocalMessage } from '../model/intent';
import { aheadOf, withPending } from '../model/overlay';
import { toConversationRecord } from '../model/normalize';
import type { InboxDb, OutboxEntry } from './schema';

/**
 * Stores what the service answered, with the agent's actions it may not reflect yet re-applied on
 * top. `fetchedAt`: when the request went out (an answer can be older than an action confirmed
 * while it travelled).
 */
export async function saveConversations(db: InboxDb, records: Conversation[], fetchedAt = Date.now()): Promise<void> {
  await db.transaction('rw', db.conversations, db.conversationRecords, db.outbox, async () => {
    const pending = await pendingByConversation(db, records.map((r) => r.id), fetchedAt);
    const cached = records.map((r) => withPending(r, pending.get(r.id)));
    await db.conversations.bulkPut(cached.map((c) => c.row));
    await db.conversationRecords.bulkPut(cached.map((c) => toConversationRecord(c.record)));
  });
}

/**
 * A conversation the service no longer shows this agent (deleted, or moved out of their inboxes).
 * The agent's own unsent messages stay: what they wrote is never dropped behind their back.
 */
export async function forgetConversation(db: InboxDb, id: number): Promise<void> {
  await db.transaction('rw', [db.conversations, db.conversationRecords, db.messages, db.cursors], async () => {
    await db.conversations.delete(id);
    await db.conversationRecords.delete(id);
    await db.messages.where('conversation_id').equals(id).filter((m) => !isLocalMessage(m)).delete();
    await db.cursors.delete(id);
  });
}

/** Replaces a whole directory table: what the service no longer lists must not stay selectable. */
export async function replaceAll<T extends { id: number }>(db: InboxDb, table: 'inboxes' | 'agents' | 'teams' | 'labels' | 'cannedResponses', rows: T[]): Promise<void> {
  const t = db.table<T, number>(table);
  await db.transaction('rw', t, async () => {
    await t.clear();
    await t.bulkPut(rows);
  });
}

/** Saves the contact record, keeping the labels read separately (the record does not carry them). */
export async function saveContact(db: InboxDb, contact: Contact): Promise<void> {
  await db.transaction('rw', db.contacts, async () => {
    const labels = contact.labels ?? (await db.contacts.get(contact.id))?.labels;
    await db.contacts.put(labels ? { ...contact, labels } : contact);
  });
}

/**
 * Entries whose effect an answer fetched at `fetchedAt` may lack, per conversation, in queue
 * order (`Infinity`: pending ones only). Call inside a transaction that includes `outbox`.
 */
export async function pendingByConversation(db: InboxDb, ids: readonly number[], fetchedAt = Infinity): Promise<Map<number, OutboxEntry[]>> {
  const out = new Map<number, OutboxEntry[]>();
  if (!ids.length) return out;
  const entries = await db.outbox.where('conversationId').anyOf([...new Set(ids)]).toArray();
  for (const e of entries.filter((x) => aheadOf(x, fetchedAt)).sort((a, b) => a.seq! - b.seq!)) {
    const list = out.get(e.conversationId) ?? [];
    list.push(e);
    out.set(e.conversationId, list);
  }
  return out;
}

/** Ids among `ids` whose cached state is ahead of an answer fetched at `fetchedAt`. */
export async function idsWithPending(db: InboxDb, ids: readonly number[], fetchedAt = Infinity): Promise<Set<number>> {
  const map = await pendingByConversation(db, ids, fetchedAt);
  return new Set(map.keys());
}
