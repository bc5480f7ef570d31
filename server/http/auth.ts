// Application-family authentication: the `api_access_token` header names a user (or agent bot);
// the account in the path must be one the user belongs to. Another account is a 404, exactly as
// if it did not exist (the spec: cross-tenant requests are indistinguishable from non-existence).
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import { notFound, notSignedIn, unauthorized } from './errors';

export type Role = 'administrator' | 'agent';
export interface UserRow {
  id: number;
  name: string;
  display_name: string | null;
  email: string;
  pubsub_token: string;
  created_at: number;
}
export interface Actor {
  kind: 'user' | 'bot';
  id: number;
  token: string;
}
export interface AccountScope {
  accountId: number;
  accountName: string;
  role: Role;
  user: UserRow;
}

function headerToken(request: FastifyRequest): string | undefined {
  const value = request.headers['api_access_token'] ?? request.headers['api-access-token'];
  return Array.isArray(value) ? value[0] : value;
}

/** Who is calling: 401 `{errors}` without a header, 401 `{error: Invalid Access Token}` with a wrong one. */
export function authenticate(db: Db, request: FastifyRequest): Actor {
  const token = headerToken(request);
  if (token === undefined || token === '') throw notSignedIn();
  const row = stmt(db, 'SELECT owner_type, owner_id FROM access_tokens WHERE token = ?').get(token) as
    | { owner_type: 'User' | 'AgentBot'; owner_id: number }
    | undefined;
  if (!row) throw unauthorized('Invalid Access Token');
  return { kind: row.owner_type === 'User' ? 'user' : 'bot', id: row.owner_id, token };
}

export function userById(db: Db, id: number): UserRow | undefined {
  return stmt(db, 'SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

/** The caller's membership in the account of the path; 404 for any account it is not in. */
export function requireAccount(db: Db, actor: Actor, accountId: number): AccountScope {
  if (actor.kind !== 'user') throw unauthorized('Access to this endpoint is not authorized for bots');
  const row = stmt(
    db,
    `SELECT a.id, a.name, a.status, au.role FROM accounts a
     JOIN account_users au ON au.account_id = a.id AND au.user_id = ?
     WHERE a.id = ?`,
  ).get(actor.id, accountId) as { id: number; name: string; status: string; role: Role } | undefined;
  if (!row) throw notFound();
  if (row.status === 'suspended') throw unauthorized('Account is suspended');
  const user = userById(db, actor.id);
  if (!user) throw unauthorized('Invalid Access Token');
  return { accountId: row.id, accountName: row.name, role: row.role, user };
}

/** Inbox ids the user may see: administrators see every inbox of the account, agents their own. */
export function visibleInboxIds(db: Db, scope: AccountScope): number[] {
  const rows =
    scope.role === 'administrator'
      ? stmt(db, 'SELECT id FROM inboxes WHERE account_id = ?').all(scope.accountId)
      : stmt(db, 'SELECT i.id FROM inboxes i JOIN inbox_members m ON m.inbox_id = i.id WHERE i.account_id = ? AND m.user_id = ?').all(
          scope.accountId,
          scope.user.id,
        );
  return (rows as { id: number }[]).map((r) => r.id);
}
