// The inboxes table and what hangs off an inbox: its agents (inbox_members) and its agent bot
// (agent_bot_inboxes). Creating one goes through provision.ts#createInbox (the admin CLI and the
// demo seed make them too).
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import { deleteConversation } from './conversations';

export interface InboxRow {
  id: number;
  account_id: number;
  name: string;
  channel_type: string;
  channel_id: number;
  identifier: string | null;
  website_token: string | null;
  hmac_token: string;
  hmac_mandatory: number;
  webhook_url: string | null;
  settings: string;
  created_at: number;
}

export const inboxById = (db: Db, accountId: number, id: number) => stmt(db, 'SELECT * FROM inboxes WHERE id = ? AND account_id = ?').get(id, accountId) as InboxRow | undefined;

export const inboxesOfAccount = (db: Db, accountId: number) => stmt(db, 'SELECT * FROM inboxes WHERE account_id = ? ORDER BY id').all(accountId) as InboxRow[];

/** Name, webhook URL, identity verification and settings (merged into what is stored). */
export function updateInbox(db: Db, row: InboxRow, change: { name?: string; webhookUrl?: string | null; hmacMandatory?: boolean; settings?: Record<string, unknown> }): InboxRow {
  const settings = { ...(JSON.parse(row.settings) as Record<string, unknown>), ...(change.settings ?? {}) };
  stmt(db, 'UPDATE inboxes SET name = ?, webhook_url = ?, hmac_mandatory = ?, settings = ? WHERE id = ?').run(
    change.name ?? row.name,
    change.webhookUrl === undefined ? row.webhook_url : change.webhookUrl,
    change.hmacMandatory === undefined ? row.hmac_mandatory : Number(change.hmacMandatory),
    JSON.stringify(settings),
    row.id,
  );
  return stmt(db, 'SELECT * FROM inboxes WHERE id = ?').get(row.id) as InboxRow;
}

/**
 * Deletes an inbox with its conversations (and their messages), contact inboxes, members, bot,
 * policy binding and inbox webhooks, in one transaction. Contacts stay (they belong to the account).
 */
export function deleteInbox(db: Db, inboxId: number): void {
  db.transaction(() => {
    const conversations = stmt(db, 'SELECT id FROM conversations WHERE inbox_id = ?').all(inboxId) as { id: number }[];
    for (const c of conversations) deleteConversation(db, c.id);
    stmt(db, 'DELETE FROM contact_inboxes WHERE inbox_id = ?').run(inboxId);
    stmt(db, 'DELETE FROM inbox_members WHERE inbox_id = ?').run(inboxId);
    stmt(db, 'DELETE FROM agent_bot_inboxes WHERE inbox_id = ?').run(inboxId);
    stmt(db, 'DELETE FROM inbox_assignment_policies WHERE inbox_id = ?').run(inboxId);
    stmt(db, 'DELETE FROM webhooks WHERE inbox_id = ?').run(inboxId);
    stmt(db, 'DELETE FROM inboxes WHERE id = ?').run(inboxId);
  })();
}

/** The agents of an inbox, by user id. */
export const inboxMemberIds = (db: Db, inboxId: number) => (stmt(db, 'SELECT user_id FROM inbox_members WHERE inbox_id = ? ORDER BY user_id').all(inboxId) as { user_id: number }[]).map((r) => r.user_id);

export function addInboxMembers(db: Db, inboxId: number, userIds: number[]) {
  for (const id of userIds) stmt(db, 'INSERT OR IGNORE INTO inbox_members (inbox_id, user_id) VALUES (?, ?)').run(inboxId, id);
}

export function removeInboxMembers(db: Db, inboxId: number, userIds: number[]) {
  for (const id of userIds) stmt(db, 'DELETE FROM inbox_members WHERE inbox_id = ? AND user_id = ?').run(inboxId, id);
}

/** Sets the exact member list. */
export function setInboxMembers(db: Db, inboxId: number, userIds: number[]) {
  db.transaction(() => {
    removeInboxMembers(db, inboxId, inboxMemberIds(db, inboxId).filter((id) => !userIds.includes(id)));
    addInboxMembers(db, inboxId, userIds);
  })();
}
