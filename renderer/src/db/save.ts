// Writes what the service returned into the cache. Reads go: cache first (useLiveQuery), then the
// service through the bridge, then here.
import type { Contact, ContactNote } from '../../../shared/api/contacts';
import type { Conversation } from '../../../shared/api/records';
import type { ContactIntent } from '../model/contact-intent';
import { applyContactIntent, contactLane } from '../model/contact-intent';
import { isLocalMessage } from '../model/intent';
import type { AnswerTime } from '../model/overlay';
import { olderThan, reappliedOver, withContactEdits, withPending } from '../model/overlay';
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
    // The conversations' own lanes, and their contacts' (an edited name shows on the row too).
    const contactOf = (r: Conversation) => contactLane(r.meta.sender?.id ?? 0);
    const entries = await entriesOf(db, [...fresh.map((r) => r.id), ...fresh.filter((r) => r.meta.sender).map(contactOf)]);
    const over = (lane: number) => entries.get(lane)?.filter((e) => reappliedOver(e, at));
    const cached = fresh.map((r) => withContactEdits(withPending(r, over(r.id)), r.meta.sender ? over(contactOf(r)) : undefined));
    await db.conversations.bulkPut(cached.map((c) => c.row));
    await db.conversationRecords.bulkPut(cached.map((c) => toConversationRecord(c.record)));
    if (at === 'push') return;
    // A conversation's answer proves only its own lane's changes.
    const proven = fresh.flatMap((r) => entries.get(r.id) ?? []).filter((e) => e.state === 'confirmed' && e.provenAt === undefined && (e.confirmedAt ?? 0) <= at);
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

/**
 * Saves the contact record, keeping the labels read separately (the record does not carry them),
 * with the agent's changes to the contact it may not show yet re-applied on top, by the rules
 * saveConversations follows (`at`: when the request went out, or `push`). Answers what is stored.
 */
export async function saveContact(db: InboxDb, contact: Contact, at: AnswerTime = Date.now()): Promise<Contact> {
  return db.transaction('rw', db.contacts, db.outbox, async () => {
    const labels = contact.labels ?? (await db.contacts.get(contact.id))?.labels;
    let stored: Contact = labels ? { ...contact, labels } : contact;
    const entries = (await db.outbox.where('conversationId').equals(contactLane(contact.id)).sortBy('seq')).filter((e) => e.payload.kind === 'contact');
    for (const e of entries) if (reappliedOver(e, at)) stored = applyContactIntent(stored, e.payload as ContactIntent);
    await db.contacts.put(stored);
    if (at !== 'push') {
      for (const e of entries) if (e.state === 'confirmed' && e.provenAt === undefined && (e.confirmedAt ?? 0) <= at) await db.outbox.update(e.seq!, { provenAt: Date.now() });
    }
    return stored;
  });
}

/** A contact's notes as the service listed them, replacing what was held for that contact. */
export async function saveContactNotes(db: InboxDb, contactId: number, notes: readonly ContactNote[]): Promise<void> {
  await db.transaction('rw', db.contactNotes, async () => {
    await db.contactNotes.where('contactId').equals(contactId).delete();
    await db.contactNotes.bulkPut(notes.map((n) => ({ ...n, contactId })));
  });
}

/** Ids among `ids` whose cached state is ahead of an answer asked for at `at` (their row may sit in a view the service has not put it in yet). */
export async function idsWithPending(db: InboxDb, ids: readonly number[], at: AnswerTime = Infinity): Promise<Set<number>> {
  const entries = await entriesOf(db, ids);
  return new Set([...entries].filter(([, list]) => list.some((e) => reappliedOver(e, at))).map(([id]) => id));
}

/** The contact's name and email on its conversations' rows and records (they carry their own copy). */
export async function showContactOnConversations(db: InboxDb, contact: Pick<Contact, 'id' | 'name' | 'email'>): Promise<void> {
  await db.transaction('rw', [db.conversations, db.conversationRecords], async () => {
    const rows = await db.conversations.where('contactId').equals(contact.id).toArray();
    const name = contact.name || 'Unknown contact';
    await db.conversations.bulkPut(rows.map((r) => ({ ...r, contactName: name, contactEmail: contact.email ?? '' })));
    const records = (await db.conversationRecords.bulkGet(rows.map((r) => r.id))).filter((r) => r !== undefined);
    await db.conversationRecords.bulkPut(
      records.map((r) => {
        const sender = r.record.meta.sender;
        return sender ? { id: r.id, record: { ...r.record, meta: { ...r.record.meta, sender: { ...sender, name: contact.name, email: contact.email ?? null } } } } : r;
      }),
    );
  });
}
