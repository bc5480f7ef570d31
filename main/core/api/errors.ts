// Normalises every error shape the service (or a proxy in front of it) can answer with into one
// typed BridgeError. Client guidance from the spec: read `error`, then `message`, then `errors[0]`.
import type { BridgeError, BridgeErrorKind } from '../../../shared/bridge/result';

export function kindForStatus(status: number): BridgeErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 422 || status === 400 || status === 413) return 'validation';
  // An `If-Match` the service checked: the conversation changed since the revision we sent.
  if (status === 412) return 'conflict';
  if (status === 429) return 'rate_limited';
  // A proxy gave up waiting for the service: as transient as a timeout of our own.
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  return 'bad_response';
}

const fallbackMessage: Record<string, string> = {
  unauthorized: 'The service did not accept the access token.',
  forbidden: 'You do not have permission to do this.',
  not_found: 'Not found. It may have been deleted, or belong to another account.',
  validation: 'The service rejected the request.',
  conflict: 'It changed on the service since it was read.',
  rate_limited: 'The service is busy (rate limited). Retrying shortly.',
  server: 'The service had a problem. Try again shortly.',
  bad_response: 'The service answered in an unexpected way.',
  timeout: 'The service did not answer in time.',
};

// eslint-disable-next-line no-control-regex -- control characters are what is being removed
const plain = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/**
 * The text of a JSON error body, following the spec's reading order; undefined if none. `clean`
 * (main's secret cutter) runs on each string before it is shortened, so a cut never leaves part of
 * a secret behind. Nothing else of the body is kept.
 */
export function errorText(body: unknown, clean: (text: string) => string = (t) => t): { message?: string; attributes?: string[] } {
  if (!body || typeof body !== 'object') return {};
  const b = body as Record<string, unknown>;
  if (typeof b.error === 'string') return { message: clean(b.error) };
  if (typeof b.message === 'string') {
    // Field names: short plain strings, a bounded list.
    const attributes = Array.isArray(b.attributes) ? b.attributes.filter((a): a is string => typeof a === 'string').slice(0, 20).map((a) => plain(clean(a)).slice(0, 100)) : undefined;
    return { message: clean(b.message), ...(attributes ? { attributes } : {}) };
  }
  if (Array.isArray(b.errors) && typeof b.errors[0] === 'string') return { message: clean(b.errors[0]) };
  return {};
}

/**
 * Builds the error from a failed response. `bodyText` may be JSON in any of the spec's shapes,
 * `Retry later` as text/plain, an HTML page from a proxy, or empty.
 */
export function httpError(status: number, contentType: string, bodyText: string, clean?: (text: string) => string): BridgeError {
  const kind = kindForStatus(status);
  let parsed: { message?: string; attributes?: string[] } = {};
  if (contentType.includes('json') || /^\s*[{[]/.test(bodyText)) {
    try {
      parsed = errorText(JSON.parse(bodyText), clean);
    } catch {
      parsed = {};
    }
  }
  // Service text is shown to the agent, so keep it short and plain; HTML pages and text bodies
  // (`Retry later`, proxy pages) are never shown, only our own sentence for the status.
  const shown = parsed.message === undefined ? undefined : plain(parsed.message).slice(0, 300);
  const message = shown ? shown : (fallbackMessage[kind] ?? `Unexpected response (${status}).`);
  return { kind, message, status, ...(parsed.attributes ? { attributes: parsed.attributes } : {}) };
}
