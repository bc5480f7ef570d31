// The one way main talks to the Customer Messaging Service. Builds requests to the signed-in base
// URL only, puts the token in the `api_access_token` header, times out every request, retries
// GETs on transient failures (exponential backoff, full jitter; 429 on its own slower schedule),
// and never retries a POST: the service does not deduplicate, so the outbox decides.
import { backOff } from 'exponential-backoff';
import type { z } from 'zod';
import type { BridgeError, Result } from '../../../shared/bridge/result';
import { httpError } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

export interface ServiceRequest {
  method: HttpMethod;
  /** Absolute API path built from validated values, e.g. `/api/v1/accounts/1/conversations`. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
}

export interface RetryPolicy {
  attempts: number;
  baseMs: number;
  maxMs: number;
}

export interface ServiceClientOptions {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Transient failures of safe requests: network errors, timeouts, 5xx. */
  retry?: RetryPolicy;
  /** 429 has no Retry-After, so clients back off on their own, slower, schedule. */
  rateLimitRetry?: RetryPolicy;
}

export const defaultRetry: RetryPolicy = { attempts: 4, baseMs: 300, maxMs: 5_000 };
export const defaultRateLimitRetry: RetryPolicy = { attempts: 3, baseMs: 2_000, maxMs: 30_000 };

class RequestFailure extends Error {
  constructor(readonly error: BridgeError) {
    super(error.message);
  }
}

const transient = new Set(['network', 'timeout', 'server']);

export function buildUrl(baseUrl: string, req: Pick<ServiceRequest, 'path' | 'query'>): URL {
  if (!req.path.startsWith('/') || req.path.includes('..') || req.path.includes('//')) {
    throw new Error('Request paths are absolute API paths built from validated values.');
  }
  const base = new URL(baseUrl);
  const url = new URL(base.pathname.replace(/\/$/, '') + req.path, base.origin);
  if (url.origin !== base.origin) throw new Error('Requests go to the signed-in service only.');
  for (const [key, value] of Object.entries(req.query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) url.searchParams.append(`${key}[]`, String(v));
    else url.searchParams.set(key, String(value));
  }
  return url;
}

export function createServiceClient(options: ServiceClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;

  async function once(req: ServiceRequest): Promise<unknown> {
    const url = buildUrl(options.baseUrl, req);
    const headers: Record<string, string> = { api_access_token: options.token, accept: 'application/json' };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await doFetch(url, {
        method: req.method,
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
      throw new RequestFailure(
        timedOut
          ? { kind: 'timeout', message: `The service did not answer within ${Math.round(timeoutMs / 1000)} s.` }
          : { kind: 'network', message: 'The service could not be reached. Check the address and your connection.' },
      );
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) throw new RequestFailure(httpError(response.status, response.headers.get('content-type') ?? '', text));
    if (text.trim() === '') return null;
    try {
      return JSON.parse(text);
    } catch {
      throw new RequestFailure({ kind: 'bad_response', message: 'The service answered with something that is not JSON.', status: response.status });
    }
  }

  async function withRetries(req: ServiceRequest): Promise<unknown> {
    if (req.method !== 'GET') return once(req);
    const retry = options.retry ?? defaultRetry;
    const limited = options.rateLimitRetry ?? defaultRateLimitRetry;
    let rateLimitedAttempts = 0;
    return backOff(() => once(req), {
      numOfAttempts: Math.max(retry.attempts, limited.attempts),
      startingDelay: retry.baseMs,
      maxDelay: retry.maxMs,
      jitter: 'full',
      retry: async (err: unknown, attempt: number) => {
        if (!(err instanceof RequestFailure)) return false;
        if (err.error.kind === 'rate_limited') {
          rateLimitedAttempts++;
          if (rateLimitedAttempts >= limited.attempts) return false;
          // Its own schedule: wait an extra, slower, fully jittered delay before the shared backoff.
          const ceiling = Math.min(limited.maxMs, limited.baseMs * 2 ** (rateLimitedAttempts - 1));
          await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
          return true;
        }
        return transient.has(err.error.kind) && attempt < retry.attempts;
      },
    });
  }

  /** Sends the request and parses the answer with `schema`; never throws. */
  async function send<S extends z.ZodType>(req: ServiceRequest, schema: S): Promise<Result<z.output<S>>> {
    try {
      const body = await withRetries(req);
      const parsed = schema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return { ok: false, error: { kind: 'bad_response', message: `The service answered in an unexpected shape (${issue?.path.join('.') || 'body'}).` } };
      }
      return { ok: true, value: parsed.data };
    } catch (err) {
      if (err instanceof RequestFailure) return { ok: false, error: err.error };
      return { ok: false, error: { kind: 'internal', message: 'The request could not be built.' } };
    }
  }

  return { send };
}
export type ServiceClient = ReturnType<typeof createServiceClient>;
