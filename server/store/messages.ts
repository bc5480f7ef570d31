// Messages (messages, attachments): the row types and the finders the presenters and routes need beside the domain writes (writes.ts,
// message-updates.ts) and the conversation queries (conversations.ts).
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import { rows } from '../db/rows';

export interface MessageRow {
  id: number;
  account_id: number;
  inbox_id: number;
  conversation_id: number;
  message_type: number;
  content_type: string;
  content: string | null;
  private: number;
  status: string;
  source_id: string | null;
  content_attributes: string;
  additional_attributes: string;
  sender_type: string | null;
  sender_id: number | null;
  created_at: number;
  updated_at: number;
  /** The change sequence value of the row's latest insert or update (migration 5): the changes feed's order. */
  change_seq: number;
}

/** A message's attachment (attachments). */
export interface AttachmentRow {
  id: number;
  message_id: number;
  account_id: number;
  file_type: string;
  extension: string | null;
  data_url: string | null;
  thumb_url: string | null;
  file_size: number | null;
  width: number | null;
  height: number | null;
  fallback_title: string | null;
}

/** A message's attachments, in the order they were added. */
export const attachmentsOf = (db: Db, messageId: number) => rows<AttachmentRow>(db, 'SELECT * FROM attachments WHERE message_id = ? ORDER BY id').all(messageId);

/** Messages a contact may see: no private notes, no activity messages. */
export const chatMessagesOf = (db: Db, conversationId: number) =>
  stmt(db, 'SELECT * FROM messages WHERE conversation_id = ? AND private = 0 AND message_type != 2 ORDER BY id').all(conversationId) as MessageRow[];

export const messageById = (db: Db, id: number) => rows<MessageRow>(db, 'SELECT * FROM messages WHERE id = ?').get(id);

/** The content of the conversation's newest public incoming or outgoing message. */
export const latestChatContent = (db: Db, conversationId: number) =>
  (stmt(db, 'SELECT content FROM messages WHERE conversation_id = ? AND message_type IN (0, 1) AND private = 0 ORDER BY id DESC LIMIT 1').get(conversationId) as { content: string | null } | undefined)?.content;

/** A conversation's incoming and outgoing messages containing `like` (an escaped LIKE pattern), oldest first, at most 100. */
export const messagesContaining = (db: Db, conversationId: number, like: string) =>
  stmt(db, `SELECT * FROM messages WHERE conversation_id = ? AND message_type IN (0, 1) AND content LIKE ? ESCAPE '\\' ORDER BY id LIMIT 100`).all(conversationId, like) as MessageRow[];

const SENDER_TABLES = new Map([
  ['User', 'users'],
  ['Contact', 'contacts'],
  ['AgentBot', 'agent_bots'],
]);

/** The name of a message's sender (a user, contact or agent bot), if it still exists. */
export function senderNameOf(db: Db, m: Pick<MessageRow, 'sender_type' | 'sender_id'>): string | undefined {
  const table = m.sender_id == null ? undefined : SENDER_TABLES.get(m.sender_type ?? '');
  return table ? (stmt(db, `SELECT name FROM ${table} WHERE id = ?`).get(m.sender_id) as { name: string } | undefined)?.name : undefined;
}

/** Message history by id cursors (spec, Pagination): 20 latest / 20 before / 100 after / 1000 between. */
export function messagePage(db: Db, conversationId: number, before?: number, after?: number): MessageRow[] {
  if (before !== undefined && after !== undefined) {
    return stmt(db, 'SELECT * FROM messages WHERE conversation_id = ? AND id >= ? AND id < ? ORDER BY id ASC LIMIT 1000').all(conversationId, after, before) as MessageRow[];
  }
  if (after !== undefined) {
    return stmt(db, 'SELECT * FROM messages WHERE conversation_id = ? AND id > ? ORDER BY id ASC LIMIT 100').all(conversationId, after) as MessageRow[];
  }
  const older =
    before === undefined
      ? stmt(db, 'SELECT * FROM messages WHERE conversation_id = ? ORDER BY id DESC LIMIT 20').all(conversationId)
      : stmt(db, 'SELECT * FROM messages WHERE conversation_id = ? AND id < ? ORDER BY id DESC LIMIT 20').all(conversationId, before);
  return (older as MessageRow[]).reverse();
}
