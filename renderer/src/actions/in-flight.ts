// Actions between the key press and the moment the list has re-read them from the cache. The
// cache write itself is quick, but a list view re-reads every row of the view after it (10,000
// rows take a few hundred milliseconds), so the list applies these in memory meanwhile: a resolved
// row leaves the Open list on the next frame. Each item goes once the list has read rows from a
// query that started after its commit (by then the cache holds it, and idempotent intents applied
// twice change nothing).
import { create } from 'zustand';
import type { Cached, Intent } from '../model/intent';

export interface InFlight {
  n: number;
  ids: readonly number[];
  intentFor: (cached: Cached, id: number) => Intent | undefined;
  at: number;
  /** performance.now() when its cache transaction committed. */
  committedAt?: number;
}

export const useInFlight = create<{ items: InFlight[] }>(() => ({ items: [] }));

let next = 0;

export function beginInFlight(ids: readonly number[], intentFor: InFlight['intentFor'], at: number): number {
  const n = ++next;
  useInFlight.setState((s) => ({ items: [...s.items, { n, ids, intentFor, at }] }));
  return n;
}

/** Noted on the item itself, not as a new state: nothing on screen changes, so nothing renders again. */
export function committedInFlight(n: number): void {
  const item = useInFlight.getState().items.find((i) => i.n === n);
  if (item) item.committedAt = performance.now();
}

export function dropInFlight(n: number): void {
  useInFlight.setState((s) => ({ items: s.items.filter((i) => i.n !== n) }));
}

/** The list read its rows with a query that started at `queryStartedAt`: what committed before is in them. */
export function settledBefore(queryStartedAt: number): void {
  const { items } = useInFlight.getState();
  if (items.some((i) => i.committedAt !== undefined && i.committedAt <= queryStartedAt)) {
    useInFlight.setState({ items: items.filter((i) => i.committedAt === undefined || i.committedAt > queryStartedAt) });
  }
}
