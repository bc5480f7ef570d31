// The spec's error shapes, and nothing else. Every failure the service sends goes through here:
//   {error}              missing record, invalid token, permission failure
//   {message, attributes} validation failure on create/update (422)
//   {errors: [string]}    api_access_token header missing (401)
//   text/plain "Retry later" for 429, without Retry-After
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { answeredBeforeBody, discardRestOfBody } from './discard-body';

export type ErrorBody = { error: string } | { message: string; attributes: string[] } | { errors: string[] };

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    /** Headers the answer carries (a 412's current ETag). */
    readonly headers: Record<string, string> = {},
  ) {
    super('error' in body ? body.error : 'message' in body ? body.message : body.errors.join(', '));
  }
}

export const notFound = () => new HttpError(404, { error: 'Resource could not be found' });
export const badRequest = (error: string) => new HttpError(400, { error });
export const unauthorized = (error: string) => new HttpError(401, { error });
export const notAuthorized = () => unauthorized('You are not authorized to do this action');
export const notSignedIn = () => new HttpError(401, { errors: ['You need to sign in or sign up before continuing.'] });
export const forbidden = (error: string) => new HttpError(403, { error });
export const invalid = (message: string, attributes: string[]) => new HttpError(422, { message, attributes });
export const unprocessable = (error: string) => new HttpError(422, { error });

export function sendThrottled(reply: FastifyReply) {
  return reply.code(429).type('text/plain').send('Retry later\n');
}

/** Maps every thrown error, including Fastify's own (bad JSON, huge bodies), onto the spec's shapes and statuses. */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler(async (err: FastifyError | HttpError, request, reply) => {
    // A failure before the body was read (too large, unreadable, refused first): read the rest
    // and discard it, so a client still sending can finish and read this answer (discard-body.ts).
    // Answered before a body too large to wait for: the connection stays open while Node's parser
    // drops the rest, so the client reads this answer instead of a reset (discard-body.ts).
    if (answeredBeforeBody(request.raw)) reply.removeHeader('connection');
    await discardRestOfBody(request.raw);
    if (err instanceof HttpError) return reply.code(err.status).headers(err.headers).send(err.body);
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    // The spec's status table has no 413 (its limits are "not shown"): a body too large to read is
    // one the service cannot parse, its 400 row. Every family: JSON bodies over the body limit and
    // multipart uploads over their limits alike.
    if (status === 413) return reply.code(400).send({ error: err.code === 'FST_REQ_FILE_TOO_LARGE' ? 'Attachment is too large' : 'Request body is too large' });
    // The spec's table has no 415: a body we cannot read is "unparseable" (400).
    if (status === 415) return reply.code(400).send({ error: 'Unsupported content type: send JSON or form data' });
    if (status >= 400 && status < 500) {
      return reply.code(400).send({ error: err.code?.startsWith('FST_ERR_CTP') ? 'Request body could not be parsed' : 'Bad request' });
    }
    request.log.error({ err: { message: err.message, stack: err.stack } }, 'unhandled error');
    return reply.code(500).send({ error: 'Internal server error' });
  });
  app.setNotFoundHandler(answerNotFound);
}

/** The service's answer to a path no route matches (also the contact-facing families' own, http/cors.ts). */
export const answerNotFound = (_request: FastifyRequest, reply: FastifyReply) => reply.code(404).send({ error: 'Resource could not be found' });

/**
 * Errors the router raises before any route runs (Fastify's `frameworkErrors` option): a path
 * segment longer than the router accepts names nothing (404); an undecodable URL is a 400.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.code(404).send({ error: 'Resource could not be found' });
  return reply.code(400).send({ error: 'Bad request' });
}
