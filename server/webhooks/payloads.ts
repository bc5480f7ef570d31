// Webhook bodies (chatwoot-compat §5.2). Every body carries "event": <snake_case name>. Message
// bodies use string message types and ISO times; conversation bodies are the push data (§2.2);
// updates carry changed_attributes as [{attr: {previous_value, current_value}}].
import type { Db } from '../db/open';
import { json, stmt } from '../db/open';
import type { Changes, DomainEvent, Performer } from '../events/bus';
import { userById } from '../store/users';
import { conversationPush } from '../presenters/conversation-push';
import type { MessageRow } from '../presenters/message';
import { messageRest } from '../presenters/message';
import type { ContactRow } from '../presenters/people';
import { contactById, contactPush } from '../presenters/people';
import { iso } from '../presenters/time';
import type { ConversationRow } from '../store/conversations';
import type { WebhookEvent } from './events';

const MESSAGE_TYPES = ['incoming', 'outgoing', 'activity', 'template'] as const;

function accountRef(db: Db, accountId: number) {
  const a = stmt(db, 'SELECT id, name FROM accounts WHERE id = ?').get(accountId) as { id: number; name: string } | undefined;
  return a ? { id: a.id, name: a.name } : { id: accountId, name: null };
}

/** Contact#webhook_data (§2.7c): the push shape without `type`, plus the account and `avatar` (the thumbnail's URL). */
function contactWebhookData(db: Db, c: ContactRow) {
  const { type: _type, ...push } = contactPush(c);
  return { account: accountRef(db, c.account_id), avatar: push.thumbnail, ...push };
}

function actorWebhookData(db: Db, p: { type: string; id: number } | null) {
  if (!p) return null;
  if (p.type === 'User' || p.type === 'user') {
    const u = userById(db, p.id);
    return u ? { id: u.id, name: u.name, email: u.email, type: 'user' } : null;
  }
  if (p.type === 'Contact' || p.type === 'contact') {
    const c = contactById(db, p.id);
    return c ? contactWebhookData(db, c) : null;
  }
  const bot = stmt(db, 'SELECT id, name FROM agent_bots WHERE id = ?').get(p.id) as { id: number; name: string } | undefined;
  return bot ? { id: bot.id, name: bot.name, type: 'agent_bot' } : null;
}

const changedAttributes = (changes: Changes | undefined) =>
  Object.entries(changes ?? {}).map(([attr, [previous, current]]) => ({ [attr]: { previous_value: previous, current_value: current } }));

const conversationOf = (db: Db, id: number) => stmt(db, 'SELECT * FROM conversations WHERE id = ?').get(id) as ConversationRow | undefined;
const inboxRef = (db: Db, id: number) => stmt(db, 'SELECT id, name FROM inboxes WHERE id = ?').get(id) as { id: number; name: string } | undefined;

/** The body for one webhook event, or undefined when the reference service sends none. */
export function webhookBody(db: Db, event: DomainEvent, name: WebhookEvent): Record<string, unknown> | undefined {
  switch (event.name) {
    case 'message.created':
    case 'message.updated': {
      const m = stmt(db, 'SELECT * FROM messages WHERE id = ?').get(event.messageId) as MessageRow | undefined;
      const c = conversationOf(db, event.conversationId);
      // Only incoming, outgoing and template messages; private notes are included (flagged).
      if (!m || !c || m.message_type === 2) return undefined;
      const rest = messageRest(db, m, c.display_id);
      return {
        account: accountRef(db, m.account_id),
        additional_attributes: json.parse(m.additional_attributes),
        content_attributes: rest.content_attributes,
        content_type: m.content_type,
        content: m.content,
        conversation: conversationPush(db, c),
        created_at: iso(m.created_at),
        id: m.id,
        inbox: inboxRef(db, m.inbox_id) ?? null,
        message_type: MESSAGE_TYPES[m.message_type] ?? 'incoming',
        private: m.private === 1,
        sender: actorWebhookData(db, m.sender_type && m.sender_id != null ? { type: m.sender_type, id: m.sender_id } : null),
        source_id: m.source_id,
        ...(rest.attachments ? { attachments: rest.attachments } : {}),
        ...(event.name === 'message.updated' && event.changes ? { changed_attributes: changedAttributes(event.changes) } : {}),
        event: name,
      };
    }
    case 'conversation.created':
    case 'conversation.status_changed':
    case 'conversation.updated': {
      const c = conversationOf(db, event.conversationId);
      if (!c) return undefined;
      return { ...conversationPush(db, c), event: name, ...(event.name === 'conversation.created' ? {} : { changed_attributes: changedAttributes(event.changes) }) };
    }
    case 'contact.created':
    case 'contact.updated': {
      const c = contactById(db, event.contactId);
      if (!c) return undefined;
      if (event.name === 'contact.updated') {
        if (!event.changes || !Object.keys(event.changes).length) return undefined;
        return { ...contactWebhookData(db, c), event: name, changed_attributes: changedAttributes(event.changes) };
      }
      return { ...contactWebhookData(db, c), event: name };
    }
    case 'conversation.typing_on':
    case 'conversation.typing_off': {
      const c = conversationOf(db, event.conversationId);
      if (!c) return undefined;
      return { event: name, user: actorWebhookData(db, event.typer as Performer), conversation: conversationPush(db, c), is_private: event.isPrivate };
    }
    default:
      return undefined;
  }
}
