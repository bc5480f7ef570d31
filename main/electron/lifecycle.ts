// Process-level behaviour: one instance (a second launch focuses the first), and quitting waits
// for the core's pending work, but only so long.
import { app } from 'electron';

/** False when another instance holds the lock: this one should quit at once. */
export function claimSingleInstance(onSecondLaunch: () => void): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', onSecondLaunch);
  return true;
}

export const QUIT_FLUSH_BOUND_MS = 3_000;

/**
 * The first before-quit is held back until `flush` settles (or the bound passes), then the quit
 * is repeated and goes through.
 */
export function flushBeforeQuit(flush: (boundMs: number) => Promise<unknown>, onDone: (outcome: unknown) => void = () => undefined) {
  let state: 'running' | 'flushing' | 'flushed' = 'running';
  app.on('before-quit', (event) => {
    if (state === 'flushed') return;
    event.preventDefault();
    if (state === 'flushing') return;
    state = 'flushing';
    void flush(QUIT_FLUSH_BOUND_MS)
      .then(onDone, onDone)
      .finally(() => {
        state = 'flushed';
        app.quit();
      });
  });
}
