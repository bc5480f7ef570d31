// Messages: the REST shape (§2.4) and the push_event_data shape (§2.6) used inside conversations and events.
import type { Db } from '../db/open';
import { json } from '../db/open';
import { botById } from '../store/agent-bots';
import { conversationById } from '../store/conversations';
import type { MessageRow } from '../store/messages';
import { attachmentsOf } from '../store/messages';
import { userById } from '../store/users';
import type { ContactRow } from './people';
import { agentBotPush, contactById, contactPush, userPush } from './people';
import { epoch, iso } from './time';

export type { MessageRow } from '../store/messages';

function attachments(db: Db, messageId: number) {
  const rows = attachmentsOf(db, messageId);
  return rows.map((a) => ({
    id: a.id,
    message_id: a.message_id,
    file_type: a.file_type,
    account_id: a.account_id,
    extension: a.extension,
    data_url: a.data_url ?? '',
    thumb_url: a.file_type === 'image' ? (a.thumb_url ?? '') : '',
    file_size: a.file_size ?? 0,
    width: a.width,
    height: a.height,
  }));
}

/** `known`: the sending contact's row when the caller has just read it (the Client create's scope). */
function sender(db: Db, m: MessageRow, known?: ContactRow) {
  if (m.sender_id == null) return undefined;
  if (m.sender_type === 'User') {
    const user = userById(db, m.sender_id);
    return user ? userPush(user) : undefined;
  }
  if (m.sender_type === 'Contact') {
    const contact = known?.id === m.sender_id ? known : contactById(db, m.sender_id);
    return contact ? contactPush(contact) : undefined;
  }
  if (m.sender_type === 'AgentBot') {
    const bot = botById(db, m.sender_id);
    return bot ? agentBotPush(bot) : undefined;
  }
  return undefined;
}

/** The conversation's per-account display id: URLs and message JSON use it, never the DB id. */
function displayIdOf(db: Db, conversationDbId: number): number {
  return conversationById(db, conversationDbId)?.display_id ?? 0;
}

/** REST message (§2.4). `sender` and `attachments` keys are absent when there are none. */
export function messageRest(db: Db, m: MessageRow, displayId = displayIdOf(db, m.conversation_id), echoId?: string, senderContact?: ContactRow) {
  const files = attachments(db, m.id);
  const from = sender(db, m, senderContact);
  return {
    id: m.id,
    content: m.content,
    inbox_id: m.inbox_id,
    ...(echoId === undefined ? {} : { echo_id: echoId }),
    conversation_id: displayId,
    message_type: m.message_type,
    content_type: m.content_type,
    status: m.status,
    content_attributes: json.parse(m.content_attributes),
    created_at: epoch(m.created_at),
    private: m.private === 1,
    source_id: m.source_id,
    ...(from ? { sender: from } : {}),
    ...(files.length ? { attachments: files } : {}),
  };
}

/** Message push_event_data (§2.6): all columns, plus a small conversation summary. */
export function messagePush(db: Db, m: MessageRow, conversation: { display_id: number; assignee_id: number | null; last_activity_at: number; unread_count: number; source_id: string | null }) {
  const files = attachments(db, m.id);
  const from = sender(db, m);
  return {
    id: m.id,
    content: m.content,
    account_id: m.account_id,
    inbox_id: m.inbox_id,
    conversation_id: conversation.display_id,
    message_type: m.message_type,
    created_at: epoch(m.created_at),
    updated_at: iso(m.updated_at),
    private: m.private === 1,
    status: m.status,
    source_id: m.source_id,
    content_type: m.content_type,
    content_attributes: json.parse(m.content_attributes),
    sender_type: m.sender_type,
    sender_id: m.sender_id,
    external_source_ids: {},
    additional_attributes: json.parse(m.additional_attributes),
    processed_message_content: m.content,
    sentiment: {},
    conversation: {
      assignee_id: conversation.assignee_id,
      unread_count: conversation.unread_count,
      last_activity_at: epoch(conversation.last_activity_at),
      contact_inbox: { source_id: conversation.source_id },
    },
    ...(files.length ? { attachments: files } : {}),
    ...(from ? { sender: from } : {}),
  };
}
