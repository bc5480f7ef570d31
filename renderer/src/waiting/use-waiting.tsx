// The waiting-time colours and the clock the waiting chips read. One live read of the settings
// row for the whole inbox (a provider), not one per row; one ticker for every chip on screen.
import { earlyWaitingSetting } from '../conversations/early-rows';
import { useLiveQueryAfterEarly } from '../db/live-query-after-first-rows';
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import type { WaitingThresholds } from '../model/waiting';
import { defaultWaitingThresholds } from '../model/waiting';
import { useSession } from '../platform/session';
import { WAITING_SETTINGS_KEY, readThresholds } from './settings';

const ThresholdsContext = createContext<WaitingThresholds>(defaultWaitingThresholds);

export function WaitingThresholdsProvider({ children }: { children: ReactNode }) {
  const { db } = useSession();
  // On a cold open, read beside the first rows (their chips' colours are right in their first frame).
  const stored = useLiveQueryAfterEarly(earlyWaitingSetting(db.name)?.value, async () => (await db.settings.get(WAITING_SETTINGS_KEY))?.value ?? null, [db]);
  return <ThresholdsContext.Provider value={readThresholds(stored)}>{children}</ThresholdsContext.Provider>;
}

export const useWaitingThresholds = () => useContext(ThresholdsContext);

/** Waits are shown in minutes: the chips move on every 30 seconds, all from one timer. */
const TICK_MS = 30_000;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  // The time is not taken afresh here: the chips were just drawn with `now` (snapshot() takes it
  // afresh when nothing was ticking), and a value changed between a render and its subscription
  // makes React draw every reader again at once (on a cold open, every row's chip, right behind the
  // first rows' frame).
  if (!timer) {
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (!listeners.size) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * The same value until the next tick (React compares snapshots); when nothing was ticking, taken
 * afresh if over a second old (so within one render every reader reads the same).
 */
function snapshot() {
  if (!timer && Date.now() - now >= 1_000) now = Date.now();
  return now;
}

/** Epoch seconds, moving on every 30 s while anything shows a wait. */
export function useNowSeconds(): number {
  const ms = useSyncExternalStore(subscribe, snapshot);
  return Math.floor(ms / 1000);
}
