// Live events into the cache. Every conversation record goes through `saveConversations`, like a
// list page: the agent's queued actions (and those confirmed but not yet proven by a read) are
// re-applied on top, so a push that was on its way while "resolve" landed cannot undo it on
// screen; a push older than the record held (the service's `updated_at`) is dropped.
// Messages are stored by id (a repeat is the same row), and our own send's echo is recognised by
// its marker, so it never shows beside the optimistic copy (`withoutDelivered`).
import type { Contact } from '../../../shared/api/contacts';
import type { LiveEvent } from '../../../shared/api/live-events';
import type { Conversation, Message } from '../../../shared/api/records';
import { CLIENT_MESSAGE_ID_KEY } from '../../../shared/bridge/calls/message-limits';
import { isLocalMessage, markerOf } from '../model/intent';
import type { InboxDb } from '../db/schema';
import { saveConversations, saveContact, showContactOnConversations } from '../db/save';

export type MessageEvent = Extract<LiveEvent, { type: 'message.created' | 'message.updated' }>;
export type ConversationEvent = Extract<LiveEvent, { conversation: Conversation }>;
export type ContactEvent = Extract<LiveEvent, { contact: Contact }>;

const newest = (a: Message | null | undefined, b: Message | null | undefined) => (!a ? b : !b ? a : b.id >= a.id ? b : a);

/**
 * The push record over what the cache holds. A push lacks some REST fields (§2.2: uuid, muted,
 * last_non_activity_message), which zod filled with defaults: those keep the cached value.
 */
export function mergePushedConversation(cached: Conversation | undefined, pushed: Conversation): Conversation {
  if (!cached) return pushed;
  const latestPushed = pushed.messages.at(-1);
  return {
    ...cached,
    ...pushed,
    ...(cached.uuid === undefined ? {} : { uuid: cached.uuid }),
    muted: cached.muted,
    // The push's messages hold the last chat message only; the preview needs the newest one known.
    last_non_activity_message: newest(cached.last_non_activity_message, latestPushed) ?? null,
    messages: latestPushed ? pushed.messages : cached.messages,
  };
}

export async function applyConversationEvent(db: InboxDb, event: ConversationEvent): Promise<void> {
  await db.transaction('rw', db.conversations, db.conversationRecords, db.outbox, async () => {
    const cached = (await db.conversationRecords.get(event.conversation.id))?.record;
    await saveConversations(db, [mergePushedConversation(cached, event.conversation)], 'push');
  });
}

/** Our own send, echoed: the service dropped the marker, but `echo_id` names the outbox entry. */
async function withEchoMarker(db: InboxDb, m: Message): Promise<Message> {
  if (!m.echo_id || markerOf(m)) return m;
  const mine = await db.outbox.where('clientId').equals(m.echo_id).first();
  return mine && mine.conversationId === m.conversation_id ? { ...m, content_attributes: { ...m.content_attributes, [CLIENT_MESSAGE_ID_KEY]: m.echo_id } } : m;
}

export type MessageApplied = {
  /** The conversation is not cached: the caller reads it, so its row can appear. */
  conversationMissing: boolean;
  /** The history is held and this message is newer than its newest: ids in between are unknown. */
  beyondNewest?: { newestId: number };
};

/**
 * Stores the message and moves its conversation's row (last activity, preview, unread count).
 * `recordGap`: mark the unknown ids between the newest held and this message as a gap (closed
 * when the conversation is opened); the open conversation's caller closes it at once instead.
 */
export async function applyMessageEvent(db: InboxDb, event: MessageEvent, opts: { recordGap: boolean }): Promise<MessageApplied> {
  const tables = [db.messages, db.cursors, db.conversations, db.conversationRecords, db.outbox];
  return db.transaction('rw', tables, async () => {
    const message = await withEchoMarker(db, event.message);
    const id = message.conversation_id;
    if (isLocalMessage(message)) return { conversationMissing: false };
    await db.messages.put(message);

    let beyondNewest: MessageApplied['beyondNewest'];
    const cursor = await db.cursors.get(id);
    if (cursor && cursor.newestId > 0 && message.id > cursor.newestId) {
      beyondNewest = { newestId: cursor.newestId };
      if (opts.recordGap) {
        // `before` is exclusive: the gap is the ids strictly between the two held messages.
        const gap = message.id - cursor.newestId > 1 ? [{ after: cursor.newestId, before: message.id }] : [];
        await db.cursors.put({ ...cursor, newestId: message.id, gaps: [...cursor.gaps, ...gap] });
      }
    }

    const cached = (await db.conversationRecords.get(id))?.record;
    if (!cached) return { conversationMissing: true, ...(beyondNewest ? { beyondNewest } : {}) };
    const summary = event.conversation;
    let record: Conversation;
    if (event.type === 'message.created') {
      const activity = Math.max(cached.last_activity_at, summary.last_activity_at ?? message.created_at);
      record = {
        ...cached,
        last_activity_at: activity,
        timestamp: activity,
        unread_count: summary.unread_count ?? cached.unread_count,
        messages: [message],
        last_non_activity_message: message.message_type === 2 ? cached.last_non_activity_message : newest(cached.last_non_activity_message, message),
      };
    } else {
      // An edit: the preview follows if it is the message the preview shows.
      if (cached.last_non_activity_message?.id !== message.id) return { conversationMissing: false, ...(beyondNewest ? { beyondNewest } : {}) };
      record = { ...cached, last_non_activity_message: message };
    }
    await saveConversations(db, [record], 'push');
    return { conversationMissing: false, ...(beyondNewest ? { beyondNewest } : {}) };
  });
}

/**
 * A contact changed: the contacts table (when the contact is cached or one of its conversations
 * is), and the name and email the list rows and records show.
 */
export async function applyContactEvent(db: InboxDb, event: ContactEvent): Promise<void> {
  const contact = event.contact;
  await db.transaction('rw', [db.contacts, db.conversations, db.conversationRecords, db.outbox], async () => {
    const rows = await db.conversations.where('contactId').equals(contact.id).toArray();
    const known = (await db.contacts.get(contact.id)) !== undefined;
    if (!known && rows.length === 0) return;
    // What is stored: the push with the agent's own edits still on their way on top.
    const shown = await saveContact(db, contact, 'push');
    await showContactOnConversations(db, shown);
  });
}
