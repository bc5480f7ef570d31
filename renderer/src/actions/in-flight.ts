// Actions between the key press and the moment the list has re-read them from the cache. The key
// handler applies its intent here synchronously (the list shows it on the very next frame) and
// the durable write (perform: the row and the outbox entry in one transaction) follows; if that
// write fails, the item goes (the screen undoes it) and the agent is told. The list re-reads the
// rows a write names a moment after it commits; until then it applies these in memory. Each item
// goes once the list has read rows from a query that started after its commit (by then the cache
// holds it, and idempotent intents applied twice change nothing). One per session client
// (`client.inFlight`), read by React through `useSyncExternalStore`; not UI state, so not zustand.
import type { Cached, Intent } from '../model/intent';

export interface InFlight {
  n: number;
  ids: readonly number[];
  intentFor: (cached: Cached, id: number) => Intent | undefined;
  at: number;
  /** performance.now() when its cache transaction committed. */
  committedAt?: number;
}

export class InFlightActions {
  private list: readonly InFlight[] = [];
  private next = 0;
  private readonly listeners = new Set<() => void>();

  /** The items now (a new array whenever one comes or goes; the same one otherwise). */
  readonly items = (): readonly InFlight[] => this.list;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  begin(ids: readonly number[], intentFor: InFlight['intentFor'], at: number): number {
    const n = ++this.next;
    this.set([...this.list, { n, ids, intentFor, at }]);
    return n;
  }

  /** Noted on the item itself: nothing on screen changes, so nothing renders again. */
  committed(n: number): void {
    const item = this.list.find((i) => i.n === n);
    if (item) item.committedAt = performance.now();
  }

  /** The durable write failed: the change is not shown any more. */
  drop(n: number): void {
    if (this.list.some((i) => i.n === n)) this.set(this.list.filter((i) => i.n !== n));
  }

  /** The list read its rows with a query that started at `queryStartedAt`: what committed before is in them. */
  settledBefore(queryStartedAt: number): void {
    if (this.list.some((i) => i.committedAt !== undefined && i.committedAt <= queryStartedAt)) {
      this.set(this.list.filter((i) => i.committedAt === undefined || i.committedAt > queryStartedAt));
    }
  }

  private set(list: readonly InFlight[]) {
    this.list = list;
    for (const l of this.listeners) l();
  }
}
