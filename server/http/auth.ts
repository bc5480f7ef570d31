// Application-family authentication: the `api_access_token` header names a user (or agent bot);
// the account in the path must be one the caller belongs to. Another account is a 404, exactly as
// if it did not exist (the spec: cross-tenant requests are indistinguishable from non-existence).
// Inside the account, a role that does not permit the action is a 401 (chatwoot-compat §6.1).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { Performer } from '../events/bus';
import type { BotRow } from '../store/agent-bots';
import { botById } from '../store/agent-bots';
import type { UserRow } from '../store/users';
import { userById } from '../store/users';
import { forbidden, notAuthorized, notFound, notSignedIn, unauthorized } from './errors';

export type Role = 'administrator' | 'agent';
export interface Actor {
  kind: 'user' | 'bot';
  id: number;
  token: string;
}

/** Whoever acts in an account: a member user, or an agent bot on the bot-accessible endpoints. */
export interface Caller {
  accountId: number;
  accountName: string;
  role: Role | 'bot';
  user: UserRow | null;
  bot: BotRow | null;
  actor: Actor;
  performer: Performer;
}
/** A member user (every endpoint except the few agent bots may call). */
export interface AccountScope extends Caller {
  role: Role;
  user: UserRow;
  bot: null;
}

function headerToken(request: FastifyRequest): string | undefined {
  const value = request.headers['api_access_token'] ?? request.headers['api-access-token'];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Token lookup. SQLite finds the candidate row by its index; a constant-time comparison of digests
 * then confirms it. (Tokens are 192-bit random strings, so index-lookup timing cannot guess one.)
 */
function tokenOwner(db: Db, token: string) {
  const row = stmt(db, 'SELECT token, owner_type, owner_id FROM access_tokens WHERE token = ?').get(token) as
    | { token: string; owner_type: 'User' | 'AgentBot'; owner_id: number }
    | undefined;
  if (!row) return undefined;
  const a = createHash('sha256').update(row.token).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b) ? row : undefined;
}

/** Who is calling: 401 `{errors}` without a header, 401 `{error: Invalid Access Token}` with a wrong one. */
export function authenticate(db: Db, request: FastifyRequest): Actor {
  const token = headerToken(request);
  if (token === undefined || token === '') throw notSignedIn();
  const row = token.length <= 512 ? tokenOwner(db, token) : undefined;
  if (!row) throw unauthorized('Invalid Access Token');
  return { kind: row.owner_type === 'User' ? 'user' : 'bot', id: row.owner_id, token };
}

function accountRow(db: Db, accountId: number) {
  return stmt(db, 'SELECT id, name, status FROM accounts WHERE id = ?').get(accountId) as { id: number; name: string; status: string } | undefined;
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
  return { accountId: row.id, accountName: row.name, role: row.role, user, bot: null, actor, performer: { type: 'user', id: user.id } };
}

/**
 * Users, or an agent bot. A bot reaches its own account, or an account where it is attached to an
 * inbox (chatwoot-compat §0); any other account is a 404 like every cross-tenant request.
 */
export function requireCaller(db: Db, actor: Actor, accountId: number): Caller {
  if (actor.kind === 'user') return requireAccount(db, actor, accountId);
  const bot = botById(db, actor.id);
  if (!bot) throw unauthorized('Invalid Access Token');
  const account = accountRow(db, accountId);
  const attached = stmt(db, 'SELECT 1 FROM agent_bot_inboxes b JOIN inboxes i ON i.id = b.inbox_id WHERE b.agent_bot_id = ? AND i.account_id = ?').get(bot.id, accountId);
  if (!account || (bot.account_id !== accountId && !attached)) throw notFound();
  if (account.status === 'suspended') throw unauthorized('Account is suspended');
  return { accountId, accountName: account.name, role: 'bot', user: null, bot, actor, performer: { type: 'agent_bot', id: bot.id } };
}

/** Inbox ids the caller may see: administrators every inbox, agents their own, bots their account's or attached ones. */
export function visibleInboxIds(db: Db, caller: Caller): number[] {
  let rows: unknown[];
  if (caller.role === 'administrator' || (caller.bot && caller.bot.account_id === caller.accountId)) {
    rows = stmt(db, 'SELECT id FROM inboxes WHERE account_id = ?').all(caller.accountId);
  } else if (caller.bot) {
    rows = stmt(db, 'SELECT i.id FROM inboxes i JOIN agent_bot_inboxes b ON b.inbox_id = i.id WHERE i.account_id = ? AND b.agent_bot_id = ?').all(caller.accountId, caller.bot.id);
  } else {
    rows = stmt(db, 'SELECT i.id FROM inboxes i JOIN inbox_members m ON m.inbox_id = i.id WHERE i.account_id = ? AND m.user_id = ?').all(caller.accountId, caller.user!.id);
  }
  return (rows as { id: number }[]).map((r) => r.id);
}

/** Pundit-style policy check: a role failure is 401 `You are not authorized to do this action`. */
export function requireAdmin(scope: AccountScope): void {
  if (scope.role !== 'administrator') throw notAuthorized();
}

/** The few endpoints that check `administrator` by hand answer 403 (spec: Errors). */
export function requireAdminHandChecked(scope: AccountScope): void {
  if (scope.role !== 'administrator') throw forbidden('You are not authorized to do this action');
}

/** The name activity messages use for whoever acted. */
export function callerName(caller: Caller): string {
  if (caller.user) return caller.user.display_name || caller.user.name;
  return caller.bot?.name ?? 'System';
}
