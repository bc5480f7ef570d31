// Which parameters each route actually reads, so a sweep can try every one of them without a
// hand-kept list that goes stale. A Proxy over `request.query` (installed by `recordQueryReads`)
// and, where a test mocks `input()` (server/http/body.ts) through `watchReads`, over the merged
// query + body parameters, notes every name the route's code looks up: zod object schemas read each
// key of their shape, `listParam` reads `labels[]` and `labels`, handlers read `raw.q`.
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** `METHOD /route/:pattern` → parameter names read while serving it. */
export const paramReads = new Map<string, Set<string>>();

const routeKey = (request: FastifyRequest) => `${request.method} ${request.routeOptions.url ?? request.url}`;
// Parameter names are snake_case (with Rails' `[]` for lists); anything else read off the object
// (`then`, `toJSON`, symbols) is machinery, not a parameter.
const PARAM_NAME = /^[a-z][a-z0-9_]*(\[\])?$/;

export function watchReads<T>(request: FastifyRequest, params: T): T {
  if (!params || typeof params !== 'object') return params;
  const key = routeKey(request);
  return new Proxy(params as object, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && PARAM_NAME.test(prop)) {
        let names = paramReads.get(key);
        if (!names) paramReads.set(key, (names = new Set()));
        names.add(prop);
      }
      return Reflect.get(target, prop, receiver);
    },
  }) as T;
}

/**
 * Wraps every request's query string from the moment the service's own preValidation hook
 * (server/http/body.ts) replaces it with its normalized copy, so every later read is seen: the
 * scopes' hooks (the Client and Widget families read website_token there), route schemas, handlers.
 * A hook added here at preValidation would come too late: hooks of plugins registered before the
 * test adds its own run first. The normalization's own reads (every key sent) are not recorded.
 * Call before the app is ready.
 */
export function recordQueryReads(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    let query = request.query;
    Object.defineProperty(request, 'query', {
      configurable: true,
      enumerable: true,
      get: () => query,
      set: (value: unknown) => {
        query = watchReads(request, value);
      },
    });
  });
}

export const readsOf = (route: { method: string; url: string }) => [...(paramReads.get(`${route.method} ${route.url}`) ?? [])].sort();

/** The values that name Object.prototype members: a lookup in a plain object literal finds them. */
export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;
