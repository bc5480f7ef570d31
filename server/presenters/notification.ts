// Notifications (chatwoot-compat §2.14): the list item, and the raw model that mark-read, unread and
// snooze return.
import type { Db } from '../db/open';
import { json } from '../db/open';
import { botById } from '../store/agent-bots';
import { inboxById } from '../store/inboxes';
import { latestChatContent, messageById } from '../store/messages';
import type { NotificationRow } from '../store/notifications';
import { notificationById, notificationCounts } from '../store/notifications';
import { userById } from '../store/users';
import type { ConversationRow } from '../store/conversations';
import { conversationById } from '../store/conversations';
import { conversationPush } from './conversation-push';
import type { MessageRow } from './message';
import { messagePush } from './message';
import { agentBotPush, contactById, userPush } from './people';
import { epoch, iso } from './time';

const excerpt = (text: string | null | undefined, max = 120) => {
  const t = (text ?? '').replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

function titleOf(db: Db, n: NotificationRow, c: ConversationRow): string {
  switch (n.notification_type) {
    case 'conversation_creation': {
      const inbox = inboxById(db, c.account_id, c.inbox_id);
      return `A conversation (#${c.display_id}) has been created in ${inbox?.name ?? 'an inbox'}`;
    }
    case 'conversation_assignment':
      return `A conversation (#${c.display_id}) has been assigned to you`;
    case 'conversation_mention':
      return `You have been mentioned in conversation (#${c.display_id})`;
    default:
      return `A new message is created in conversation (#${c.display_id})`;
  }
}

function secondaryOf(db: Db, n: NotificationRow, c: ConversationRow | undefined) {
  if (n.secondary_actor_id == null) return { actor: null, message: undefined };
  if (n.secondary_actor_type === 'Message') {
    const m = messageById(db, n.secondary_actor_id);
    if (!m || !c) return { actor: null, message: undefined };
    return { actor: messagePush(db, m, { display_id: c.display_id, assignee_id: c.assignee_id, last_activity_at: c.last_activity_at, unread_count: 0, source_id: null }), message: m };
  }
  if (n.secondary_actor_type === 'User') {
    const u = userById(db, n.secondary_actor_id);
    return { actor: u ? userPush(u) : null, message: undefined };
  }
  const b = botById(db, n.secondary_actor_id);
  return { actor: b ? agentBotPush(b) : null, message: undefined };
}

function senderName(db: Db, m: MessageRow): string {
  if (m.sender_type === 'User' && m.sender_id != null) return userById(db, m.sender_id)?.name ?? 'Someone';
  if (m.sender_type === 'Contact' && m.sender_id != null) return contactById(db, m.sender_id)?.name || 'Contact';
  if (m.sender_type === 'AgentBot' && m.sender_id != null) return botById(db, m.sender_id)?.name ?? 'Bot';
  return 'Someone';
}

export function notificationItem(db: Db, n: NotificationRow) {
  const c = conversationById(db, n.primary_actor_id);
  const user = userById(db, n.user_id);
  const { actor, message } = secondaryOf(db, n, c);
  const body = message
    ? `${senderName(db, message)}: ${excerpt(message.content)}`
    : excerpt(c ? latestChatContent(db, c.id) : undefined);
  return {
    id: n.id,
    notification_type: n.notification_type,
    push_message_title: c ? titleOf(db, n, c) : '',
    push_message_body: body,
    primary_actor_type: n.primary_actor_type,
    primary_actor_id: n.primary_actor_id,
    primary_actor: c ? conversationPush(db, c) : null,
    read_at: iso(n.read_at),
    secondary_actor: actor,
    user: user ? userPush(user) : null,
    created_at: epoch(n.created_at),
    last_activity_at: epoch(n.last_activity_at),
    snoozed_until: iso(n.snoozed_until),
    meta: json.parse(n.meta),
  };
}

/** The model's own columns, as `render json: notification` gives them. */
export function notificationRaw(n: NotificationRow) {
  return {
    id: n.id,
    user_id: n.user_id,
    account_id: n.account_id,
    notification_type: n.notification_type,
    primary_actor_type: n.primary_actor_type,
    primary_actor_id: n.primary_actor_id,
    secondary_actor_type: n.secondary_actor_type,
    secondary_actor_id: n.secondary_actor_id,
    read_at: iso(n.read_at),
    snoozed_until: iso(n.snoozed_until),
    last_activity_at: iso(n.last_activity_at),
    meta: json.parse(n.meta),
    created_at: iso(n.created_at),
    updated_at: iso(n.updated_at),
  };
}

/**
 * The live-update payload of `notification.created/updated/deleted` (chatwoot-compat §4.3):
 * `{notification, unread_count, count}`, counts over the user's notifications in that account.
 * A deleted notification is only `{id}`.
 */
export function notificationEventPayload(db: Db, e: { name: string; accountId: number; userId: number; notificationId: number }) {
  const counts = notificationCounts(db, e);
  if (e.name === 'notification.deleted') return { notification: { id: e.notificationId }, ...counts };
  const row = notificationById(db, e.notificationId);
  if (!row) return undefined;
  return { notification: { ...notificationItem(db, row), account_id: row.account_id }, ...counts };
}
