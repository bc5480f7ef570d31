// Writes what the service returned into the cache. Reads go: cache first (useLiveQuery), then the
// service through the bridge, then here.
import type { Contact } from '../../../shared/api/contacts';
import type { Conversation } from '../../../shared/api/records';
import { isLocalMessage } from '../model/intent';
import type { AnswerTime } from '../model/overlay';
import { olderThan, reappliedOver, withPending } from '../model/overlay';
import { toConversationRecord } from '../model/normalize';
import type { InboxDb, OutboxEntry } from './schema';

/**
 * Stores what the service answered, with the agent's actions it may not reflect yet re-applied on
 * top (model/overlay.ts). `at`: when the request went out (an answer can be older than an action
 * confirmed while it travelled), or `push`. An answer older than the record held (by the
 * service's `updated_at`) is dropped. A stored answer asked for after an action was confirmed
 * proves it: from then on the service's own state shows.
 */
export async function saveConversations(db: InboxDb, records: Conversation[], at: AnswerTime = Date.now()): Promise<void> {
  if (!records.length) return;
  await db.transaction('rw', db.conversations, db.conversationRecords, db.outbox, async () => {
    const ids = records.map((r) => r.id);
    const held = await db.conversationRecords.bulkGet(ids);
    const fresh = records.filter((r, i) => !olderThan(r, held[i]?.record));
    if (!fresh.length) return;
    const entries = await entriesOf(db, fresh.map((r) => r.id));
    const cached = fresh.map((r) => withPending(r, entries.get(r.id)?.filter((e) => reappliedOver(e, at))));
    await db.conversations.bulkPut(cached.map((c) => c.row));
    await db.conversationRecords.bulkPut(cached.map((c) => toConversationRecord(c.record)));
    if (at === 'push') return;
    const proven = [...entries.values()].flat().filter((e) => e.state === 'confirmed' && e.provenAt === undefined && (e.confirmedAt ?? 0) <= at);
    for (const e of proven) await db.outbox.update(e.seq!, { provenAt: Date.now() });
  });
}

/** The outbox entries of these conversations, in queue order. Call inside a transaction that includes `outbox`. */
async function entriesOf(db: InboxDb, ids: readonly number[]): Promise<Map<number, OutboxEntry[]>> {
  const out = new Map<number, OutboxEntry[]>();
  const entries = await db.outbox.where('conversationId').anyOf([...new Set(ids)]).toArray();
  for (const e of entries.sort((a, b) => a.seq! - b.seq!)) {
    const list = out.get(e.conversationId) ?? [];
    list.push(e);
    out.set(e.conversationId, list);
  }
  return out;
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

/** Ids among `ids` whose cached state is ahead of an answer asked for at `at` (their row may sit in a view the service has not put it in yet). */
export async function idsWithPending(db: InboxDb, ids: readonly number[], at: AnswerTime = Infinity): Promise<Set<number>> {
  const entries = await entriesOf(db, ids);
  return new Set([...entries].filter(([, list]) => list.some((e) => reappliedOver(e, at))).map(([id]) => id));
}
