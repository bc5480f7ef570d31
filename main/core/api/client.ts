// The one way main talks to the Customer Messaging Service. Builds requests to the signed-in base
// URL only, puts the token in the `api_access_token` header, times out every request, retries
// GETs on transient failures (exponential backoff, full jitter; 429 on its own slower schedule),
// and never retries a POST: the service does not deduplicate, so the outbox decides.
import type { z } from 'zod';
import type { BridgeError, Result } from '../../../shared/bridge/result';
import type { SecretRegistry } from '../redact';
import { redactText } from '../redact';
import { httpError } from './errors';
import type { MultipartForm } from './multipart';
import { encodeForm } from './multipart';
import type { Clock, RetryPolicy } from './retry';
import { defaultRateLimitRetry, defaultRetry, fullJitterDelay, realClock } from './retry';

export type { RetryPolicy } from './retry';
export { defaultRateLimitRetry, defaultRetry } from './retry';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

export interface ServiceRequest {
  method: HttpMethod;
  /** Absolute API path built from validated values, e.g. `/api/v1/accounts/1/conversations`. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** A multipart/form-data body instead of JSON (a message with files). */
  form?: MultipartForm;
  /** How much of a form body has been handed over (bytes). */
  onUploadProgress?: (sent: number, total: number) => void;
  /** Extra request headers, from validated values only (`Idempotency-Key`, `If-Match`). */
  headers?: Record<string, string>;
  /** Shapes the answer from its body and response headers (an `ETag`) before it is validated. */
  respond?: (body: unknown, headers: Headers) => unknown;
}

/** What the service advertises beyond the spec (SYNC-PROTOCOL.md), as last seen on its responses. */
export interface ServiceFeatures {
  idempotencyKey: boolean;
  conversationEtag: boolean;
  changesFeed: boolean;
  presence: boolean;
}
export const noFeatures: ServiceFeatures = { idempotencyKey: false, conversationEtag: false, changesFeed: false, presence: false };

/** The `X-Inbox-Extensions` header's tokens as features; anything unknown is ignored. */
export function featuresOf(header: string | null): ServiceFeatures {
  const tokens = new Set((header ?? '').split(',').map((t) => t.trim().toLowerCase()));
  return { idempotencyKey: tokens.has('idempotency-key'), conversationEtag: tokens.has('conversation-etag'), changesFeed: tokens.has('changes-feed'), presence: tokens.has('presence') };
}

export interface ServiceClientOptions {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  /** Per attempt, covering the answer's body too. */
  timeoutMs?: number;
  /** Transient failures of safe requests: network errors, timeouts, 5xx. */
  retry?: RetryPolicy;
  /** 429 has no Retry-After, so clients back off on their own, slower, schedule. */
  rateLimitRetry?: RetryPolicy;
  clock?: Clock;
  /**
   * Every secret main holds: credentials an answer carries are learnt (`harvest`), and all of them
   * are cut out of the answer before it is parsed or shortened, so no part of one survives a cut.
   */
  secrets?: Pick<SecretRegistry, 'harvest' | 'scrub' | 'scrubAnswer'>;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
/**
 * A form body gets its time to go on top of the timeout, as if the link carried at least this many
 * bytes a second (a 25 MB message: about 6.5 minutes more), so a slow uplink is not cut off mid-file.
 */
export const MIN_UPLOAD_BYTES_PER_SECOND = 64 * 1024;

class RequestFailure extends Error {
  constructor(readonly error: BridgeError) {
    super(error.message);
  }
}

const transient = new Set(['network', 'unreachable', 'timeout', 'server']);

/**
 * Codes of a connection that was never made (undici puts them on the error's `cause`, or on each
 * attempt of an AggregateError when several addresses were tried): the request never left, so the
 * outbox may send it again at once instead of waiting out the window in which it could still land.
 */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);
const codeOf = (e: unknown) => (typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined);
export function neverConnected(err: unknown): boolean {
  const cause = typeof err === 'object' && err !== null ? (err as { cause?: unknown }).cause : undefined;
  const code = codeOf(cause);
  if (code) return NOT_CONNECTED.has(code);
  const attempts = typeof cause === 'object' && cause !== null ? (cause as { errors?: unknown }).errors : undefined;
  return Array.isArray(attempts) && attempts.length > 0 && attempts.every((a) => NOT_CONNECTED.has(codeOf(a) ?? ''));
}

