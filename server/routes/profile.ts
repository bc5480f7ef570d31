// GET /api/v1/profile (chatwoot-compat §2.9). Not account-scoped.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import { authenticate, userById } from '../http/auth';
import { unauthorized } from '../http/errors';
import { availableName } from '../presenters/people';
import { iso } from '../presenters/time';
import type { RouteDeps } from './deps';

interface MembershipRow {
  id: number;
  name: string;
  status: string;
  active_at: number | null;
  role: string;
  availability: string;
  auto_offline: number;
}

export function profileShape(db: Db, userId: number, accessToken: string) {
  const user = userById(db, userId);
  if (!user) throw unauthorized('Invalid Access Token');
  const accounts = stmt(
    db,
    `SELECT a.id, a.name, a.status, au.active_at, au.role, au.availability, au.auto_offline
     FROM account_users au JOIN accounts a ON a.id = au.account_id
     WHERE au.user_id = ? ORDER BY au.active_at DESC NULLS LAST, a.id`,
  ).all(userId) as MembershipRow[];
  const active = accounts[0];
  return {
    access_token: accessToken,
    account_id: active?.id ?? null,
    available_name: availableName(user),
    avatar_url: '',
    confirmed: true,
    display_name: user.display_name,
    message_signature: null,
    email: user.email,
    id: user.id,
    inviter_id: null,
    name: user.name,
    provider: 'email',
    pubsub_token: user.pubsub_token,
    role: active?.role ?? null,
    ui_settings: {},
    uid: user.email,
    type: null,
    accounts: accounts.map((a) => ({
      id: a.id,
      name: a.name,
      status: a.status,
      active_at: iso(a.active_at),
      role: a.role,
      permissions: [a.role],
      availability: a.availability,
      availability_status: a.availability,
      auto_offline: a.auto_offline === 1,
    })),
  };
}

export function profileRoutes(app: FastifyInstance, { db }: RouteDeps) {
  app.get('/api/v1/profile', async (request) => {
    const actor = authenticate(db, request);
    if (actor.kind !== 'user') throw unauthorized('Access to this endpoint is not authorized for bots');
    return profileShape(db, actor.id, actor.token);
  });
}
