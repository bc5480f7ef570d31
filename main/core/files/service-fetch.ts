// Fetching a file's bytes from the signed-in service, under one policy (main/SECURITY.md, "Files
// from the service"):
// - only from the service's own origin (scheme, host and port of the address signed in to), whatever
//   address a message or a contact names; a redirect is followed only while it stays there (at most
//   three), so a data_url or a Location header cannot send main anywhere else;
// - http(s) only, no credentials in the address, no whitespace or control characters in it;
// - without any credential: no token header, no cookie (attachment and picture addresses are bearer
//   URLs, as a storage service's signed URLs are), so a misrouted request has nothing to give away;
// - size-limited: a declared Content-Length over the limit is refused before the body is read, and
//   the body is counted as it arrives (after decompression) and cut at the limit;
// - time-limited as a whole (headers and body), so a body that trickles is given up.
import type { FileRefusal } from '../../../shared/bridge/calls/files';

export interface FetchLimits {
  maxBytes: number;
  /** For the whole fetch, redirects and body included. */
  timeoutMs: number;
}

export interface ServiceFetchDeps {
  fetch: typeof fetch;
  /** Arms a timer; returns its cancel. Injected so tests never wait on a clock. */
  timer?: (ms: number, fire: () => void) => () => void;
}

export type Fetched =
  | { ok: true; bytes: Uint8Array; contentType: string }
  | { ok: false; refused: FileRefusal }
  | { ok: false; error: 'network' | 'timeout' | 'not_found' | 'server' | 'http'; status?: number };

export const MAX_REDIRECTS = 3;
const MAX_URL_LENGTH = 4096;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// C0 controls, space, DEL, and the whitespace the URL parser would silently drop or keep.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\x00-\x20\x7f\u00a0\u1680\u2000-\u200f\u2028\u2029\u202a-\u202f\u205f\u3000\ufeff]/;

const realTimer = (ms: number, fire: () => void) => {
  const t = setTimeout(fire, ms);
  return () => clearTimeout(t);
};

/**
 * `raw` resolved against the service's address and checked: an http(s) URL on the service's own
 * origin with no credentials, or why not. Relative addresses resolve onto the service.
 */
export function serviceFileUrl(raw: string, serviceBaseUrl: string): URL | FileRefusal {
  if (raw.length === 0 || raw.length > MAX_URL_LENGTH || UNSAFE_CHARS.test(raw)) return 'bad_address';
  let url: URL;
  let base: URL;
  try {
    base = new URL(serviceBaseUrl);
    url = new URL(raw, base);
  } catch {
    return 'bad_address';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'bad_address';
  if (url.username !== '' || url.password !== '') return 'bad_address';
  if (url.origin !== base.origin) return 'other_host';
  url.hash = '';
  return url;
}

/**
 * Reads at most `max` bytes of the body; undefined when it holds more (the rest is not read). Throws
 * once `signal` aborts, also where the body is not tied to the request's signal.
 */
async function readBounded(response: Response, max: number, signal: AbortSignal): Promise<Uint8Array | undefined> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', stop, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (signal.aborted) throw new Error('aborted');
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  signal.removeEventListener('abort', stop);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** GETs the file at `raw` from the service at `serviceBaseUrl` under the policy above. Never throws. */
export async function fetchServiceFile(raw: string, serviceBaseUrl: string, limits: FetchLimits, deps: ServiceFetchDeps): Promise<Fetched> {
  const first = serviceFileUrl(raw, serviceBaseUrl);
  if (typeof first === 'string') return { ok: false, refused: first };
  const abort = new AbortController();
  let timedOut = false;
  const cancelTimer = (deps.timer ?? realTimer)(limits.timeoutMs, () => {
    timedOut = true;
    abort.abort();
  });
  const failed = (): Fetched => ({ ok: false, error: timedOut ? 'timeout' : 'network' });
  try {
    let url = first;
    for (let hop = 0; ; hop++) {
      let response: Response;
      try {
        // No credentials of any kind: not the token, not a cookie (Node's fetch keeps no jar).
        response = await deps.fetch(url, { method: 'GET', headers: { accept: '*/*' }, redirect: 'manual', signal: abort.signal });
      } catch {
        return failed();
      }
      if (REDIRECTS.has(response.status)) {
        await response.body?.cancel().catch(() => undefined);
        const location = response.headers.get('location');
        if (!location || hop >= MAX_REDIRECTS) return { ok: false, error: 'http', status: response.status };
        const next = serviceFileUrl(location, url.href);
        if (typeof next === 'string') return { ok: false, refused: next };
        // Relative to where it was, but it must still be the service itself.
        if (next.origin !== first.origin) return { ok: false, refused: 'other_host' };
        url = next;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        const status = response.status;
        return { ok: false, error: status === 404 || status === 410 ? 'not_found' : status >= 500 ? 'server' : 'http', status };
      }
      const declared = Number(response.headers.get('content-length') ?? NaN);
      if (Number.isFinite(declared) && declared > limits.maxBytes) {
        await response.body?.cancel().catch(() => undefined);
        return { ok: false, refused: 'too_large' };
      }
      let bytes: Uint8Array | undefined;
      try {
        bytes = await readBounded(response, limits.maxBytes, abort.signal);
      } catch {
        return failed();
      }
      if (!bytes) return { ok: false, refused: 'too_large' };
      return { ok: true, bytes, contentType: response.headers.get('content-type') ?? '' };
    }
  } finally {
    cancelTimer();
  }
}