export function buildUrl(baseUrl: string, req: Pick<ServiceRequest, 'path' | 'query'>): URL {
  if (!req.path.startsWith('/') || req.path.includes('..') || req.path.includes('//') || req.path.includes('\\')) {
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
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const clock = options.clock ?? realClock;
  const retry = options.retry ?? defaultRetry;
  const limited = options.rateLimitRetry ?? defaultRateLimitRetry;
  // Every response says what the service offers now (a service can be upgraded or replaced under us).
  let features: ServiceFeatures = noFeatures;
  // Whatever the service or a proxy echoes back, no secret leaves in an error message or in an
  // answer: each is cut out of every string before anything is parsed, shortened or forwarded.
  // (Main's outgoing gate scrubs every answer again, on its way to the renderer.)
  const clean = (text: string) => redactText(options.secrets ? options.secrets.scrub(text) : text, [options.token]);
  const learnText = (text: string) => {
    if (!options.secrets || !/^\s*[{[]/.test(text)) return;
    try {
      options.secrets.harvest(JSON.parse(text));
    } catch {
      // Not JSON: nothing named to learn.
    }
  };

  async function once(req: ServiceRequest): Promise<unknown> {
    const url = buildUrl(options.baseUrl, req);
    const headers: Record<string, string> = { ...req.headers, api_access_token: options.token, accept: 'application/json' };
    let requestBody: string | ReadableStream<Uint8Array> | undefined;
    let allowedMs = timeoutMs;
    if (req.form) {
      const form = await encodeForm(req.form, req.onUploadProgress);
      headers['content-type'] = form.contentType;
      headers['content-length'] = String(form.length);
      requestBody = form.body;
      allowedMs += Math.ceil((form.length / MIN_UPLOAD_BYTES_PER_SECOND) * 1000);
    } else if (req.body !== undefined) {
      headers['content-type'] = 'application/json';
      requestBody = JSON.stringify(req.body);
    }
    const abort = new AbortController();
    let timedOut = false;
    const cancelTimer = clock.timer(allowedMs, () => {
      timedOut = true;
      abort.abort();
    });
    const timeoutError = { kind: 'timeout', message: `The service did not answer within ${Math.round(allowedMs / 1000)} s.` } as const;
    try {
      let response: Response;
      try {
        response = await doFetch(url, {
          method: req.method,
          headers,
          body: requestBody,
          signal: abort.signal,
          redirect: 'error',
          // A stream body (a form) goes as it is read; Node's fetch needs to be told.
          ...(typeof requestBody === 'object' ? { duplex: 'half' } : {}),
        } as RequestInit);
      } catch (err) {
        throw new RequestFailure(
          timedOut
            ? timeoutError
            : { kind: neverConnected(err) ? 'unreachable' : 'network', message: 'The service could not be reached. Check the address and your connection.' },
        );
      }
      // What the service itself answered (not a proxy's 5xx or a throttle page) says what it offers now.
      if (response.status < 500 && response.status !== 429) features = featuresOf(response.headers.get('x-inbox-extensions'));
      let text: string;
      try {
        text = await response.text();
      } catch {
        throw new RequestFailure(timedOut ? timeoutError : { kind: 'network', message: 'The connection broke while the service was answering.' });
      }
      if (!response.ok) {
        learnText(text);
        throw new RequestFailure(httpError(response.status, response.headers.get('content-type') ?? '', text, clean));
      }
      let body: unknown = null;
      try {
        if (text.trim() !== '') body = JSON.parse(text);
      } catch {
        throw new RequestFailure({ kind: 'bad_response', message: 'The service answered with something that is not JSON.', status: response.status });
      }
      if (options.secrets && body !== null) {
        try {
          body = options.secrets.scrubAnswer(body);
        } catch {
          throw new RequestFailure({ kind: 'bad_response', message: 'The service answered in an unexpected shape (nested too deep).', status: response.status });
        }
      }
      return req.respond ? req.respond(body, response.headers) : body;
    } finally {
      cancelTimer();
    }
  }

  /** GETs retry; everything else goes once (a repeated POST would create a duplicate). */
  async function withRetries(req: ServiceRequest): Promise<unknown> {
    let transientRetries = 0;
    let rateLimitRetries = 0;
    for (;;) {
      try {
        return await once(req);
      } catch (err) {
        if (!(err instanceof RequestFailure) || req.method !== 'GET') throw err;
        if (err.error.kind === 'rate_limited') {
          if (rateLimitRetries + 1 >= limited.attempts) throw err;
          await clock.sleep(fullJitterDelay(limited, rateLimitRetries++, clock.random));
        } else if (transient.has(err.error.kind)) {
          if (transientRetries + 1 >= retry.attempts) throw err;
          await clock.sleep(fullJitterDelay(retry, transientRetries++, clock.random));
        } else {
          throw err;
        }
      }
    }
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

  return { send, features: (): ServiceFeatures => features };
}
export type ServiceClient = ReturnType<typeof createServiceClient>;
