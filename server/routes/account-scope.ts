// The Application family's account scope, as hooks instead of a call in every handler. Each URL
// area is a Fastify plugin registered under an account prefix (`/api/v1/accounts/:account_id`,
// `/api/v2/accounts/:account_id`); the hooks here run for every route inside, in the spec's order:
//   onRequest      the caller (401 `{errors}` without a token, 401 `{error}` with a wrong one,
//                  404 for an account it is not in, 401 for a role the route does not allow);
//   preValidation  the request's parameters as one object (query string under the body, a body
//                  wrapped under the route's resource key or flat: http/body.ts), for the body schema;
//   validation     the route's zod schemas (http/route-schemas.ts: 400 `{error}` / 422 `{message, attributes}`).
// A route that looks up records named in its path does so in its own preValidation step, so a
// missing record is 404 before its body is judged, as before.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountScope, Actor, Caller } from '../http/auth';
import { authenticate, requireAdmin } from '../http/auth';
import { input, wrapped } from '../http/body';
import { unauthorized } from '../http/errors';
import { callerScoped, scoped } from '../http/scope';
import type { RouteDeps } from './deps';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call: members of the account (the default), administrators only, or members and agent bots (chatwoot-compat §0). */
    access?: 'member' | 'administrator' | 'member-or-bot';
    /** The resource key a body may be wrapped under (Rails' `wrap_parameters`): `{inbox: {...}}` or `{...}`. */
    wrap?: string;
    /** Outside an account: a request without a token is let through, `request.actor` unset (a sign-up). */
    signedOut?: boolean;
  }
  interface FastifyRequest {
    /** Who is calling, in the path's account (set by the account scope). */
    caller: Caller;
    /** The signed-in user, on routes outside an account (set by the user scope). */
    actor: Actor | undefined;
  }
}

/** The caller of a route that only members reach (every access but `member-or-bot`). */
export function memberOf(request: FastifyRequest): AccountScope {
  return request.caller as AccountScope;
}

/** Installs the account scope's hooks on `scope` (its routes and every plugin registered in it). */
export function installAccountScope(scope: FastifyInstance, deps: RouteDeps) {
  scope.decorateRequest('caller', null as unknown as Caller);
  scope.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access ?? 'member';
    if (access === 'member-or-bot') {
      request.caller = callerScoped(deps.db, request);
      return;
    }
    const member = scoped(deps.db, request);
    if (access === 'administrator') requireAdmin(member);
    request.caller = member;
  });
  scope.addHook('preValidation', mergeParameters);
}

/** The request's parameters as one object, for a route with a body schema. */
async function mergeParameters(request: FastifyRequest) {
  if (!request.routeOptions.schema?.body) return;
  const params = input(request);
  const key = request.routeOptions.config.wrap;
  request.body = key ? wrapped(params, key) : params;
}

const signedIn = (request: FastifyRequest) => request.headers['api_access_token'] !== undefined || request.headers['api-access-token'] !== undefined;

/**
 * The user scope, for routes outside an account (the profile, account creation): `onRequest`
 * resolves `request.actor`, a user (401 without or with a wrong token, as in an account; 401 for an
 * agent bot); a `signedOut` route lets a request without a token header through. Parameters as in
 * the account scope.
 */
export function installUserScope(scope: FastifyInstance, deps: RouteDeps) {
  scope.decorateRequest('actor', undefined);
  scope.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.signedOut && !signedIn(request)) return;
    const actor = authenticate(deps.db, request);
    if (actor.kind !== 'user') throw unauthorized('Access to this endpoint is not authorized for bots');
    request.actor = actor;
  });
  scope.addHook('preValidation', mergeParameters);
}

/** The signed-in user of a route that does not let signed-out requests through. */
export function actorOf(request: FastifyRequest): Actor {
  return request.actor!;
}
