// JSON bodies: Fastify's own parser (prototype-poisoning checks included), except that an empty
// body sent with Content-Type: application/json means "no body" rather than a 400. Widget and
// Client libraries commonly send the header on body-less POSTs (session start, toggle_status).
import type { FastifyInstance } from 'fastify';

export function acceptEmptyJsonBodies(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parse(request, text, done);
  });
}
