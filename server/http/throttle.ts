// The spec's Limits table, on only in production (`--production`). Each row is a request matcher
// (method + path pattern → key) checked in an onRequest hook, before routing and authentication,
// so a row applies whether or not its route exists in this build (the widget routes live on
// another branch). A tripped row answers 429 `Retry later` as text/plain with no Retry-After.
//
// Counting is rate-limiter-flexible's (RateLimiterMemory: atomic increments, expiry of old keys).
// Windows are fixed and keyed by the service clock, as rack-attack keys them
// (`name:key:floor(now / period)`): the library never reads the time we are judged by, so tests
// move an injected clock instead of sleeping. The library's own expiry (real time, one window long)
// only reclaims memory: a key's window on the service clock always ends before its record expires.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { sendThrottled } from './errors';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface RequestFacts {
  method: string;
  /** Path without the query string or a `.json` suffix. */
  path: string;
  ip: string;
  query: URLSearchParams;
  token: string | undefined;
}

export interface ThrottleRule {
  name: string;
  limit: number;
  windowMs: number;
  /** The bucket this request counts against, or undefined when the row does not apply. */
  key(r: RequestFacts): string | undefined;
}

/** The account id in the path, when the path matches. */
const accountFrom = (pattern: RegExp) => (r: RequestFacts) => pattern.exec(r.path)?.[1];
/** Tokens are secrets: buckets hold a digest, never the token. */
const digest = (token: string) => createHash('sha256').update(token).digest('base64url').slice(0, 22);

/** Every row of the spec's Limits table, in its order. */
export const LIMITS: readonly ThrottleRule[] = [
  { name: 'requests per IP', limit: 3000, windowMs: MINUTE, key: (r) => r.ip },
  { name: 'contact search per account', limit: 100, windowMs: MINUTE, key: accountFrom(/^\/api\/v1\/accounts\/(\d+)\/contacts\/search\/?$/) },
  {
    name: 'reports per user',
    limit: 100,
    windowMs: MINUTE,
    key: (r) => {
      const account = accountFrom(/^\/api\/v2\/accounts\/(\d+)\/reports(?:\/|$)/)(r);
      return account && r.token ? `${account}:${digest(r.token)}` : undefined;
    },
  },
  { name: 'reports per account', limit: 1000, windowMs: MINUTE, key: accountFrom(/^\/api\/v2\/accounts\/(\d+)\/reports(?:\/|$)/) },
  { name: 'conversation transcript per account', limit: 30, windowMs: HOUR, key: accountFrom(/^\/api\/v1\/accounts\/(\d+)\/conversations\/\d+\/transcript\/?$/) },
  { name: 'attachment upload per account', limit: 60, windowMs: HOUR, key: accountFrom(/^\/api\/v1\/accounts\/(\d+)\/upload\/?$/) },
  { name: 'account creation per IP', limit: 50, windowMs: 30 * MINUTE, key: (r) => (r.method === 'POST' && /^\/api\/v1\/accounts\/?$/.test(r.path) ? r.ip : undefined) },
  { name: 'widget conversation per visitor IP', limit: 6, windowMs: 12 * HOUR, key: (r) => (r.method === 'POST' && /^\/api\/v1\/widget\/conversations\/?$/.test(r.path) ? r.ip : undefined) },
  {
    name: 'widget contact update per visitor IP',
    limit: 60,
    windowMs: HOUR,
    key: (r) => ((r.method === 'PATCH' || r.method === 'PUT') && /^\/api\/v1\/widget\/contacts\/?$/.test(r.path) ? r.ip : undefined),
  },
  {
    name: 'widget page without cw_conversation per visitor IP',
    limit: 5,
    windowMs: HOUR,
    key: (r) => (r.method === 'GET' && /^\/widget\/?$/.test(r.path) && !r.query.get('cw_conversation') ? r.ip : undefined),
  },
];

function factsOf(request: FastifyRequest): RequestFacts {
  const [rawPath = '/', rawQuery = ''] = request.url.split('?', 2);
  const header = request.headers['api_access_token'] ?? request.headers['api-access-token'] ?? request.headers['uid'];
  return {
    method: request.method,
    path: rawPath.replace(/\.json$/, ''),
    ip: request.ip,
    query: new URLSearchParams(rawQuery),
    token: Array.isArray(header) ? header[0] : header,
  };
}

export function installThrottles(app: FastifyInstance, clock: () => number, rules: readonly ThrottleRule[] = LIMITS) {
  const limiters = rules.map((rule) => ({ rule, limiter: new RateLimiterMemory({ points: rule.limit, duration: Math.ceil(rule.windowMs / 1000) }) }));
  app.addHook('onRequest', async (request, reply) => {
    const facts = factsOf(request);
    const now = clock();
    // Like rack-attack, rows are checked in order and the first one tripped answers.
    for (const { rule, limiter } of limiters) {
      const key = rule.key(facts);
      if (key === undefined) continue;
      try {
        await limiter.consume(`${key}|${Math.floor(now / rule.windowMs)}`);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        request.log.info({ throttle: rule.name }, 'throttled');
        return sendThrottled(reply);
      }
    }
  });
}
