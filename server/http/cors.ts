// CORS for the contact-facing families, as Chatwoot's rack-cors setup does for its public API
// (`resource '/public/api/*', headers: :any, methods: :any` from any origin): a page on the
// customer's own site calls the Client API (and the Widget API) from the browser. Their
// credentials travel in the path, a query parameter or a header, never in cookies, so no
// credentials mode is offered. The Application family gets no CORS headers: its token must not
// be usable from arbitrary pages, and Chatwoot offers it cross-origin only in its API-only mode.
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

const CONTACT_FACING = /^\/(public\/api\/|api\/v1\/widget(\/|\?|$))/;

/** Made once: the delegator runs on every request. */
const OPEN = { origin: '*', methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] };
const CLOSED = { origin: false };

export async function allowContactFacingCors(app: FastifyInstance) {
  await app.register(cors, {
    delegator: (request, done) => done(null, CONTACT_FACING.test(request.url ?? '') ? OPEN : CLOSED),
  });
}
