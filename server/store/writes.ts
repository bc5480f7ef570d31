// The domain writes every API family shares: creating contacts, conversations and messages with
// the bookkeeping the reference service does (activity times, waiting_since, first reply,
// reopening on a new incoming message), then emitting domain events once the transaction commits.
// Application, Client and Widget routes all call these, so the three families behave the same.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open';
import { inTransaction, stmt } from '../db/open';
import type { DomainEvent, EventBus, Performer } from '../events/bus';
import type { ContactRow } from './contacts';
import type { MessageRow } from './messages';
import { rows } from '../db/rows';
import type { AvatarChange } from './contact-avatars';
import { applyAvatar } from './contact-avatars';
import type { ConversationRow } from './conversations';
import { nextDisplayId } from './provision';
import type { NewAttachment } from './uploads';

export interface WriteContext {
  db: Db;
  bus: EventBus;
  now: number;
  performer?: Performer;
}

/** The events of commits made inside atomically(), held until its transaction commits. */
const heldEvents = new WeakMap<Db, DomainEvent[]>();

/**
 * Runs `work` in one transaction and emits its events only after it committed. Inside atomically()
 * the transaction is a savepoint of the outer one, and the events wait for the outer commit.
 */
export function commit<T>(ctx: WriteContext, work: (events: DomainEvent[]) => T): T {
  const events: DomainEvent[] = [];
  const result = inTransaction(ctx.db, () => work(events));
  const held = heldEvents.get(ctx.db);
  if (held) held.push(...events);
  else for (const e of events) ctx.bus.emit(e);
  return result;
}

/**
 * Runs `work`, and every commit() it makes, as one transaction: all of it lands or none of it does
 * (better-sqlite3 makes the inner transactions savepoints). The inner commits' events are emitted
 * once it has committed, and never if it rolls back. `work` must be synchronous: an await would end
 * the transaction early.
 */
export function atomically<T>(ctx: { db: Db; bus: EventBus }, work: () => T): T {
  if (heldEvents.has(ctx.db)) throw new Error('atomically() does not nest');
  const events: DomainEvent[] = [];
  heldEvents.set(ctx.db, events);
  let result: T;
  try {
    result = inTransaction(ctx.db, () => {
      const value = work();
      if (value instanceof Promise) throw new TypeError('atomically() needs synchronous work');
      return value;
    });
  } finally {
    heldEvents.delete(ctx.db);
  }
  for (const e of events) ctx.bus.emit(e);
  return result;
}

/**
 * Runs `work` inside a transaction the caller holds open (its commits are savepoints of it) and
 * answers the events its commits made instead of emitting them: the caller emits them once its
 * transaction has committed (group-commit.ts), and drops them if it does not.
 */
export function holdingEvents<T>(db: Db, work: () => T): { value: T; events: DomainEvent[] } {
  if (heldEvents.has(db)) throw new Error('holdingEvents() does not nest');
  if (!db.inTransaction) throw new Error('holdingEvents() needs an open transaction');
  const events: DomainEvent[] = [];
  heldEvents.set(db, events);
  try {
    return { value: work(), events };
  } finally {
    heldEvents.delete(db);
  }
}

export interface NewContact {
  accountId: number;
  name?: string | null;
  email?: string | null;
  phoneNumber?: string | null;
  identifier?: string | null;
  additionalAttributes?: Record<string, unknown>;
  customAttributes?: Record<string, unknown>;
  contactType?: 'visitor' | 'lead' | 'customer';
}

