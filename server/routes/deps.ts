// What every route module needs from the service: the database, the event bus and the clock.
import type { Db } from '../db/open';
import type { EventBus } from '../events/bus';
import type { Caller } from '../http/auth';
import { callerName } from '../http/auth';
import type { WriteContext } from '../store/writes';

export interface RouteDeps {
  db: Db;
  bus: EventBus;
  clock: () => number;
  /** ServiceOptions.publicUrl. */
  publicUrl?: () => string | undefined;
  /** ServiceOptions.idempotencyTtlMs. */
  idempotencyTtlMs?: number;
}

/** A write context for the caller: now from the service clock, the caller as performer. */
export function writeContext(deps: RouteDeps, caller: Caller): WriteContext & { actorName: string } {
  return { db: deps.db, bus: deps.bus, now: deps.clock(), performer: caller.performer, actorName: callerName(caller) };
}

/** The account's labels, teams or inboxes (or who is in one) changed: every agent of the account hears it (`account.cache_invalidated`) and reads them again. */
export function directoryChanged(deps: RouteDeps, accountId: number, changed: 'label' | 'team' | 'inbox'): void {
  deps.bus.emit({ name: 'account.cache_invalidated', accountId, changed, at: deps.clock() });
}
