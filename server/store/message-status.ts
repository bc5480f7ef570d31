// A message's delivery status as an API channel reports it (chatwoot-compat §1: PATCH/PUT
// messages/{id}): sent → delivered → read, or failed with the reason in
// `content_attributes.external_error`. An unknown status, or read going back to delivered, changes
// nothing (silently, as the reference service does); the reason is kept only with `failed`.
import type { Db } from '../db/open';
import { json, stmt } from '../db/open';
import type { MessageRow } from '../presenters/message';

const messageStatuses = ['sent', 'delivered', 'read', 'failed'] as const;
export type MessageStatus = (typeof messageStatuses)[number];

/** Whether the message's inbox is an API channel: only those take status updates. */
export function isApiInbox(db: Db, inboxId: number): boolean {
  return (stmt(db, 'SELECT channel_type FROM inboxes WHERE id = ?').get(inboxId) as { channel_type: string } | undefined)?.channel_type === 'Channel::Api';
}

/** The new status and attributes, or undefined when the update is to be ignored. */
export function statusChange(m: Pick<MessageRow, 'status' | 'content_attributes'>, status: string | undefined, externalError: string | undefined) {
  if (!status || !(messageStatuses as readonly string[]).includes(status)) return undefined;
  if (m.status === 'read' && status === 'delivered') return undefined;
  const attributes = json.parse(m.content_attributes) as Record<string, unknown>;
  if (status === 'failed' && externalError !== undefined) attributes.external_error = externalError;
  return { status: status as MessageStatus, attributes };
}

export function saveMessageStatus(db: Db, messageId: number, status: MessageStatus, attributes: Record<string, unknown>, now: number): MessageRow {
  stmt(db, 'UPDATE messages SET status = ?, content_attributes = ?, updated_at = ? WHERE id = ?').run(status, JSON.stringify(attributes), now, messageId);
  return stmt(db, 'SELECT * FROM messages WHERE id = ?').get(messageId) as MessageRow;
}
