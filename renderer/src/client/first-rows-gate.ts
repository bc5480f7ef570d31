// Reads the first rows do not need wait until those rows are on screen (issue 14, the cold open).
//
// On a cold open with a cache, the list's first rows are read before the inbox renders
// (conversations/early-rows.ts) and shown in its first commit. Dexie's live queries each start
// from a zero-delay timer, and the ones the inbox's header, tab counts, unread badge and conflict
// bar begin in that commit ran between it and the frame showing the rows: in a traced load, 10 ms
// of timers and 6 ms of the renders their answers made, before the rows' frame and after the rows
// were in the page. Those reads now begin once the frame showing the rows is done (the list opens
// the gate: conversations/use-list.ts). A session that opens without rows read early starts open,
// so nothing waits (tests, a first sign-in); a gate the list never opens opens by itself after
// `fallbackMs`, so nothing waits for long for a list that is not there.

export interface FirstRowsGate {
  /** Whether reads held for the first rows may begin. */
  isOpen(): boolean;
  /** Told once, when the gate opens (useSyncExternalStore's subscribe). */
  subscribe(listener: () => void): () => void;
  /** The first rows are on screen (or there are none to show). */
  open(): void;
  /** The session is over: its fallback timer goes. */
  stop(): void;
}

/** How long a closed gate waits for the list before it opens by itself. */
export const FIRST_ROWS_FALLBACK_MS = 1_000;

export function createFirstRowsGate(closed: boolean, fallbackMs = FIRST_ROWS_FALLBACK_MS): FirstRowsGate {
  let isOpen = !closed;
  const listeners = new Set<() => void>();
  const open = () => {
    clearTimeout(fallback);
    if (isOpen) return;
    isOpen = true;
    for (const listener of [...listeners]) listener();
    listeners.clear();
  };
  const fallback = closed ? setTimeout(open, fallbackMs) : undefined;
  return {
    isOpen: () => isOpen,
    subscribe(listener) {
      if (isOpen) return () => undefined;
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    open,
    stop: () => clearTimeout(fallback),
  };
}
