// The account itself (chatwoot-compat §1.15): read it (members), change it (administrators), and
// create one: signed in, a user gets another account; signed out, a sign-up makes the account and
// its first administrator and answers with that user's profile (including the access token).
// No deduplication (spec: Retries): a retried signed-in create is a second account.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { json } from '../../db/open';
import { attributesObject, emailFormat, shortText } from '../../http/body';
import { invalid } from '../../http/errors';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { iso } from '../../presenters/time';
import type { AccountRow } from '../../store/accounts';
import { accountById, setAccountLocale, updateAccount } from '../../store/accounts';
import { addToAccount, createAccount, createUser } from '../../store/provision';
import { userIdWithEmail } from '../../store/users';
import type { RouteDeps } from '../deps';
import { profileOf } from '../profile';

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

/** `A` itself, in the account scope. */
export function accountRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();

    app.get('', async (request) => accountShape(accountById(db, request.caller.accountId)));

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '',
        config: { access: 'administrator', wrap: 'account' },
        schema: { body: updateFields },
        handler: async (request) => {
          const body = request.body;
          return accountShape(
            updateAccount(db, accountById(db, request.caller.accountId), {
              name: body.name,
              locale: body.locale,
              domain: body.domain,
              supportEmail: body.support_email === undefined ? undefined : body.support_email || null,
              autoResolveDuration: body.auto_resolve_duration,
              customAttributes: body.custom_attributes,
            }),
          );
        },
      });
    }
  };
}

/** `POST /api/v1/accounts`, in the user scope: signed in or (a sign-up) signed out. */
export function accountCreationRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();

    app.post('/accounts', { config: { signedOut: true }, schema: { body: signUp } }, async (request) => {
      const { actor } = request;
      const body = request.body;
      const now = deps.clock();
      const { userId, token } = db.transaction(() => {
        let owner = actor ? { userId: actor.id, token: actor.token } : undefined;
        if (!owner) {
          if (!body.email) throw invalid("email can't be blank", ['email']);
          const email = body.email.toLowerCase();
          if (userIdWithEmail(db, email) !== undefined) throw invalid('Email has already been taken', ['email']);
          const created = createUser(db, { name: body.user_full_name || email.split('@')[0]!, email }, now);
          owner = { userId: created.id, token: created.token };
        }
        const accountId = createAccount(db, body.account_name, now);
        if (body.locale) setAccountLocale(db, accountId, body.locale);
        // The new account becomes the user's active one.
        addToAccount(db, accountId, owner.userId, 'administrator', now);
        return owner;
      })();
      return { data: profileOf(db, userId, token) };
    });
  };
}
