// CORS for the contact-facing families, as Chatwoot's rack-cors setup does for its public API
// (`resource '/public/api/*', headers: :any, methods: :any` from any origin): a page on the
// customer's own site calls the Client API (and the Widget API) from the browser. Their
// credentials travel in the path, a query parameter or a header, never in cookies, so no
// credentials mode is offered. The Application family gets no CORS headers: its token must not
// be usable from arbitrary pages, and Chatwoot offers it cross-origin only in its API-only mode.
//
// Registered inside each family's own prefix (app.ts) with static options, not globally with a
// delegator: @fastify/cors normalises a delegator's options on every request (about 5% of a warm
// create), and the Application family's requests need not pass through it at all. Static `*`
// needs no `Vary: Origin` (the answer does not depend on the Origin), so none is sent.
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { answerNotFound } from './errors';

const OPEN = { origin: '*', methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] };

/**
 * CORS headers on every answer inside `scope`'s prefix, a preflight answered on any path below it
 * (@fastify/cors's `OPTIONS *`, prefixed), and the service's 404 for unmatched paths there with
 * the headers too (a page must be able to read the 404).
 */
export async function allowCors(scope: FastifyInstance) {
  await scope.register(cors, OPEN);
  scope.setNotFoundHandler(answerNotFound);
}
