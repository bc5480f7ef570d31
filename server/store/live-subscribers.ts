// Who may listen to live updates (server/live): a pubsub_token resolved to an agent of an active
// account or to a contact inbox of one, and the presence facts the ActionCable channel reports.
import type { Db } from '../db/open';
import { stmt } from '../db/open';

/** The user holding this pubsub_token, if they belong to this account and it is active. */
export function agentByPubsubToken(db: Db, token: string, accountId: number): { id: number } | undefined {
  return stmt(
    db,
    `SELECT u.id FROM users u JOIN account_users au ON au.user_id = u.id JOIN accounts a ON a.id = au.account_id
     WHERE u.pubsub_token = ? AND au.account_id = ? AND a.status = 'active'`,
  ).get(token, accountId) as { id: number } | undefined;
}

/** The contact inbox holding this pubsub_token, if its account is active. */
export function contactInboxByPubsubToken(db: Db, token: string): { id: number; contact_id: number; account_id: number } | undefined {
  return stmt(
    db,
    `SELECT ci.id, ci.contact_id, i.account_id FROM contact_inboxes ci JOIN inboxes i ON i.id = ci.inbox_id JOIN accounts a ON a.id = i.account_id
     WHERE ci.pubsub_token = ? AND a.status = 'active'`,
  ).get(token) as { id: number; contact_id: number; account_id: number } | undefined;
}

/** Every member's chosen availability and whether it follows their connection (chatwoot-compat §4.3 presence). */
export function memberAvailabilities(db: Db, accountId: number): { user_id: number; availability: string; auto_offline: number }[] {
  return stmt(db, 'SELECT user_id, availability, auto_offline FROM account_users WHERE account_id = ? ORDER BY user_id').all(accountId) as {
    user_id: number;
    availability: string;
    auto_offline: number;
  }[];
}

/** Of these display ids, the conversations this user may see in the account (an administrator: all; an agent: their inboxes'). */
export function visibleConversationIds(db: Db, accountId: number, userId: number, displayIds: number[]): number[] {
  if (!displayIds.length) return [];
  return (
    stmt(
      db,
      `SELECT c.display_id AS id FROM conversations c JOIN account_users au ON au.account_id = c.account_id AND au.user_id = ?
       WHERE c.account_id = ? AND c.display_id IN (SELECT value FROM json_each(?))
         AND (au.role = 'administrator' OR EXISTS (SELECT 1 FROM inbox_members m WHERE m.inbox_id = c.inbox_id AND m.user_id = au.user_id))`,
    ).all(userId, accountId, JSON.stringify(displayIds)) as { id: number }[]
  ).map((r) => r.id);
}
