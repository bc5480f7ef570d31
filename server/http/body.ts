// Request parameters, one policy for every route (what Rails does with the same requests):
// - JSON bodies; form bodies (`application/x-www-form-urlencoded`) with Rack's nested names
//   (`contact[name]=x`, `labels[]=a`); an empty body of any of those, or of `text/plain` (axios
//   0.x sends empty POSTs as a form), means "no parameters". Multipart form data is read by the
//   routes that take files (`multipart.ts`), with the same field names. Any other body is 400.
// - The query string, merged under the body (Rails-style clients also put POST parameters there).
//   An id clients send for "none" is absent: `inbox_id=0`, `team_id=`, `id=` (query), `""` (body).
// - Rails wraps a body's attributes under the resource key (`wrap_parameters`): `wrapped()`
//   accepts `{agent: {...}}` and `{...}` alike, on every route that names a resource.
// Unparseable or non-object bodies are 400; a well-formed body that fails validation is 422
// `{message, attributes}` (spec: Errors), never a 5xx.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import qs from 'qs';
import { z } from 'zod';
import { badRequest, invalid } from './errors';

/** Rack's nested parameter names, bounded (qs ignores `__proto__` and friends by default). */
export const parseNested = (source: string | Record<string, unknown>) => qs.parse(source as string, { depth: 5, arrayLimit: 100, parameterLimit: 1000 }) as Record<string, unknown>;

const isEmpty = (body: unknown) => typeof body !== 'string' || body.trim() === '';

const isIdName = (key: string) => key === 'id' || key.endsWith('_id');

/**
 * `inbox_id=0`, `team_id=0`, `id=`: what generated clients send for an id field left unset (their
 * defaults). Only ids: no id is 0 or empty, so nothing meaningful is lost, whereas an empty cursor
 * or page stays an error the client should hear about.
 */
function withoutUnsetIds(params: unknown, unset: readonly unknown[]): unknown {
  if (!params || typeof params !== 'object' || Array.isArray(params)) return params;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (isIdName(key) && unset.includes(value)) continue;
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export function installBodyParsing(app: FastifyInstance) {
  // JSON with Fastify's own (prototype-poisoning safe) parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (isEmpty(body)) return done(null, undefined);
    // Fastify's parser answers through `done`; whatever it returns is not ours to wait for.
    void parseJson(request, body as string, done);
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, isEmpty(body) ? undefined : parseNested(body as string));
  });
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
    if (isEmpty(body)) return done(null, undefined);
    done(Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }), undefined);
  });
  // A callback hook, not an async one: it runs on every request, and an async hook costs a promise
  // and a microtask turn each time.
  app.addHook('preValidation', (request, _reply, done) => {
    request.query = withoutUnsetIds(request.query, ['', '0']);
    done();
  });
}

/** The request's parameters: query string, overlaid by the JSON body (the body wins). */
export function input(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    throw badRequest('Request body must be a JSON object');
  }
  return { ...((request.query as Record<string, unknown> | undefined) ?? {}), ...((withoutUnsetIds(body, ['']) as Record<string, unknown> | undefined) ?? {}) };
}

/** A validation failure as the spec's 422 `{message, attributes}`, naming the offending attributes. */
export function invalidParameters(error: z.ZodError) {
  const issues = error.issues;
  const attributes = [...new Set(issues.map((i) => String(i.path[0] ?? 'base')))];
  const first = issues[0]!;
  const where = first.path.length ? `${first.path.join('.')} ` : '';
  return invalid(`${where}${first.message}`.trim(), attributes);
}

/** Validates parameters; failure is 422 naming the offending attributes. */
export function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidParameters(result.error);
}

/**
 * The JSON body alone, without the query string (the Client and Widget families): no body at all
 * means `{}`, a body that is not an object is 400, one that fails validation is 422.
 */
export function parseJsonBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  if (body === null || (body !== undefined && (typeof body !== 'object' || Array.isArray(body)))) throw badRequest('Request body must be a JSON object');
  return parseBody(schema, body ?? {});
}

/** Rails-style loose booleans: true/false, or their strings (query and form parameters are strings). */
export const boolish = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1');

/** A free-form JSON object (custom and additional attributes). */
export const attributesObject = z.record(z.string().max(255), z.unknown()).refine((o) => JSON.stringify(o).length <= 65_536, 'is too large (64 KB at most)');

/** A short single-line text field. */
export const shortText = (max = 255) => z.string().max(max, `is too long (maximum is ${max} characters)`);

/** An id given as a number or a digit string, or null/'' meaning "none". */
export const optionalId = z
  .union([z.null(), z.literal(''), z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,15}$/, 'must be a positive integer')])
  .transform((v) => (v === null || v === '' ? null : Number(v)));

export const emailFormat = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** One of a fixed set of strings, with a message that lists them. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `is not one of: ${values.join(', ')}` });

/** Treats '' (what forms and query strings send for "nothing") as absent. */
export const blankAsAbsent = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/**
 * Rails wraps a body's attributes under the resource key (`wrap_parameters`), so clients send
 * either `{agent: {name}}` or `{name}`. This accepts both: the nested object when there is one.
 */
export function wrapped(params: Record<string, unknown>, key: string): Record<string, unknown> {
  const inner = params[key];
  return inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : params;
}
