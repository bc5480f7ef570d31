// Conversation push data (chatwoot-compat §2.2): the conversation as live events and webhooks carry
// it. Differs from the REST shape (§2.1): meta keys always present (null allowed), only the last
// chat message (never private or activity), ISO first_reply_created_at.
// Deliberate deviation: the contact_inbox record omits `pubsub_token`, the contact's live-update
// credential, because this payload also leaves the service in webhook deliveries.
import type { Db } from '../db/open';
import { json } from '../db/open';
import { botById } from '../store/agent-bots';
import { contactInboxById } from '../store/contact-inboxes';
import { inboxById } from '../store/inboxes';
import { userById } from '../store/users';
import type { ConversationRow } from '../store/conversations';
import { labelsOf, lastMessage, unreadCount } from '../store/conversations';
import { messagePush } from './message';
import { agentBotPush, contactById, contactPush, teamById, userPush } from './people';
import { epoch, epochFloat, iso } from './time';

function contactInboxRecord(db: Db, id: number | null) {
  if (id == null) return null;
  const ci = contactInboxById(db, id);
  if (!ci) return null;
  return { id: ci.id, contact_id: ci.contact_id, inbox_id: ci.inbox_id, source_id: ci.source_id, created_at: iso(ci.created_at), updated_at: iso(ci.updated_at), hmac_verified: ci.hmac_verified === 1 };
}

/** The message push's conversation summary (§2.6 `conversation`). */
export function messageConversationSummary(db: Db, c: ConversationRow) {
  const ci = contactInboxRecord(db, c.contact_inbox_id);
  return { display_id: c.display_id, assignee_id: c.assignee_id, last_activity_at: c.last_activity_at, unread_count: unreadCount(db, c), source_id: ci?.source_id ?? null };
}

export function conversationPush(db: Db, c: ConversationRow) {
  const inbox = inboxById(db, c.account_id, c.inbox_id);
  const contact = contactById(db, c.contact_id);
  const user = c.assignee_id == null ? undefined : userById(db, c.assignee_id);
  const bot = c.assignee_agent_bot_id == null ? undefined : botById(db, c.assignee_agent_bot_id);
  const team = c.team_id == null ? undefined : teamById(db, c.team_id);
  const ci = contactInboxRecord(db, c.contact_inbox_id);
  const unread = unreadCount(db, c);
  const last = lastMessage(db, c.id, { chatOnly: true });
  return {
    additional_attributes: json.parse(c.additional_attributes),
    can_reply: true,
    channel: inbox?.channel_type ?? null,
    contact_inbox: ci,
    id: c.display_id,
    inbox_id: c.inbox_id,
    messages: last ? [messagePush(db, last, { display_id: c.display_id, assignee_id: c.assignee_id, last_activity_at: c.last_activity_at, unread_count: unread, source_id: ci?.source_id ?? null })] : [],
    labels: labelsOf(db, c.id),
    meta: {
      sender: contact ? contactPush(contact) : null,
      assignee: user ? userPush(user) : bot ? agentBotPush(bot) : null,
      assignee_type: user ? 'User' : bot ? 'AgentBot' : null,
      team: team ? { id: team.id, name: team.name } : null,
      hmac_verified: ci ? ci.hmac_verified : null,
    },
    status: c.status,
    custom_attributes: json.parse(c.custom_attributes),
    snoozed_until: iso(c.snoozed_until),
    unread_count: unread,
    first_reply_created_at: iso(c.first_reply_created_at),
    priority: c.priority,
    waiting_since: epoch(c.waiting_since),
    agent_last_seen_at: epoch(c.agent_last_seen_at),
    contact_last_seen_at: epoch(c.contact_last_seen_at),
    last_activity_at: epoch(c.last_activity_at),
    timestamp: epoch(c.last_activity_at),
    created_at: epoch(c.created_at),
    updated_at: epochFloat(c.updated_at),
  };
}
