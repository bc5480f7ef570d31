// Turns a domain event into what a socket receives (chatwoot-compat §4.3): the event name, its data
// payload (with `account_id` merged, and `performer` where the reference service keeps it), the
// rooms it goes to, and the rooms left out (the typer never hears its own typing).
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { DomainEvent, Performer } from '../events/bus';
import { userById } from '../store/users';
import { conversationPush, messageConversationSummary } from '../presenters/conversation-push';
import { messagePush } from '../presenters/message';
import { notificationEventPayload } from '../presenters/notification';
import { contactById, contactPush, userPush } from '../presenters/people';
import { conversationById } from '../store/conversations';
import { messageById } from '../store/messages';
import { agentRooms, contactRooms, rooms } from './rooms';

export interface LiveDelivery {
  name: string;
  data: Record<string, unknown>;
  to: string[];
  except: string[];
}

/** Only a request made by an agent (or bot) carries a performer (Current.user in the reference). */
function performerPush(db: Db, p: Performer | undefined) {
  if (p?.type === 'user') {
    const u = userById(db, p.id);
    return u ? userPush(u) : undefined;
  }
  if (p?.type === 'agent_bot') {
    const bot = stmt(db, 'SELECT id, name FROM agent_bots WHERE id = ?').get(p.id) as { id: number; name: string } | undefined;
    return bot ? { id: bot.id, name: bot.name, avatar_url: '', type: 'agent_bot' } : undefined;
  }
  return undefined;
}

/** The user or contact push data of whoever is typing. */
function typerPush(db: Db, p: Performer) {
  if (p.type === 'contact') {
    const c = contactById(db, p.id);
    return c ? contactPush(c) : null;
  }
  return performerPush(db, p) ?? null;
}

/** Events whose conversation payload is re-read fresh: the reference drops `performer` on these. */
const RELOADED = new Set(['conversation.read', 'conversation.updated', 'team.changed', 'assignee.changed', 'conversation.status_changed']);
/** Conversation events that reach the contact as well as the agents. */
const TO_CONTACT = new Set(['conversation.created', 'conversation.status_changed', 'conversation.updated']);

export function liveDelivery(db: Db, event: DomainEvent): LiveDelivery | undefined {
  const withPerformer = (data: Record<string, unknown>, p?: Performer) => {
    const performer = performerPush(db, p);
    return { ...data, account_id: event.accountId, ...(performer ? { performer } : {}) };
  };
  switch (event.name) {
    case 'message.created':
    case 'message.updated': {
      const m = messageById(db, event.messageId);
      const c = conversationById(db, event.conversationId);
      if (!m || !c) return undefined;
      const data: Record<string, unknown> = { ...messagePush(db, m, messageConversationSummary(db, c)), ...(event.echoId === undefined ? {} : { echo_id: event.echoId }) };
      if (event.name === 'message.updated' && event.changes) data.previous_changes = event.changes;
      const internal = m.private === 1 || m.message_type === 2;
      return { name: event.name, data: withPerformer(data, event.performer), to: [...agentRooms(db, c.account_id, c.inbox_id), ...(internal ? [] : contactRooms(db, c))], except: [] };
    }
    case 'conversation.created':
    case 'conversation.status_changed':
    case 'conversation.updated':
    case 'conversation.read':
    case 'conversation.contact_changed':
    case 'assignee.changed':
    case 'team.changed': {
      const c = conversationById(db, event.conversationId);
      if (!c) return undefined;
      const data = RELOADED.has(event.name) ? { ...conversationPush(db, c), account_id: event.accountId } : withPerformer(conversationPush(db, c), event.performer);
      return { name: event.name, data, to: [...agentRooms(db, c.account_id, c.inbox_id), ...(TO_CONTACT.has(event.name) ? contactRooms(db, c) : [])], except: [] };
    }
    case 'conversation.mentioned': {
      const c = conversationById(db, event.conversationId);
      if (!c) return undefined;
      return { name: event.name, data: withPerformer(conversationPush(db, c), event.performer), to: [rooms.agent(event.accountId, event.userId)], except: [] };
    }
    case 'conversation.typing_on':
    case 'conversation.typing_off': {
      const c = conversationById(db, event.conversationId);
      if (!c) return undefined;
      const data = { conversation: conversationPush(db, c), user: typerPush(db, event.typer), is_private: event.isPrivate, account_id: event.accountId };
      // A private-note typing indicator stays with the agents; the typer never hears itself.
      const to = [...agentRooms(db, c.account_id, c.inbox_id), ...(event.isPrivate ? [] : contactRooms(db, c))];
      const except = [event.typer.type === 'contact' ? rooms.contact(event.typer.id) : rooms.user(event.typer.id)];
      return { name: event.name, data, to, except };
    }
    case 'contact.created':
    case 'contact.updated':
    case 'contact.merged':
    case 'contact.deleted': {
      const c = contactById(db, event.contactId);
      const data = c ? contactPush(c) : event.snapshot;
      if (!data) return undefined;
      return { name: event.name, data: { ...data, account_id: event.accountId }, to: [rooms.account(event.accountId)], except: [] };
    }
    case 'account.cache_invalidated':
      // Chatwoot sends every collection's key; only the one that changed moves, which is what a client compares.
      return { name: event.name, data: { cache_keys: { [event.changed]: event.at }, account_id: event.accountId }, to: [rooms.account(event.accountId)], except: [] };
    case 'notification.created':
    case 'notification.updated':
    case 'notification.deleted': {
      const data = notificationEventPayload(db, event);
      if (!data) return undefined;
      return { name: event.name, data: { ...data, account_id: event.accountId }, to: [rooms.agent(event.accountId, event.userId)], except: [] };
    }
  }
}
