// The spec's Limits table, on only in production (`--production`). A tripped row answers 429
// `Retry later` as text/plain with no Retry-After.
//
// Rows match the route Fastify resolved, not the raw URL: an onRequest hook runs after routing and
// before body parsing and authentication, with the registered pattern (`request.routeOptions.url`)
// and the parsed params. So every spelling the router serves for a route lands in that route's
// bucket: percent-encoded characters (`contacts/%73earch`), zero-padded ids (`accounts/01`, which
// `intString` reads as account 1; ids are normalized to `String(Number(id))`), aliases (the widget's
// `/contact` and `/contacts` share one handler and one row), HEAD (served by the GET handler). A
// spelling the router does not serve (trailing or doubled slash, other case, `;`) is a 404 that no
// handler runs, so it costs nothing and only the per-IP row counts it; if router options ever loosen
// (`ignoreTrailingSlash`, `caseSensitive: false`), the resolved pattern is still the same one.
// The per-IP row counts every request, routed or not. A row naming a pattern no route registers
// fails startup (onReady), so renaming a route cannot quietly switch its throttle off.
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
  /** HEAD is GET: Fastify serves it with the GET handler. */
  method: string;
  ip: string;
  /** Fastify's parsed query string. */
  query: Record<string, unknown>;
  token: string | undefined;
  /** The account id of the path, normalized (`01` → `1`), when the route has one. */
  account: string | undefined;
}

export interface ThrottleRule {
  name: string;
  limit: number;
  windowMs: number;
  /** The registered route patterns this row counts; absent: every request, routed or not. */
  routes?: readonly string[];
  /** The methods it counts; absent: any. */
  methods?: readonly string[];
  /** The bucket this request counts against, or undefined when the row does not apply. */
  key(r: RequestFacts): string | undefined;
}

/** Tokens are secrets: buckets hold a digest, never the token. */
const digest = (token: string) => createHash('sha256').update(token).digest('base64url').slice(0, 22);
const perAccount = (r: RequestFacts) => r.account;
const perIp = (r: RequestFacts) => r.ip;
/** Rails' `blank?`: absent, empty or whitespace only. An array (`cw_conversation[]=`) is not a token either. */
const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';
const REPORTS = ['/api/v2/accounts/:account_id/reports', '/api/v2/accounts/:account_id/reports/summary'];

/** Every row of the spec's Limits table, in its order. */
export const LIMITS: readonly ThrottleRule[] = [
  { name: 'requests per IP', limit: 3000, windowMs: MINUTE, key: perIp },
  { name: 'contact search per account', limit: 100, windowMs: MINUTE, routes: ['/api/v1/accounts/:account_id/contacts/search'], key: perAccount },
  { name: 'reports per user', limit: 100, windowMs: MINUTE, routes: REPORTS, key: (r) => (r.account && r.token ? `${r.account}:${digest(r.token)}` : undefined) },
  { name: 'reports per account', limit: 1000, windowMs: MINUTE, routes: REPORTS, key: perAccount },
  { name: 'conversation transcript per account', limit: 30, windowMs: HOUR, routes: ['/api/v1/accounts/:account_id/conversations/:conversation_id/transcript'], key: perAccount },
  { name: 'attachment upload per account', limit: 60, windowMs: HOUR, routes: ['/api/v1/accounts/:account_id/upload'], key: perAccount },
  { name: 'account creation per IP', limit: 50, windowMs: 30 * MINUTE, routes: ['/api/v1/accounts'], methods: ['POST'], key: perIp },
  { name: 'widget conversation per visitor IP', limit: 6, windowMs: 12 * HOUR, routes: ['/api/v1/widget/conversations'], methods: ['POST'], key: perIp },
  // `/contact` is the same handler as `/contacts` (widget/session.ts); set_user is another endpoint.
  { name: 'widget contact update per visitor IP', limit: 60, windowMs: HOUR, routes: ['/api/v1/widget/contacts', '/api/v1/widget/contact'], methods: ['PATCH', 'PUT'], key: perIp },
  {
    name: 'widget page without cw_conversation per visitor IP',
    limit: 5,
    windowMs: HOUR,
    routes: ['/widget'],
    methods: ['GET'],
    key: (r) => (blank(r.query.cw_conversation) ? r.ip : undefined),
  },
];

/** `01` and `1` are the same account to intString, so they are the same bucket; anything else is kept as sent (the route answers 400). */
const normalizeId = (id: unknown) => (typeof id === 'string' && /^\d+$/.test(id) ? String(Number(id)) : typeof id === 'string' ? id : undefined);

function factsOf(request: FastifyRequest): RequestFacts {
  const header = request.headers['api_access_token'] ?? request.headers['api-access-token'] ?? request.headers['uid'];
  return {
    method: request.method === 'HEAD' ? 'GET' : request.method,
    ip: request.ip,
    query: (request.query ?? {}) as Record<string, unknown>,
    token: Array.isArray(header) ? header[0] : header,
    account: normalizeId((request.params as Record<string, unknown> | undefined)?.account_id),
  };
}

export function installThrottles(app: FastifyInstance, clock: () => number, rules: readonly ThrottleRule[] = LIMITS) {
  const limiters = rules.map((rule) => ({ rule, limiter: new RateLimiterMemory({ points: rule.limit, duration: Math.ceil(rule.windowMs / 1000) }) }));
  const registered = new Set<string>();
  app.addHook('onRoute', (route) => {
    registered.add(route.url);
  });
  app.addHook('onReady', async () => {
    for (const { name, routes = [] } of rules) {
      for (const url of routes) if (!registered.has(url)) throw new Error(`throttle row "${name}" names ${url}, which no route registers`);
    }
  });
  app.addHook('onRequest', async (request, reply) => {
    const facts = factsOf(request);
    // The resolved pattern; undefined when no route matched (the 404 handler).
    const route = request.routeOptions.url;
    const now = clock();
    // Like rack-attack, rows are checked in order and the first one tripped answers.
    for (const { rule, limiter } of limiters) {
      if (rule.routes && (route === undefined || !rule.routes.includes(route))) continue;
      if (rule.methods && !rule.methods.includes(facts.method)) continue;
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
