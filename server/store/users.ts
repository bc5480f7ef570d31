// Users (agents and administrators; accounts they belong to are account_users rows).
import type { Db } from '../db/open';
import { json, stmt } from '../db/open';

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

/** The user with this (lowercased) email, if any. */
export const userIdWithEmail = (db: Db, email: string) => (stmt(db, 'SELECT id FROM users WHERE email = ?').get(email) as { id: number } | undefined)?.id;

/** A user's accounts with their membership, the most recently active first (the profile's `accounts`). */
export interface MembershipRow {
  id: number;
  name: string;
  status: string;
  active_at: number | null;
  role: string;
  availability: string;
  auto_offline: number;
}
export const membershipsOf = (db: Db, userId: number) =>
  stmt(
    db,
    `SELECT a.id, a.name, a.status, au.active_at, au.role, au.availability, au.auto_offline
     FROM account_users au JOIN accounts a ON a.id = au.account_id
     WHERE au.user_id = ? ORDER BY au.active_at DESC NULLS LAST, a.id`,
  ).all(userId) as MembershipRow[];

/** What a user changes on their profile; fields left undefined stay. UI settings merge into the stored ones. */
export function updateProfile(
  db: Db,
  user: UserRow,
  p: { email?: string | undefined; name?: string | undefined; displayName?: string | null | undefined; messageSignature?: string | null | undefined; uiSettings?: Record<string, unknown> | undefined },
) {
  db.transaction(() => {
    if (p.email !== undefined) stmt(db, 'UPDATE users SET email = ? WHERE id = ?').run(p.email, user.id);
    if (p.name !== undefined) stmt(db, 'UPDATE users SET name = ? WHERE id = ?').run(p.name, user.id);
    if (p.displayName !== undefined) stmt(db, 'UPDATE users SET display_name = ? WHERE id = ?').run(p.displayName, user.id);
    if (p.messageSignature !== undefined) stmt(db, 'UPDATE users SET message_signature = ? WHERE id = ?').run(p.messageSignature, user.id);
    if (p.uiSettings) stmt(db, 'UPDATE users SET ui_settings = ? WHERE id = ?').run(JSON.stringify({ ...json.parse(user.ui_settings), ...p.uiSettings }), user.id);
  })();
}

/** Sets the user's availability in an account; false if not a member. */
export const setAvailability = (db: Db, accountId: number, userId: number, availability: string) =>
  stmt(db, 'UPDATE account_users SET availability = ? WHERE account_id = ? AND user_id = ?').run(availability, accountId, userId).changes > 0;

/** Replaces a user's access token: the old one stops working at once. */
export const replaceUserToken = (db: Db, userId: number, oldToken: string, newToken: string) =>
  stmt(db, "UPDATE access_tokens SET token = ? WHERE owner_type = 'User' AND owner_id = ? AND token = ?").run(newToken, userId, oldToken);

/** The user's role and availability in an account, if a member. */
export const membershipIn = (db: Db, accountId: number, userId: number) =>
  stmt(db, 'SELECT role, availability, auto_offline FROM account_users WHERE account_id = ? AND user_id = ?').get(accountId, userId) as
    | { role: string; availability: string; auto_offline: number }
    | undefined;
