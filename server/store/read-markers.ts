// An agent's read markers on a conversation (chatwoot-compat §1.2 update_last_seen, unread). Written
// without events and without touching updated_at, as the reference service does (update_column).
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { Precondition } from '../http/preconditions';
import type { ConversationRow } from './conversations';
import { requireRevision } from './conversations';

const fresh = (db: Db, id: number) => stmt(db, 'SELECT * FROM conversations WHERE id = ?').get(id) as ConversationRow;

/**
 * The agent read the conversation now; the assignee's marker moves too when the reader is the assignee.
 * With a precondition (If-Match), checked in the same transaction first.
 */
export function markAgentSeen(db: Db, c: ConversationRow, userId: number, now: number, precondition?: Precondition): ConversationRow {
  return db.transaction(() => {
    requireRevision(db, c.id, precondition);
    const isAssignee = c.assignee_id === userId;
    stmt(db, 'UPDATE conversations SET agent_last_seen_at = ?, assignee_last_seen_at = CASE WHEN ? THEN ? ELSE assignee_last_seen_at END WHERE id = ?').run(now, isAssignee ? 1 : 0, now, c.id);
    return fresh(db, c.id);
  })();
}

/** Marks unread: both markers move to one second before the newest incoming message (null without one). */
export function markUnread(db: Db, c: ConversationRow, precondition?: Precondition): ConversationRow {
  return db.transaction(() => {
    requireRevision(db, c.id, precondition);
    const last = stmt(db, 'SELECT MAX(created_at) AS at FROM messages WHERE conversation_id = ? AND message_type = 0').get(c.id) as { at: number | null };
    const seen = last.at === null ? null : last.at - 1000;
    stmt(db, 'UPDATE conversations SET agent_last_seen_at = ?, assignee_last_seen_at = ? WHERE id = ?').run(seen, seen, c.id);
    return fresh(db, c.id);
  })();
}
