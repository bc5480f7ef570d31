// Group commit: the writes submitted in one event-loop turn share one SQLite transaction.
//
// A message create is mostly its commit: SQLite writes every page the create changed to the WAL
// (about nine: the message, its two indexes, the change sequence, the conversation and its two
// indexes, the contact), two pwrite calls each, and takes and drops its locks (bench/README: the
// commit's WAL writes and the statements' transaction work were about a third of a create's CPU).
// Creates that arrive together change many of the same pages (the messages' last leaf, the change
// sequence, the conversation indexes' last leaves), so one transaction for the lot writes each of
// those once and locks once.
//
// What stays as it was for every client:
// - Each write runs in a savepoint of the group's transaction: one that fails (anywhere, its answer's
//   reads too) is rolled back alone, emits nothing and is answered with its own error; the others go on.
// - Nothing is answered and no event is emitted before the transaction has committed; if the commit
//   fails, every write of the group is answered with that error and emits nothing.
// - Only the submitted writes run inside the transaction, synchronously, from one setImmediate
//   callback: no other request reads or writes while it is open, so nobody ever sees uncommitted rows.
// - A write submitted now read its records earlier (its request's scope). If anything may have been
//   written since (any write of this connection, counted by total_changes(), or of another
//   connection, PRAGMA data_version, since the last group settled; or the group settled between
//   its reads and now), it reads them again first (`prepare(true)`): the same answer as if it had
//   run alone at that moment.
// - Writes whose keys (the rows they change that another write's event payloads read: the
//   conversation, the contact) meet an earlier write's in the same group wait for the next group,
//   committed and emitted right after, and read again: each event's payload is built after exactly
//   the writes before it, as when every create committed alone.
import type { Db } from '../db/open';
import { inTransaction, stmt } from '../db/open';
import type { DomainEvent, EventBus } from '../events/bus';
import { holdingEvents } from './writes';

export interface GroupedWrite<T> {
  /** `GroupCommit.epoch` when the write's records were read (its request's scope). */
  readEpoch: number;
  /**
   * Reads what the write needs (again when `fresh`: what it read before may have changed) and
   * answers the rows it changes, as keys, with the write itself. May throw (a record gone: 404).
   */
  prepare(fresh: boolean): { keys: readonly string[]; run(): T };
}

interface Pending {
  write: GroupedWrite<unknown>;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

interface Done {
  pending: Pending;
  value: unknown;
  events: DomainEvent[];
}

export class GroupCommit {
  private queue: Pending[] = [];
  /** Groups settled so far: a write read before the last one settled reads again. */
  private settledGroups = 0;
  /** total_changes() and data_version when the last group settled (after its events' listeners). */
  private settledVersion = '';

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
  ) {}

  /** Stamp this on a request's reads; a write carrying an older one reads again. */
  get epoch(): number {
    return this.settledGroups;
  }

  /** Runs `write` with the others of this turn; answers once its group has committed (or it failed). */
  submit<T>(write: GroupedWrite<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(this.flush);
      this.queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Anything written through this connection or another since the last group settled changes it. */
  private version(): string {
    const [changes, dataVersion] = stmt(this.db, 'SELECT total_changes(), (SELECT data_version FROM pragma_data_version)').raw(true).get() as [number, number];
    return `${changes}:${dataVersion}`;
  }

  private readonly flush = () => {
    let pending = this.queue;
    this.queue = [];
    try {
      let stale = this.version() !== this.settledVersion;
      while (pending.length) {
        const taken = this.group(pending, stale);
        pending = pending.slice(taken);
        // The group's writes and its listeners' came after the rest's reads.
        stale = true;
      }
      this.settledVersion = this.version();
    } catch (err) {
      // The database is closed (the service is stopping) or cannot be read: nothing ran.
      for (const p of pending) p.reject(err);
      this.settledVersion = '';
    } finally {
      this.settledGroups++;
    }
  };

  /** Commits a prefix of `pending` as one transaction; answers how many it took. */
  private group(pending: Pending[], stale: boolean): number {
    const { db } = this;
    stmt(db, 'BEGIN IMMEDIATE').run();
    let done: Done[] = [];
    const keys = new Set<string>();
    let taken = 0;
    let failure: unknown;
    for (const p of pending) {
      let prepared: ReturnType<GroupedWrite<unknown>['prepare']>;
      try {
        prepared = p.write.prepare(stale || p.write.readEpoch !== this.settledGroups);
      } catch (err) {
        taken++;
        p.reject(err);
        continue;
      }
      // It changes a row an earlier write of this group changed: it waits for the next group.
      if (prepared.keys.some((k) => keys.has(k))) break;
      taken++;
      try {
        // Its own savepoint: a write that throws after some of its statements leaves nothing.
        const { value, events } = holdingEvents(db, () => inTransaction(db, prepared.run));
        done.push({ pending: p, value, events });
        for (const k of prepared.keys) keys.add(k);
      } catch (err) {
        // Its savepoint was rolled back; the group goes on without it.
        p.reject(err);
        // Some errors (I/O, a full disk) make SQLite roll back the whole transaction: what the
        // group wrote so far is gone, and nothing more may run outside a transaction.
        if (!db.inTransaction) {
          failure = err;
          break;
        }
      }
    }
    if (failure === undefined) {
      try {
        stmt(db, 'COMMIT').run();
      } catch (err) {
        failure = err;
        if (db.inTransaction) stmt(db, 'ROLLBACK').run();
      }
    }
    if (failure !== undefined) {
      for (const d of done) d.pending.reject(failure);
      done = [];
    }
    for (const d of done) {
      for (const event of d.events) this.bus.emit(event);
      d.pending.resolve(d.value);
    }
    return taken;
  }
}
