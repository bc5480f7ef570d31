// A closing service answers the requests it already took, then ends their connections.
// Fastify ends only idle connections when it closes and answers requests that arrive during the
// close with 503; a request already under way was answered with keep-alive, and its connection then
// held the server's close for keep-alive's 72 s (the web host's close hung the same way in CI).
// Asking the client to close after the answer ends such a connection the moment it is answered.
// Not covered: an answer whose headers went out before the close began (a file still streaming).
import type { FastifyInstance } from 'fastify';

export function closeConnectionsWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Not async: every answer passes here, and a promise each costs the create path a little.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
