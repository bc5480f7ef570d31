// Retry schedules for safe requests, as pure functions over an injected random source so tests
// can pin every delay. Two schedules, counted separately: transient failures (network, timeout,
// 5xx) and 429, which the spec sends without Retry-After, so we back off on our own, slower, clock.
//
// Why not the `exponential-backoff` package (used before): it draws jitter from Math.random and
// sleeps with the global setTimeout, so delays cannot be injected, and it has one schedule per
// call; the 429 schedule had to be bolted on inside its `retry` hook, which then added the shared
// delay on top. This is the whole algorithm in a dozen lines.

export interface RetryPolicy {
  /** Tries in total for this class of failure (1 = never retry). */
  attempts: number;
  baseMs: number;
  maxMs: number;
}

export const defaultRetry: RetryPolicy = { attempts: 4, baseMs: 300, maxMs: 5_000 };
export const defaultRateLimitRetry: RetryPolicy = { attempts: 3, baseMs: 2_000, maxMs: 30_000 };

/** The ceiling for the n-th retry (0-based): base·2ⁿ, capped at max. */
export const backoffCeiling = (policy: RetryPolicy, retryIndex: number) => Math.min(policy.maxMs, policy.baseMs * 2 ** retryIndex);

/** "Full jitter": a uniformly random delay in [0, ceiling). `random` returns [0, 1) like Math.random. */
export const fullJitterDelay = (policy: RetryPolicy, retryIndex: number, random: () => number) =>
  Math.floor(Math.min(Math.max(random(), 0), 0.999_999) * backoffCeiling(policy, retryIndex));

export interface Clock {
  /** Waits `ms`; tests pass a recorder that resolves at once. */
  sleep(ms: number): Promise<void>;
  /** Arms a timer; answers a function that cancels it. Used for request timeouts. */
  timer(ms: number, onFire: () => void): () => void;
  random(): number;
}

export const realClock: Clock = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  timer(ms, onFire) {
    const handle = setTimeout(onFire, ms);
    return () => clearTimeout(handle);
  },
  random: Math.random,
};
