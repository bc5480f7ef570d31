// Message finders the presenters and routes need beside the domain writes (writes.ts,
// message-updates.ts) and the conversation queries (conversations.ts).
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { MessageRow } from '../presenters/message';

export const messageById = (db: Db, id: number) => stmt(db, 'SELECT * FROM messages WHERE id = ?').get(id) as MessageRow | undefined;

/** The content of the conversation's newest public incoming or outgoing message. */
export const latestChatContent = (db: Db, conversationId: number) =>
  (stmt(db, 'SELECT content FROM messages WHERE conversation_id = ? AND message_type IN (0, 1) AND private = 0 ORDER BY id DESC LIMIT 1').get(conversationId) as { content: string | null } | undefined)?.content;
