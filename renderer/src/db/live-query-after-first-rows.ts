// Dexie live queries that begin only once the inbox's first rows are on screen
// (client/first-rows-gate.ts says why). Until then they answer their default (undefined), as a
// live query does before its first answer.
import { liveQuery } from 'dexie';
import { useObservable } from 'dexie-react-hooks';
import { useSyncExternalStore } from 'react';
import { useSession } from '../platform/session';

/** An observable that never answers: a live query not begun yet. */
const NOT_YET = { subscribe: () => ({ unsubscribe: () => undefined }), hasValue: () => false };

/** Whether the session's first rows are on screen (or it had none read early). */
export function useFirstRowsShown(): boolean {
  const { firstRows } = useSession().client;
  return useSyncExternalStore(firstRows.subscribe, firstRows.isOpen);
}

/** useLiveQuery, begun only while `ready`; the last answer (or `defaultResult`) stays until then. */
function useLiveQueryWhen<T, D = undefined>(ready: boolean, querier: () => Promise<T> | T, deps: unknown[], defaultResult?: D): T | D {
  return useObservable<T, D>(() => (ready ? liveQuery(querier) : NOT_YET), [ready, ...deps], defaultResult as D);
}

/**
 * useLiveQuery of something the cold open's early read already answered (conversations/early-rows.ts):
 * that answer is shown as it is until the first rows are on screen, then followed; without one
 * (`early` undefined), read at once.
 */
export function useLiveQueryAfterEarly<T, E>(early: E | undefined, querier: () => Promise<T> | T, deps: unknown[]): T | E | undefined {
  return useLiveQueryWhen<T, E | undefined>(useFirstRowsShown() || early === undefined, querier, deps, early);
}

/** useLiveQuery, begun once the first rows are on screen. */
export function useLiveQueryAfterFirstRows<T>(querier: () => Promise<T> | T, deps: unknown[]): T | undefined {
  return useLiveQueryWhen(useFirstRowsShown(), querier, deps);
}
