// How the outbox reads a failure, and how long it waits before the next attempt.
import type { BridgeErrorKind } from '../../../shared/bridge/result';

/**
 * `refused`: the service answered no (or the input can never pass): roll back, tell the agent.
 * `not_processed`: the service did not act on it (throttled, signed out): send again later.
 * `unknown`: it may or may not have happened (timeout, lost connection, 5xx, an odd answer).
 * For a "set to X" action both of the last two mean "send again"; for a message, `unknown`
 * means "look for it before sending again".
 */
export type FailureClass = 'refused' | 'not_processed' | 'unknown';

const refused: ReadonlySet<BridgeErrorKind> = new Set(['validation', 'not_found', 'forbidden', 'invalid_input', 'unauthorized']);
// `conflict`: a precondition the service checked failed, so it wrote nothing; the sender reads again.
// `unreachable`: no connection was made, so nothing was sent (offline, the service down).
const notProcessed: ReadonlySet<BridgeErrorKind> = new Set(['rate_limited', 'session_expired', 'not_signed_in', 'conflict', 'unreachable']);

export function classify(kind: BridgeErrorKind): FailureClass {
  if (refused.has(kind)) return 'refused';
  if (notProcessed.has(kind)) return 'not_processed';
  return 'unknown';
}

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  /** 429 has no Retry-After: back off on a slower schedule. */
  rateLimitedBaseMs: number;
  /**
   * How long after it went a request of unknown outcome may still land: main's own timeout
   * (15 s), plus up to 2 minutes a proxy or a mobile network may hold a request after the client
   * gave up, plus a margin. Against a service that offers no protection (no idempotency key, no
   * precondition), nothing else is sent for that conversation until then (a quiet window), and a
   * message is looked for only after it: by then it has landed or never will.
   */
  landingWindowMs: number;
}

/** Main gives up on a request after this long (main/core/api/client.ts DEFAULT_TIMEOUT_MS). */
const CLIENT_TIMEOUT_MS = 15_000;
/** The longest we design for a request to be held and then delivered after the client gave up. */
export const LATE_DELIVERY_MS = 120_000;

export const defaultBackoff: BackoffPolicy = { baseMs: 1_000, maxMs: 60_000, rateLimitedBaseMs: 5_000, landingWindowMs: CLIENT_TIMEOUT_MS + LATE_DELIVERY_MS + 10_000 };

/** Full jitter: a random wait up to base·2^(attempt−1), capped. `attempt` counts from 1. */
export function retryDelay(policy: BackoffPolicy, attempt: number, kind: BridgeErrorKind, random: () => number): number {
  const base = kind === 'rate_limited' ? policy.rateLimitedBaseMs : policy.baseMs;
  const ceiling = Math.min(policy.maxMs, base * 2 ** Math.min(30, Math.max(0, attempt - 1)));
  return Math.floor(random() * ceiling);
}
