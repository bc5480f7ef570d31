// Every bridge call answers `{ok: true, value} | {ok: false, error}`; nothing throws across the bridge.
import { z } from 'zod';

export const bridgeErrorKinds = [
  'invalid_input', // the caller sent arguments the contract rejects
  'not_signed_in', // no session, or the session was signed out
  'session_expired', // the service answered 401 for a session that used to work
  'unauthorized', // 401 on sign-in: the token is wrong
  'forbidden', // 403
  'not_found', // 404 (also another account's record)
  'validation', // 422 from the service
  'conflict', // 412: the record changed since it was read (an `If-Match` the service checked)
  'rate_limited', // 429 `Retry later`
  'server', // 5xx, treated as transient
  'network', // the service could not be reached, or the connection broke: the request may have arrived
  'unreachable', // no connection could be made (refused, no route, name not found): nothing was sent
  'timeout', // the service did not answer in time
  'bad_response', // the service answered something that is not the documented shape
  'internal', // a bug on our side; details are in main's log, never in the message
] as const;
export type BridgeErrorKind = (typeof bridgeErrorKinds)[number];

export const bridgeErrorSchema = z.object({
  kind: z.enum(bridgeErrorKinds),
  /** Human-readable, safe to show: never carries a token or a raw response body. */
  message: z.string(),
  status: z.number().optional(),
  /** Field names from a `{message, attributes}` validation error. */
  attributes: z.array(z.string()).optional(),
});
export type BridgeError = z.infer<typeof bridgeErrorSchema>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (kind: BridgeErrorKind, message: string, extra: Partial<BridgeError> = {}): Result<never> => ({
  ok: false,
  error: { kind, message, ...extra },
});
