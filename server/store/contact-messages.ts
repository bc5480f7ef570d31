// Message history as contacts see it: the spec's id cursors (20 latest / 20 before / 100 after /
// 1000 between, oldest first), with private notes and activity messages always left out.
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { MessageRow } from './messages';

const VISIBLE = 'conversation_id = ? AND private = 0 AND message_type != 2';

export function contactMessagePage(db: Db, conversationId: number, before?: number, after?: number): MessageRow[] {
  if (before !== undefined && after !== undefined) {
    return stmt(db, `SELECT * FROM messages WHERE ${VISIBLE} AND id >= ? AND id < ? ORDER BY id ASC LIMIT 1000`).all(conversationId, after, before) as MessageRow[];
  }
  if (after !== undefined) {
    return stmt(db, `SELECT * FROM messages WHERE ${VISIBLE} AND id > ? ORDER BY id ASC LIMIT 100`).all(conversationId, after) as MessageRow[];
  }
  const older =
    before === undefined
      ? stmt(db, `SELECT * FROM messages WHERE ${VISIBLE} ORDER BY id DESC LIMIT 20`).all(conversationId)
      : stmt(db, `SELECT * FROM messages WHERE ${VISIBLE} AND id < ? ORDER BY id DESC LIMIT 20`).all(conversationId, before);
  return (older as MessageRow[]).reverse();
}
