// Request bodies. JSON only (plus the query string, which Rails-style clients also use for POST
// parameters). Unparseable or non-object bodies are 400; a well-formed body that fails validation
// is 422 `{message, attributes}` (spec: Errors), never a 5xx.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { badRequest, invalid } from './errors';

/** JSON parsing with Fastify's own (prototype-poisoning safe) parser; an empty body means "no parameters". */
export function installBodyParsing(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    // Fastify's parser answers through `done`; whatever it returns is not ours to wait for.
    void parseJson(request, body as string, done);
  });
}

/** The request's parameters: query string, overlaid by the JSON body (the body wins). */
export function input(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    throw badRequest('Request body must be a JSON object');
  }
  return { ...((request.query as Record<string, unknown> | undefined) ?? {}), ...((body as Record<string, unknown> | undefined) ?? {}) };
}

/** Validates parameters; failure is 422 naming the offending attributes. */
export function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const attributes = [...new Set(issues.map((i) => String(i.path[0] ?? 'base')))];
  const first = issues[0]!;
  const where = first.path.length ? `${first.path.join('.')} ` : '';
  throw invalid(`${where}${first.message}`.trim(), attributes);
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
 * Rails wraps a JSON body's attributes under the resource key (`wrap_parameters`), so clients send
 * either `{agent: {name}}` or `{name}`. This accepts both: the nested object when there is one.
 */
export function wrapped(params: Record<string, unknown>, key: string): Record<string, unknown> {
  const inner = params[key];
  return inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : params;
}
