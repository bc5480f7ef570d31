// Message finders the presenters and routes need beside the domain writes (writes.ts,
// message-updates.ts) and the conversation queries (conversations.ts).
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { MessageRow } from '../presenters/message';

export const messageById = (db: Db, id: number) => stmt(db, 'SELECT * FROM messages WHERE id = ?').get(id) as MessageRow | undefined;

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
