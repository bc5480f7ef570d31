// Conversation REST shape (chatwoot-compat §2.1), key order as the reference service emits it.
import type { Db } from '../db/open';
import { json } from '../db/open';
import { botById } from '../store/agent-bots';
import { contactInboxById } from '../store/contact-inboxes';
import { inboxById } from '../store/inboxes';
import { userById } from '../store/users';
import type { ConversationRow } from '../store/conversations';
import { labelsOf, lastMessage, unreadCount } from '../store/conversations';
import type { MessageRow } from './message';
import { messagePush } from './message';
import { agentBotSlim, agentPartial, contactById, contactRest, teamById, teamPartial } from './people';
import { epoch, epochFloat, iso } from './time';

function sourceIdOf(db: Db, c: ConversationRow): string | null {
  if (c.contact_inbox_id == null) return null;
  return contactInboxById(db, c.contact_inbox_id)?.source_id ?? null;
}

/** `viewer` decides `team.is_member`; agent bots (user null) are members of no team. */
export function conversationRest(db: Db, c: ConversationRow, viewer: { user: { id: number } | null }) {
  const inbox = inboxById(db, c.account_id, c.inbox_id)!;
  const contact = contactById(db, c.contact_id);
  const assignee = c.assignee_id == null ? undefined : userById(db, c.assignee_id);
  const botAssignee = c.assignee_agent_bot_id == null ? undefined : botById(db, c.assignee_agent_bot_id);
  const team = c.team_id == null ? undefined : teamById(db, c.team_id);
  const hmac = c.contact_inbox_id == null ? null : contactInboxById(db, c.contact_inbox_id);
  const unread = unreadCount(db, c);
  const summary = { display_id: c.display_id, assignee_id: c.assignee_id, last_activity_at: c.last_activity_at, unread_count: unread, source_id: sourceIdOf(db, c) };
  const push = (m: MessageRow | undefined) => (m ? messagePush(db, m, summary) : null);
  const last = lastMessage(db, c.id);
  return {
    meta: {
      sender: contact ? contactRest(contact) : undefined,
      channel: inbox.channel_type,
      ...(assignee
        ? { assignee: agentPartial(db, assignee, c.account_id), assignee_type: 'User' }
        : botAssignee
          ? { assignee: agentBotSlim(botAssignee), assignee_type: 'AgentBot' }
          : {}),
      ...(team ? { team: teamPartial(db, team, viewer.user?.id ?? 0) } : {}),
      hmac_verified: hmac ? hmac.hmac_verified === 1 : null,
    },
    id: c.display_id,
    messages: last ? [push(last)] : [],
    account_id: c.account_id,
    uuid: c.uuid,
    additional_attributes: json.parse(c.additional_attributes),
    agent_last_seen_at: epoch(c.agent_last_seen_at),
    assignee_last_seen_at: epoch(c.assignee_last_seen_at),
    can_reply: true,
    contact_last_seen_at: epoch(c.contact_last_seen_at),
    custom_attributes: json.parse(c.custom_attributes),
    inbox_id: c.inbox_id,
    labels: labelsOf(db, c.id),
    muted: contact ? contact.blocked === 1 : false,
    snoozed_until: iso(c.snoozed_until),
    status: c.status,
    created_at: epoch(c.created_at),
    updated_at: epochFloat(c.updated_at),
    timestamp: epoch(c.last_activity_at),
    first_reply_created_at: epoch(c.first_reply_created_at),
    unread_count: unread,
    last_non_activity_message: push(lastMessage(db, c.id, { nonActivity: true })),
    last_activity_at: epoch(c.last_activity_at),
    priority: c.priority,
    waiting_since: epoch(c.waiting_since),
    sla_policy_id: null,
  };
}
