// The changes feed's reads (SYNC-PROTOCOL.md, "The changes feed"). Migration 5's triggers give every
// insert or update of a conversation or a message, and every conversation deletion, the next value of
// one database-wide sequence; a cursor is a position in it. Rows keep only their latest value, so a
// conversation or message changed twice after a cursor is listed once, at its latest change, in its
// current state.
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { MessageRow } from './messages';
import type { ConversationRow } from './conversations';

export interface ChangeSequenceRow {
  value: number;
  /** Random per database: a cursor naming another epoch came from another (or a reset) database. */
  epoch: string;
}

export interface RemovalRow {
  change_seq: number;
  account_id: number;
  inbox_id: number;
  display_id: number;
}

export type ChangedMessage = MessageRow & { display_id: number };

export interface ChangePage {
  conversations: ConversationRow[];
  messages: ChangedMessage[];
  removals: RemovalRow[];
  /** Where the next page starts: after the last item listed, or the sequence's end when nothing is left. */
  next: number;
  more: boolean;
}

export const changeSequence = (db: Db) => stmt(db, 'SELECT value, epoch FROM change_sequence WHERE id = 1').get() as ChangeSequenceRow;

/**
 * What changed after `since` in the account's inboxes `inboxIds`, in change order, at most `limit`
 * items (conversations, messages and removals together). One read transaction, so the page and the
 * end of the sequence are one snapshot (another process may write the same database file).
 */
export function changesSince(db: Db, accountId: number, inboxIds: number[], since: number, limit: number): ChangePage {
  return db.transaction(() => {
    const inboxes = JSON.stringify(inboxIds);
    const conversations = stmt(
      db,
      'SELECT * FROM conversations WHERE account_id = ? AND change_seq > ? AND inbox_id IN (SELECT value FROM json_each(?)) ORDER BY change_seq LIMIT ?',
    ).all(accountId, since, inboxes, limit + 1) as ConversationRow[];
    const messages = stmt(
      db,
      `SELECT m.*, c.display_id AS display_id FROM messages m JOIN conversations c ON c.id = m.conversation_id
       WHERE m.account_id = ? AND m.change_seq > ? AND m.inbox_id IN (SELECT value FROM json_each(?)) ORDER BY m.change_seq LIMIT ?`,
    ).all(accountId, since, inboxes, limit + 1) as ChangedMessage[];
    const removals = stmt(
      db,
      'SELECT * FROM conversation_removals WHERE account_id = ? AND change_seq > ? AND inbox_id IN (SELECT value FROM json_each(?)) ORDER BY change_seq LIMIT ?',
    ).all(accountId, since, inboxes, limit + 1) as RemovalRow[];
    const end = changeSequence(db).value;

    const order = [...conversations, ...messages, ...removals].map((r) => r.change_seq).sort((a, b) => a - b);
    if (order.length <= limit) return { conversations, messages, removals, next: end, more: false };
    const last = order[limit - 1]!;
    const upTo = <T extends { change_seq: number }>(rows: T[]) => rows.filter((r) => r.change_seq <= last);
    return { conversations: upTo(conversations), messages: upTo(messages), removals: upTo(removals), next: last, more: true };
  })();
}
