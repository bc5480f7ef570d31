// The account itself (chatwoot-compat §1.15): read it (members), change it (administrators), and
// create one: signed in, a user gets another account; signed out, a sign-up makes the account and
// its first administrator and answers with that user's profile (including the access token).
// No deduplication (spec: Retries): a retried signed-in create is a second account.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/open';
import { json, stmt } from '../db/open';
import { authenticate, requireAccount, requireAdmin } from '../http/auth';
import { attributesObject, emailFormat, input, parseBody, shortText, wrapped } from '../http/body';
import { invalid, unauthorized } from '../http/errors';
import { parseParams } from '../http/params';
import { accountParams } from '../http/scope';
import { iso } from '../presenters/time';
import { addToAccount, createAccount, createUser } from '../store/provision';
import type { RouteDeps } from './deps';
import { profileOf } from './profile';

interface AccountRow {
  id: number;
  name: string;
  status: string;
  locale: string;
  domain: string | null;
  support_email: string | null;
  auto_resolve_duration: number | null;
  custom_attributes: string;
  created_at: number;
}

function accountShape(a: AccountRow) {
  return {
    id: a.id,
    name: a.name,
    locale: a.locale,
    domain: a.domain,
    support_email: a.support_email,
    status: a.status,
    auto_resolve_duration: a.auto_resolve_duration,
    custom_attributes: json.parse(a.custom_attributes),
    features: {},
    created_at: iso(a.created_at),
  };
}

const accountName = z.string({ error: "can't be blank" }).trim().min(1, "can't be blank").max(255);
const updateFields = z.object({
  name: accountName.optional(),
  locale: z.string().regex(/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})?$/, 'is not a locale').optional(),
  domain: z.union([z.null(), shortText(255)]).optional(),
  support_email: z.union([z.null(), z.literal(''), z.string().max(320).regex(emailFormat, 'is invalid')]).optional(),
  auto_resolve_duration: z.union([z.null(), z.number().int().min(1).max(999)]).optional(),
  custom_attributes: attributesObject.optional(),
});
const signUp = z.object({
  account_name: accountName,
  email: z.string({ error: "can't be blank" }).trim().max(320).regex(emailFormat, 'is invalid').optional(),
  user_full_name: shortText(255).optional(),
  locale: z.string().regex(/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})?$/).optional(),
});

const accountById = (db: Db, id: number) => stmt(db, 'SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow;

export function accountRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { db } = deps;
  const member = (request: FastifyRequest) => requireAccount(db, authenticate(db, request), parseParams(accountParams, request.params, 'path parameter').account_id);

  app.get('/api/v1/accounts/:account_id', async (request) => accountShape(accountById(db, member(request).accountId)));

  const update = async (request: FastifyRequest) => {
    const scope = member(request);
    requireAdmin(scope);
    const body = parseBody(updateFields, wrapped(input(request), 'account'));
    const a = accountById(db, scope.accountId);
    stmt(db, 'UPDATE accounts SET name = ?, locale = ?, domain = ?, support_email = ?, auto_resolve_duration = ?, custom_attributes = ? WHERE id = ?').run(
      body.name ?? a.name,
      body.locale ?? a.locale,
      body.domain === undefined ? a.domain : body.domain,
      body.support_email === undefined ? a.support_email : body.support_email || null,
      body.auto_resolve_duration === undefined ? a.auto_resolve_duration : body.auto_resolve_duration,
      JSON.stringify({ ...json.parse(a.custom_attributes), ...(body.custom_attributes ?? {}) }),
      a.id,
    );
    return accountShape(accountById(db, a.id));
  };
  app.patch('/api/v1/accounts/:account_id', update);
  app.put('/api/v1/accounts/:account_id', update);

  app.post('/api/v1/accounts', async (request) => {
    const signedIn = request.headers['api_access_token'] !== undefined || request.headers['api-access-token'] !== undefined;
    const actor = signedIn ? authenticate(db, request) : undefined;
    if (actor && actor.kind !== 'user') throw unauthorized('Access to this endpoint is not authorized for bots');
    const body = parseBody(signUp, input(request));
    const now = deps.clock();
    const { userId, token } = db.transaction(() => {
      let owner = actor ? { userId: actor.id, token: actor.token } : undefined;
      if (!owner) {
        if (!body.email) throw invalid("email can't be blank", ['email']);
        const email = body.email.toLowerCase();
        if (stmt(db, 'SELECT 1 FROM users WHERE email = ?').get(email)) throw invalid('Email has already been taken', ['email']);
        const created = createUser(db, { name: body.user_full_name || email.split('@')[0]!, email }, now);
        owner = { userId: created.id, token: created.token };
      }
      const accountId = createAccount(db, body.account_name, now);
      if (body.locale) stmt(db, 'UPDATE accounts SET locale = ? WHERE id = ?').run(body.locale, accountId);
      // The new account becomes the user's active one.
      addToAccount(db, accountId, owner.userId, 'administrator', now);
      return owner;
    })();
    return { data: profileOf(db, userId, token) };
  });
}
