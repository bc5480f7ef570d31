// Changes to a sent message, each emitting `message.updated` with what changed (chatwoot-compat
// §2.6 `previous_changes`): the soft delete, a delivery status an API channel reports, and the
// values a contact submits to an interactive message (a CSAT survey).
import type { Db } from '../db/open';
import { json, stmt } from '../db/open';
import type { MessageRow } from './messages';
import type { ConversationRow } from './conversations';
import type { WriteContext } from './writes';
import { commit } from './writes';

export const messageOf = (db: Db, conversationId: number, id: number) =>
  stmt(db, 'SELECT * FROM messages WHERE id = ? AND conversation_id = ?').get(id, conversationId) as MessageRow | undefined;

const DELETED = 'This message was deleted';

/** The reference's soft delete: the message stays in the timeline, its text replaced and its attachments gone. */
export function softDeleteMessage(ctx: WriteContext, c: ConversationRow, m: MessageRow): MessageRow {
  return commit(ctx, (events) => {
    const before = json.parse(m.content_attributes);
    const attributes = { ...before, deleted: true };
    stmt(ctx.db, "UPDATE messages SET content = ?, content_type = 'text', content_attributes = ?, updated_at = ? WHERE id = ?").run(DELETED, JSON.stringify(attributes), ctx.now, m.id);
    stmt(ctx.db, 'DELETE FROM attachments WHERE message_id = ?').run(m.id);
    events.push({
      name: 'message.updated',
      accountId: c.account_id,
      conversationId: c.id,
      messageId: m.id,
      changes: { content: [m.content, DELETED], content_attributes: [before, attributes] },
      performer: ctx.performer!,
    });
    return stmt(ctx.db, 'SELECT * FROM messages WHERE id = ?').get(m.id) as MessageRow;
  });
}

/**
 * A new status and/or content attributes merged into the stored ones. Nothing changes (and nothing
 * is emitted) when both are what they were.
 */
export function updateMessage(ctx: WriteContext, c: ConversationRow, m: MessageRow, change: { status?: string; contentAttributes?: Record<string, unknown> }): MessageRow {
  const before = json.parse(m.content_attributes);
  const attributes = change.contentAttributes ? { ...before, ...change.contentAttributes } : before;
  const status = change.status ?? m.status;
  const changes: Record<string, [unknown, unknown]> = {};
  if (status !== m.status) changes.status = [m.status, status];
  if (JSON.stringify(attributes) !== JSON.stringify(before)) changes.content_attributes = [before, attributes];
  if (!Object.keys(changes).length) return m;
  return commit(ctx, (events) => {
    stmt(ctx.db, 'UPDATE messages SET status = ?, content_attributes = ?, updated_at = ? WHERE id = ?').run(status, JSON.stringify(attributes), ctx.now, m.id);
    events.push({ name: 'message.updated', accountId: c.account_id, conversationId: c.id, messageId: m.id, changes, ...(ctx.performer ? { performer: ctx.performer } : {}) });
    return stmt(ctx.db, 'SELECT * FROM messages WHERE id = ?').get(m.id) as MessageRow;
  });
}
