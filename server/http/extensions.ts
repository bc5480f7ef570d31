// The service's optional help for a client's sync engine, beyond the spec (SYNC-PROTOCOL.md, "The
// service's optional help"). Every Application API response names it, so a client learns what the
// service it talks to offers from any answer, errors included; a client that never sends the
// extensions' headers or parameters sees only the spec's behaviour.
import type { FastifyInstance } from 'fastify';

const EXTENSIONS_HEADER = 'X-Inbox-Extensions';
const EXTENSIONS = 'idempotency-key, conversation-etag, changes-feed, presence';

/** `/api/v1/...` and `/api/v2/...`, except the Widget family (`/api/v1/widget/...`). */
const APPLICATION = /^\/api\/v[12]\/(?!widget(?:[/?#]|$))/;

export function advertiseExtensions(app: FastifyInstance) {
  // A callback hook (every response passes here; an async one costs a promise and a microtask turn).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (APPLICATION.test(request.url)) reply.header(EXTENSIONS_HEADER, EXTENSIONS);
    done(null, payload);
  });
}
