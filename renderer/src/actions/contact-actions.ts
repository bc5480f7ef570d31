// The agent's changes to a contact, through the same outbox as every other action (SYNC-PROTOCOL.md,
// "Contact writes"): applied to the cached contact (and the name and email its conversations show)
// and queued in the contact's lane in one transaction, then sent by the session's sender in order,
// one request of unknown outcome at a time. Offline they wait in the cache and go when the service
// is back. A change that changes nothing queues nothing.
import type { Contact } from '../../../shared/api/contacts';
import type { InboxDb, OutboxEntry } from '../db/schema';
import { showContactOnConversations } from '../db/save';
import type { ContactFieldChange, ContactIntent, ContactOp } from '../model/contact-intent';
import { applyContactIntent, changedFields, contactLane, labelChange } from '../model/contact-intent';
import type { ActionContext } from './agent-actions';
import { newClientId } from './perform';

/** A contact not cached yet (only its conversation's copy of the name and email): what an edit starts from. */
const bare = (contactId: number): Contact => ({ id: contactId, name: null, email: null, phone_number: null, identifier: null, thumbnail: null, blocked: false, availability_status: null, additional_attributes: {}, custom_attributes: {}, last_activity_at: null, created_at: 0 });

/**
 * Applies and queues one change to a contact. `opFor` runs inside the transaction with the contact
 * as cached right now (undefined: skip). Answers the queued entry's `seq`, or undefined.
 */
export async function performContact(ctx: Pick<ActionContext, 'db' | 'kick'>, contactId: number, opFor: (cached: Contact | undefined) => ContactOp | undefined): Promise<number | undefined> {
  const db = ctx.db;
  const seq = await db.transaction('rw', [db.contacts, db.outbox, db.conversations, db.conversationRecords], async () => {
    const cached = await db.contacts.get(contactId);
    const op = opFor(cached);
    if (!op) return undefined;
    const intent = { kind: 'contact', contactId, ...op } as ContactIntent;
    const at = Date.now();
    const entry: OutboxEntry = {
      clientId: newClientId(),
      conversationId: contactLane(contactId),
      kind: 'contact',
      payload: intent,
      state: 'queued',
      createdAt: at,
      attempts: 0,
      nextAttemptAt: 0,
      ...(cached ? { contactBefore: cached } : {}),
    };
    const added = await db.outbox.add(entry);
    const after = applyContactIntent(cached ?? bare(contactId), intent);
    if (cached) await db.contacts.put(after);
    if (op.op === 'fields' && (op.fields.name !== undefined || op.fields.email !== undefined)) await showContactOnConversations(db, after);
    return added;
  });
  if (seq !== undefined) ctx.kick?.();
  return seq;
}

/** Name, email, phone number, custom attribute values: only what differs from the contact as cached goes. */
export const editContact = (ctx: Pick<ActionContext, 'db' | 'kick'>, contactId: number, change: ContactFieldChange) =>
  performContact(ctx, contactId, (cached) => {
    const fields = changedFields(cached, change);
    return fields ? { op: 'fields', fields } : undefined;
  });

export const removeContactAttributes = (ctx: Pick<ActionContext, 'db' | 'kick'>, contactId: number, keys: readonly string[]) =>
  performContact(ctx, contactId, (cached) => {
    const present = keys.filter((k) => !cached || k in cached.custom_attributes);
    return present.length ? { op: 'removeAttributes', keys: [...new Set(present)] } : undefined;
  });

/** Adds and removes labels; applied to whatever set the service has when it goes, so a colleague's labels stay. */
export const changeContactLabels = (ctx: Pick<ActionContext, 'db' | 'kick'>, contactId: number, change: { add?: readonly string[]; remove?: readonly string[] }) =>
  performContact(ctx, contactId, (cached) => {
    const asked = labelChange(change.add ?? [], change.remove ?? []);
    const has = new Set(cached?.labels ?? []);
    const effective = cached?.labels ? { add: asked.add.filter((l) => !has.has(l)), remove: asked.remove.filter((l) => has.has(l)) } : asked;
    return effective.add.length || effective.remove.length ? { op: 'labels', change: effective } : undefined;
  });

export const addContactNote = (ctx: Pick<ActionContext, 'db' | 'kick' | 'me'>, contactId: number, content: string) =>
  performContact(ctx, contactId, () => (content.trim() ? { op: 'noteCreate', content, authorId: ctx.me.id } : undefined));

export const deleteContactNote = (ctx: Pick<ActionContext, 'db' | 'kick'>, contactId: number, noteId: number) => performContact(ctx, contactId, () => ({ op: 'noteDelete', noteId }));

/**
 * Drops a change that is not on its way (refused, or waiting for its next try). The screen then
 * reads the contact again (the changes still queued are re-applied over what the service has). If
 * an attempt of it had gone out, it may have landed: the read shows that too.
 */
export async function discardContactChange(db: InboxDb, seq: number): Promise<boolean> {
  return db.transaction('rw', db.outbox, async () => {
    const e = await db.outbox.get(seq);
    if (!e || e.payload.kind !== 'contact' || (e.state !== 'failed' && e.state !== 'queued')) return false;
    await db.outbox.delete(seq);
    return true;
  });
}

/** A refused or waiting contact change goes again now, in its place. */
export async function retryContactChange(ctx: Pick<ActionContext, 'db' | 'kick'>, seq: number): Promise<void> {
  await ctx.db.outbox.where('seq').equals(seq).modify((e) => {
    if (e.payload.kind === 'contact' && (e.state === 'failed' || e.state === 'queued')) Object.assign(e, { state: 'queued', nextAttemptAt: 0 });
  });
  ctx.kick?.();
}
