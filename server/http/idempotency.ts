// `Idempotency-Key` on creating POSTs (SYNC-PROTOCOL.md, "Idempotency-Key on creating POSTs"), beyond the
// spec, which has none (a retried create is a duplicate). Opt-in: a request without the header runs
// exactly as before. With one:
// - the key is 1 to 255 characters of A-Z a-z 0-9 . _ : - (else 400), scoped to the account and the
//   caller's identity (user or agent bot), kept for the retention (24 h unless the service says otherwise);
// - the first successful answer (status, content type, body) is stored in the same transaction as the
//   record it created: both land or neither does; a failure stores nothing and may be retried;
// - the same request again (method, path with query, body) is answered from the store with
//   `Idempotent-Replayed: true`; nothing is created and no event is emitted;
// - the same key with another request is 422 `{message, attributes: ["Idempotency-Key"]}`.
// The lookup runs before the route validates (a replay does not depend on state that has changed
// since), and again inside the creating transaction, so two requests racing with one key create once.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdempotencyKeyRow, KeyScope } from '../store/idempotency-keys';
import { storeAnswer, storedAnswer } from '../store/idempotency-keys';
import { atomically } from '../store/writes';
import type { RouteDeps } from '../routes/deps';
import type { Caller } from './auth';
import { badRequest, invalid } from './errors';

const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY = /^[A-Za-z0-9._:-]{1,255}$/;
const JSON_TYPE = 'application/json; charset=utf-8';

export interface KeyedRequest {
  scope: KeyScope;
  fingerprint: string;
}

/**
 * The caller's Idempotency-Key on this request, with the request's fingerprint; undefined without the
 * header, 400 when it is malformed. `material` is what the request asks for beyond its method and URL
 * (the JSON body by default; a form's fields and file digest where the route reads a form).
 */
export function keyedRequest(request: FastifyRequest, caller: Caller, material: unknown = request.body): KeyedRequest | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !KEY.test(key)) throw badRequest('Idempotency-Key must be 1 to 255 characters of A-Z a-z 0-9 . _ : -');
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([request.method, request.url, material ?? null]))
    .digest('hex');
  return { scope: { account_id: caller.accountId, owner_type: caller.actor.kind === 'user' ? 'User' : 'AgentBot', owner_id: caller.actor.id, key }, fingerprint };
}

/**
 * What a multipart form asks for, as fingerprint material: its fields (nested as the route reads
 * them) and each file, in order, by field, name, declared type and a digest of its bytes. Every one of
 * those is stored with the record (the declared type decides the file's type and how it is served),
 * so a form that differs in any of them is another request.
 */
export function formMaterial(form: { params: unknown; files: readonly { fieldname: string; filename: string; mimetype: string; data: Buffer }[] }) {
  return { params: form.params, files: form.files.map((f) => [f.fieldname, f.filename, f.mimetype, createHash('sha256').update(f.data).digest('hex')]) };
}

const ttlOf = (deps: RouteDeps) => deps.idempotencyTtlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS;

function replay(reply: FastifyReply, keyed: KeyedRequest, stored: IdempotencyKeyRow): FastifyReply {
  if (stored.fingerprint !== keyed.fingerprint) throw invalid('Idempotency-Key has already been used for a different request', ['Idempotency-Key']);
  return reply.code(stored.status).type(stored.content_type).header('Idempotent-Replayed', 'true').send(stored.body);
}

/** The stored answer when this key was used already, sent as a replay (422 for another request); else undefined. */
export function replayed(deps: RouteDeps, reply: FastifyReply, keyed: KeyedRequest | undefined): FastifyReply | undefined {
  if (!keyed) return undefined;
  const stored = storedAnswer(deps.db, keyed.scope, deps.clock() - ttlOf(deps));
  return stored ? replay(reply, keyed, stored) : undefined;
}

/**
 * Creates and answers. Without a key, `create()` runs and its result is the answer, as ever. With one,
 * `create()` (synchronous, its writes through commit()) and storing its answer are one transaction,
 * and its events go out only after that commits.
 */
export function createOnce(deps: RouteDeps, reply: FastifyReply, keyed: KeyedRequest | undefined, create: () => object): object | FastifyReply {
  if (!keyed) return create();
  const now = deps.clock();
  const notBefore = now - ttlOf(deps);
  const outcome = atomically<{ stored: IdempotencyKeyRow } | { body: string }>(deps, () => {
    const stored = storedAnswer(deps.db, keyed.scope, notBefore);
    if (stored) return { stored };
    const body = JSON.stringify(create());
    storeAnswer(deps.db, { ...keyed.scope, fingerprint: keyed.fingerprint, status: reply.statusCode, content_type: JSON_TYPE, body, created_at: now }, notBefore);
    return { body };
  });
  if ('stored' in outcome) return replay(reply, keyed, outcome.stored);
  return reply.type(JSON_TYPE).send(outcome.body);
}
