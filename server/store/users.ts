// Users (agents and administrators; accounts they belong to are account_users rows).
import type { Db } from '../db/open';
import { stmt } from '../db/open';

export interface UserRow {
  id: number;
  name: string;
  display_name: string | null;
  email: string;
  pubsub_token: string;
  message_signature: string | null;
  ui_settings: string;
  created_at: number;
}

export function userById(db: Db, id: number): UserRow | undefined {
  return stmt(db, 'SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

/** Users of the account among `userIds` (the rest are not the account's: the caller gets 401 "Invalid User IDs"). */
export function accountUserIds(db: Db, accountId: number, userIds: number[]): number[] {
  return userIds.filter((id) => stmt(db, 'SELECT 1 FROM account_users WHERE account_id = ? AND user_id = ?').get(accountId, id));
}

/** A user's role in an account, if a member. */
export const roleIn = (db: Db, accountId: number, userId: number) =>
  (stmt(db, 'SELECT role FROM account_users WHERE account_id = ? AND user_id = ?').get(accountId, userId) as { role: string } | undefined)?.role;
