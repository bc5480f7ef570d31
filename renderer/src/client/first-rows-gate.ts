// Work the first rows do not need waits until those rows are on screen (issue 14, the cold open).
//
// On a cold open with a cache, the list's first rows are read before the inbox renders
// (conversations/early-rows.ts) and shown in its first commit. Dexie's live queries each start
// from a zero-delay timer, and the dozen the inbox begins in that commit (tab counts, the outbox's
// word, the conflict bar, the unread badge, settings, the directory, the triage keys' state) ran
// between it and the frame showing the rows: in a traced load, 10 ms of timers and 6 ms of the
// renders their answers made, after the rows were in the page. The commit's effects also asked
// main for the view's first page, the changes feed and the outbox's first send, whose answers
// came in as tasks ahead of the frame too, so the frame waited for all of it. Those now begin once
// the frame showing the rows is done (the list opens the gate: conversations/use-list.ts); what
// the rows themselves show from other tables is read early beside them (early-rows.ts).
//
// A session that opens without rows read early starts open, so nothing waits (tests, a first
// sign-in); a gate the list never opens opens by itself after `fallbackMs`, so nothing waits long
// for a list that is not there.

export interface FirstRowsGate {
  /** Whether reads held for the first rows may begin. */
  isOpen(): boolean;
  /** Told once, when the gate opens (useSyncExternalStore's subscribe). */
  subscribe(listener: () => void): () => void;
  /** Runs `run` once the gate is open (at once if it is). Returns how to cancel it. */
  whenOpen(run: () => void): () => void;
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
  const subscribe = (listener: () => void) => {
    if (isOpen) return () => undefined;
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    isOpen: () => isOpen,
    subscribe,
    whenOpen(run) {
      if (isOpen) {
        run();
        return () => undefined;
      }
      // Its own listener, so the same `run` asked for twice runs twice.
      return subscribe(() => run());
    },
    open,
    stop: () => clearTimeout(fallback),
  };
}
