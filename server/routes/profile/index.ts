// The caller's own user (chatwoot-compat §1.1, §2.9), not account-scoped: read it, change it, set
// availability per account, and replace the access token. Registered in the user scope
// (routes/account-scope.ts: users only; an agent bot is 401).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/open';
import { attributesObject, emailFormat, oneOf } from '../../http/body';
import { invalid, notFound, unauthorized } from '../../http/errors';
import { intString } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { profileShape } from '../../presenters/profile';
import { secret } from '../../store/provision';
import { membershipsOf, replaceUserToken, setAvailability, updateProfile, userById, userIdWithEmail } from '../../store/users';
import { actorOf } from '../account-scope';
import type { RouteDeps } from '../deps';

/** The user's profile with this access token (a user deleted since the token was checked is 401). */
export function profileOf(db: Db, userId: number, accessToken: string) {
  const user = userById(db, userId);
  if (!user) throw unauthorized('Invalid Access Token');
  return profileShape(user, membershipsOf(db, userId), accessToken);
}

const profileFields = z.object({
  name: z.string().trim().min(1, "can't be blank").max(255).optional(),
  display_name: z.union([z.null(), z.string().trim().max(255)]).optional(),
  email: z.string().trim().max(320).regex(emailFormat, 'is invalid').optional(),
  message_signature: z.union([z.null(), z.string().max(10_000)]).optional(),
  ui_settings: attributesObject.optional(),
});
const availabilityBody = z.object({ account_id: intString, availability: oneOf(['online', 'offline', 'busy']) });

/** The `profile` parameters (nested or, as Rails wraps them, top-level); none at all is 422. */
async function profileParams(request: FastifyRequest) {
  const params = request.body as Record<string, unknown>;
  if (Object.keys(params).length === 0) throw invalid('param is missing or the value is empty: profile', ['profile']);
  // Sign-in here is by access token only; a password change cannot be honoured, so it is refused.
  for (const key of ['password', 'password_confirmation', 'current_password']) {
    if (key in params) throw invalid('Passwords are not used by this service: sign in with the access token', [key]);
  }
}

export function profileRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const config = { wrap: 'profile' };

    app.get('/profile', async (request) => profileOf(db, actorOf(request).id, actorOf(request).token));

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/profile',
        config,
        schema: { body: profileFields },
        preValidation: profileParams,
        handler: async (request) => {
          const actor = actorOf(request);
          const body = request.body;
          const email = body.email?.toLowerCase();
          if (email !== undefined) {
            const clash = userIdWithEmail(db, email);
            if (clash !== undefined && clash !== actor.id) throw invalid('Email has already been taken', ['email']);
          }
          updateProfile(db, userById(db, actor.id)!, {
            email,
            name: body.name,
            displayName: body.display_name === undefined ? undefined : body.display_name || null,
            messageSignature: body.message_signature,
            uiSettings: body.ui_settings,
          });
          return profileOf(db, actor.id, actor.token);
        },
      });
    }

    app.post('/profile/availability', { config, schema: { body: availabilityBody }, preValidation: profileParams }, async (request) => {
      const actor = actorOf(request);
      if (!setAvailability(db, request.body.account_id, actor.id, request.body.availability)) throw notFound();
      return profileOf(db, actor.id, actor.token);
    });

    // The old token stops working at once.
    app.post('/profile/reset_access_token', async (request) => {
      const actor = actorOf(request);
      const token = secret();
      replaceUserToken(db, actor.id, actor.token, token);
      return profileOf(db, actor.id, token);
    });
  };
}