/** No deduplication: the spec says a retried contact create makes a second contact. */
export function insertContact(ctx: WriteContext, c: NewContact, events: DomainEvent[]): ContactRow {
  const id = Number(
    stmt(
      ctx.db,
      `INSERT INTO contacts (account_id, name, email, phone_number, identifier, contact_type, additional_attributes, custom_attributes, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      c.accountId,
      c.name ?? '',
      c.email ?? null,
      c.phoneNumber ?? null,
      c.identifier ?? null,
      c.contactType ?? 'lead',
      JSON.stringify(c.additionalAttributes ?? {}),
      JSON.stringify(c.customAttributes ?? {}),
      ctx.now,
      ctx.now,
    ).lastInsertRowid,
  );
  events.push({ name: 'contact.created', accountId: c.accountId, contactId: id });
  return stmt(ctx.db, 'SELECT * FROM contacts WHERE id = ?').get(id) as ContactRow;
}

export const createContact = (ctx: WriteContext, c: NewContact) => commit(ctx, (events) => insertContact(ctx, c, events));

export interface NewConversation {
  accountId: number;
  inboxId: number;
  contactId: number;
  contactInboxId: number | null;
  status?: ConversationRow['status'];
  assigneeId?: number | null;
  teamId?: number | null;
  snoozedUntil?: number | null;
  additionalAttributes?: Record<string, unknown>;
  customAttributes?: Record<string, unknown>;
}

export function insertConversation(ctx: WriteContext, c: NewConversation, events: DomainEvent[]): ConversationRow {
  const id = Number(
    stmt(
      ctx.db,
      `INSERT INTO conversations (account_id, display_id, inbox_id, contact_id, contact_inbox_id, uuid, status, assignee_id, team_id, snoozed_until,
         additional_attributes, custom_attributes, last_activity_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      c.accountId,
      nextDisplayId(ctx.db, c.accountId),
      c.inboxId,
      c.contactId,
      c.contactInboxId,
      randomUUID(),
      c.status ?? 'open',
      c.assigneeId ?? null,
      c.teamId ?? null,
      c.snoozedUntil ?? null,
      JSON.stringify(c.additionalAttributes ?? {}),
      JSON.stringify(c.customAttributes ?? {}),
      ctx.now,
      ctx.now,
      ctx.now,
    ).lastInsertRowid,
  );
  events.push({ name: 'conversation.created', accountId: c.accountId, conversationId: id, ...(ctx.performer ? { performer: ctx.performer } : {}) });
  return stmt(ctx.db, 'SELECT * FROM conversations WHERE id = ?').get(id) as ConversationRow;
}

export const createConversation = (ctx: WriteContext, c: NewConversation) => commit(ctx, (events) => insertConversation(ctx, c, events));

export interface NewMessage {
  conversation: ConversationRow;
  /** 0 incoming, 1 outgoing, 2 activity, 3 template. */
  messageType: 0 | 1 | 2 | 3;
  content: string | null;
  private?: boolean;
  contentType?: string;
  contentAttributes?: Record<string, unknown>;
  sender: { type: 'User' | 'Contact' | 'AgentBot'; id: number } | null;
  sourceId?: string | null;
  attachments?: NewAttachment[];
  /** Echoed in the message.created event so the sender can match its optimistic copy. */
  echoId?: string;
}

/**
 * Inserts a message and keeps the conversation's derived fields as the reference service does.
 * A new incoming message reopens a resolved or snoozed conversation.
 */
export function insertMessage(ctx: WriteContext, m: NewMessage, events: DomainEvent[]): MessageRow {
  const c = m.conversation;
  // change_seq: the value the insert trigger is about to take (migration 9), so the trigger leaves the
  // row as inserted, and RETURNING answers it as stored (no read after).
  const row = rows<MessageRow>(
    ctx.db,
    `INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content_type, content, private, status, source_id,
       content_attributes, sender_type, sender_id, created_at, updated_at, change_seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'sent', ?, ?, ?, ?, ?, ?, (SELECT value + 1 FROM change_sequence WHERE id = 1))
     RETURNING *`,
  ).get(
    c.account_id,
    c.inbox_id,
    c.id,
    m.messageType,
    m.contentType ?? 'text',
    m.content,
    m.private ? 1 : 0,
    m.sourceId ?? null,
    JSON.stringify(m.contentAttributes ?? {}),
    m.sender?.type ?? null,
    m.sender?.id ?? null,
    ctx.now,
    ctx.now,
  )!;
  const id = row.id;
  for (const a of m.attachments ?? []) {
    stmt(
      ctx.db,
      `INSERT INTO attachments (message_id, account_id, file_type, extension, data_url, thumb_url, file_size, width, height, fallback_title)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, c.account_id, a.fileType, a.extension ?? null, a.dataUrl ?? null, a.thumbUrl ?? null, a.fileSize ?? null, a.width ?? null, a.height ?? null, a.fallbackTitle ?? null);
  }

  const incoming = m.messageType === 0;
  const reply = m.messageType === 1 && !m.private && m.sender?.type !== 'Contact';
  const next = {
    status: incoming && (c.status === 'resolved' || c.status === 'snoozed') ? 'open' : c.status,
    snoozed_until: incoming && c.status === 'snoozed' ? null : c.snoozed_until,
    waiting_since: incoming ? (c.waiting_since ?? ctx.now) : reply ? null : c.waiting_since,
    first_reply_created_at: reply ? (c.first_reply_created_at ?? ctx.now) : c.first_reply_created_at,
  };
  stmt(
    ctx.db,
    `UPDATE conversations SET last_activity_at = ?, updated_at = ?, status = ?, snoozed_until = ?, waiting_since = ?, first_reply_created_at = ? WHERE id = ?`,
  ).run(ctx.now, ctx.now, next.status, next.snoozed_until, next.waiting_since, next.first_reply_created_at, c.id);
  if (incoming) stmt(ctx.db, 'UPDATE contacts SET last_activity_at = ? WHERE id = ?').run(ctx.now, c.contact_id);

  const performer = ctx.performer ? { performer: ctx.performer } : {};
  events.push({ name: 'message.created', accountId: c.account_id, conversationId: c.id, messageId: id, ...performer, ...(m.echoId === undefined ? {} : { echoId: m.echoId }) });
  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of ['status', 'snoozed_until', 'waiting_since', 'first_reply_created_at'] as const) {
    if (next[key] !== c[key]) changes[key] = [c[key], next[key]];
  }
  if (changes.status) events.push({ name: 'conversation.status_changed', accountId: c.account_id, conversationId: c.id, changes, ...performer });
  if (Object.keys(changes).length) events.push({ name: 'conversation.updated', accountId: c.account_id, conversationId: c.id, changes, ...performer });
  return row;
}

export const createMessage = (ctx: WriteContext, m: NewMessage) => commit(ctx, (events) => insertMessage(ctx, m, events));

// ---- Contact-side writes (Client and Widget families; usable by the Application family too) ----

export interface ContactPatch {
  name?: string;
  email?: string | null;
  phoneNumber?: string | null;
  identifier?: string | null;
  /** Merged into the stored attributes (chatwoot-compat §9.5: contact PATCH merges). */
  customAttributes?: Record<string, unknown>;
  additionalAttributes?: Record<string, unknown>;
  avatar?: AvatarChange;
}

/** Updates a contact; emits contact.updated with the changed attributes, and nothing if none changed. */
export function updateContact(ctx: WriteContext, contact: ContactRow, patch: ContactPatch): ContactRow {
  return commit(ctx, (events) => {
    const merge = (stored: string, extra?: Record<string, unknown>) => (extra ? JSON.stringify({ ...(JSON.parse(stored) as object), ...extra }) : stored);
    const next = {
      name: patch.name ?? contact.name,
      email: patch.email === undefined ? contact.email : patch.email,
      phone_number: patch.phoneNumber === undefined ? contact.phone_number : patch.phoneNumber,
      identifier: patch.identifier === undefined ? contact.identifier : patch.identifier,
      custom_attributes: merge(contact.custom_attributes, patch.customAttributes),
      additional_attributes: merge(contact.additional_attributes, patch.additionalAttributes),
    };
    const changes: Record<string, [unknown, unknown]> = {};
    for (const key of Object.keys(next) as (keyof typeof next)[]) {
      if (next[key] !== contact[key]) changes[key] = [contact[key], next[key]];
    }
    // In the same transaction and the same contact.updated event as the other attributes.
    Object.assign(changes, applyAvatar(ctx.db, contact, patch.avatar, ctx.now));
    if (!Object.keys(changes).length) return stmt(ctx.db, 'SELECT * FROM contacts WHERE id = ?').get(contact.id) as ContactRow;
    stmt(
      ctx.db,
      'UPDATE contacts SET name = ?, email = ?, phone_number = ?, identifier = ?, custom_attributes = ?, additional_attributes = ?, updated_at = ? WHERE id = ?',
    ).run(next.name, next.email, next.phone_number, next.identifier, next.custom_attributes, next.additional_attributes, ctx.now, contact.id);
    events.push({ name: 'contact.updated', accountId: contact.account_id, contactId: contact.id, changes });
    return stmt(ctx.db, 'SELECT * FROM contacts WHERE id = ?').get(contact.id) as ContactRow;
  });
}

/** Sets a conversation's status; emits status_changed and updated only when it changed. */
export function setConversationStatus(ctx: WriteContext, c: ConversationRow, status: ConversationRow['status']): ConversationRow {
  return commit(ctx, (events) => {
    if (c.status === status) return c;
    const snoozedUntil = status === 'snoozed' ? c.snoozed_until : null;
    // Resolving stops the contact's wait, as in conversation-updates.ts.
    stmt(ctx.db, "UPDATE conversations SET status = ?, snoozed_until = ?, updated_at = ?, waiting_since = CASE WHEN ? = 'resolved' THEN NULL ELSE waiting_since END WHERE id = ?").run(status, snoozedUntil, ctx.now, status, c.id);
    const changes: Record<string, [unknown, unknown]> = { status: [c.status, status] };
    if (snoozedUntil !== c.snoozed_until) changes.snoozed_until = [c.snoozed_until, snoozedUntil];
    const performer = ctx.performer ? { performer: ctx.performer } : {};
    events.push({ name: 'conversation.status_changed', accountId: c.account_id, conversationId: c.id, changes, ...performer });
    events.push({ name: 'conversation.updated', accountId: c.account_id, conversationId: c.id, changes, ...performer });
    return stmt(ctx.db, 'SELECT * FROM conversations WHERE id = ?').get(c.id) as ConversationRow;
  });
}

/** The contact read the conversation (chatwoot-compat §9.4: emits conversation.read). */
export function markContactLastSeen(ctx: WriteContext, c: ConversationRow): void {
  commit(ctx, (events) => {
    stmt(ctx.db, 'UPDATE conversations SET contact_last_seen_at = ? WHERE id = ?').run(ctx.now, c.id);
    events.push({ name: 'conversation.read', accountId: c.account_id, conversationId: c.id, changes: { contact_last_seen_at: [c.contact_last_seen_at, ctx.now] } });
  });
}
