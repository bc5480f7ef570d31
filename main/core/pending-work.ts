// Work main must finish before the app quits: bridge calls in flight and file writes (a token or
// the saved-session list half written would be lost). `drain` waits for it, but only so long:
// a hung request must not keep the app from quitting.
import type { Clock } from './api/retry';
import { realClock } from './api/retry';

export function createPendingWork(clock: Pick<Clock, 'timer'> = realClock) {
  const inFlight = new Set<Promise<unknown>>();

  /** Registers `work` and answers it unchanged. */
  function track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
    return work;
  }

  /**
   * Resolves `drained` once everything tracked so far (and anything it started meanwhile) has
   * settled, or `timed_out` after `boundMs`.
   */
  async function drain(boundMs: number): Promise<'drained' | 'timed_out'> {
    let cancel = () => undefined as void;
    const timeout = new Promise<'timed_out'>((resolve) => {
      cancel = clock.timer(boundMs, () => resolve('timed_out'));
    });
    const settleAll = async (): Promise<'drained'> => {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
      return 'drained';
    };
    try {
      return await Promise.race([settleAll(), timeout]);
    } finally {
      cancel();
    }
  }

  return { track, drain, size: () => inFlight.size };
}
export type PendingWork = ReturnType<typeof createPendingWork>;
