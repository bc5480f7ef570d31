// The caller's own user (chatwoot-compat §1.1, §2.9), not account-scoped: read it, change it, set
// availability per account, and replace the access token.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/open';
import { json, stmt } from '../db/open';
import { authenticate } from '../http/auth';
import { userById } from '../store/users';
import { attributesObject, emailFormat, input, oneOf, parseBody, wrapped } from '../http/body';
import { invalid, notFound, unauthorized } from '../http/errors';
import { intString } from '../http/params';
import { secret } from '../store/provision';
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
    message_signature: user.message_signature,
    email: user.email,
    id: user.id,
    inviter_id: null,
    name: user.name,
    provider: 'email',
    pubsub_token: user.pubsub_token,
    role: active?.role ?? null,
    ui_settings: json.parse(user.ui_settings),
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

const profileFields = z.object({
  name: z.string().trim().min(1, "can't be blank").max(255).optional(),
  display_name: z.union([z.null(), z.string().trim().max(255)]).optional(),
  email: z.string().trim().max(320).regex(emailFormat, 'is invalid').optional(),
  message_signature: z.union([z.null(), z.string().max(10_000)]).optional(),
  ui_settings: attributesObject.optional(),
});
const availabilityBody = z.object({ account_id: intString, availability: oneOf(['online', 'offline', 'busy']) });

function userCaller(db: Db, request: FastifyRequest) {
  const actor = authenticate(db, request);
  if (actor.kind !== 'user') throw unauthorized('Access to this endpoint is not authorized for bots');
  return actor;
}

/** The `profile` parameters (nested or, as Rails wraps them, top-level); none at all is 422. */
function profileParams(request: FastifyRequest) {
  const params = wrapped(input(request), 'profile');
  if (Object.keys(params).length === 0) throw invalid('param is missing or the value is empty: profile', ['profile']);
  // Sign-in here is by access token only; a password change cannot be honoured, so it is refused.
  for (const key of ['password', 'password_confirmation', 'current_password']) {
    if (key in params) throw invalid('Passwords are not used by this service: sign in with the access token', [key]);
  }
  return params;
}

export function profileRoutes(app: FastifyInstance, { db }: RouteDeps) {
  app.get('/api/v1/profile', async (request) => {
    const actor = userCaller(db, request);
    return profileShape(db, actor.id, actor.token);
  });

  const update = async (request: FastifyRequest) => {
    const actor = userCaller(db, request);
    const body = parseBody(profileFields, profileParams(request));
    const user = userById(db, actor.id)!;
    db.transaction(() => {
      if (body.email !== undefined) {
        const email = body.email.toLowerCase();
        const clash = stmt(db, 'SELECT id FROM users WHERE email = ?').get(email) as { id: number } | undefined;
        if (clash && clash.id !== actor.id) throw invalid('Email has already been taken', ['email']);
        stmt(db, 'UPDATE users SET email = ? WHERE id = ?').run(email, actor.id);
      }
      if (body.name !== undefined) stmt(db, 'UPDATE users SET name = ? WHERE id = ?').run(body.name, actor.id);
      if (body.display_name !== undefined) stmt(db, 'UPDATE users SET display_name = ? WHERE id = ?').run(body.display_name || null, actor.id);
      if (body.message_signature !== undefined) stmt(db, 'UPDATE users SET message_signature = ? WHERE id = ?').run(body.message_signature, actor.id);
      // UI settings merge, so one screen's preference does not erase another's.
      if (body.ui_settings) stmt(db, 'UPDATE users SET ui_settings = ? WHERE id = ?').run(JSON.stringify({ ...json.parse(user.ui_settings), ...body.ui_settings }), actor.id);
    })();
    return profileShape(db, actor.id, actor.token);
  };
  app.patch('/api/v1/profile', update);
  app.put('/api/v1/profile', update);

  app.post('/api/v1/profile/availability', async (request) => {
    const actor = userCaller(db, request);
    const body = parseBody(availabilityBody, profileParams(request));
    const changed = stmt(db, 'UPDATE account_users SET availability = ? WHERE account_id = ? AND user_id = ?').run(body.availability, body.account_id, actor.id).changes;
    if (changed === 0) throw notFound();
    return profileShape(db, actor.id, actor.token);
  });

  // The old token stops working at once.
  app.post('/api/v1/profile/reset_access_token', async (request) => {
    const actor = userCaller(db, request);
    const token = secret();
    stmt(db, "UPDATE access_tokens SET token = ? WHERE owner_type = 'User' AND owner_id = ? AND token = ?").run(token, actor.id, actor.token);
    return profileShape(db, actor.id, token);
  });
}
