// Conversation revisions as HTTP entity tags (SYNC-PROTOCOL.md, "Conversation revisions"): GET answers
// `ETag: "<revision>"`; conversation writes accept `If-Match` with a list of such tags or `*`, and
// write nothing (412) when the conversation is at none of them. Strong comparison (RFC 9110 §13.1.1):
// a weak tag `W/"…"` never matches.
import type { FastifyRequest } from 'fastify';
import { HttpError, badRequest } from './errors';

/** `*` (any current state), or the strong tags' values. */
export type Precondition = { any: true } | { tags: string[] };

export const etag = (revision: number) => `"${revision}"`;

const ENTITY_TAG = /\s*(W\/)?"([\x21\x23-\x7e]*)"\s*(?:,|$)/y;

/** The request's If-Match; undefined without one. A value that is not `*` or a list of entity tags is 400. */
export function ifMatchOf(request: FastifyRequest): Precondition | undefined {
  const raw = request.headers['if-match'];
  if (raw === undefined) return undefined;
  const value = (Array.isArray(raw) ? raw.join(', ') : raw).trim();
  if (value === '*') return { any: true };
  if (value === '') throw badRequest('If-Match must be "*" or a list of entity tags such as "12"');
  const tags: string[] = [];
  ENTITY_TAG.lastIndex = 0;
  while (ENTITY_TAG.lastIndex < value.length) {
    const match = ENTITY_TAG.exec(value);
    if (!match) throw badRequest('If-Match must be "*" or a list of entity tags such as "12"');
    if (!match[1]) tags.push(match[2]!);
  }
  return { tags };
}

export const matchesRevision = (precondition: Precondition, revision: number) => 'any' in precondition || precondition.tags.includes(String(revision));

export const preconditionFailed = (revision: number) => new HttpError(412, { error: 'The conversation has changed since it was read' }, { ETag: etag(revision) });
