// Instant local search over the cached conversations, messages and contacts (engine.ts). Built
// once from the cache in a worker of its own (index-runner.ts), then kept current from the
// cache's own writes (Dexie hooks here, sent on when each transaction commits), so a keystroke
// never scans the database. Each hit comes with what it shows (shown-hit.ts), its text read from
// the cache where the index runs.
import type { Table, Transaction } from 'dexie';
import type { InboxDb } from '../db/schema';
import type { InputActivity } from '../platform/input-activity';
import { SEARCH_INDEX_BUILT } from './built-mark';
import type { SearchDoc } from './documents';
import { contactDoc, conversationDoc, messageDoc } from './documents';
import type { IndexChange } from './index-core';
import type { IndexRunner, WorkerLike } from './index-runner';
import { runIndex } from './index-runner';
import type { LocalHit } from './shown-hit';

export type { LocalHit };

export class LocalSearchIndex {
  private readonly pending = new WeakMap<Transaction, IndexChange[]>();
  private readonly unhook: (() => void)[] = [];
  private readonly listeners = new Set<() => void>();
  private runner: IndexRunner | undefined;
  /** The build has settled (where it runs, or stopped). */
  private built = false;

  /**
   * `input`: the agent's input the build gives way to (none: it builds without pausing).
   * `startWorker`: where the index runs (index-runner.ts: a worker of its own where the page can start one).
   */
  constructor(
    private readonly db: InboxDb,
    private readonly input?: InputActivity,
    private readonly startWorker?: () => WorkerLike | undefined,
  ) {}

  /** Starts following the cache (hooks first, so nothing written during the build is missed), then indexes what it holds. */
  start(): Promise<void> {
    if (this.runner) return this.runner.built;
    this.follow(this.db.conversations, (row) => conversationDoc(row), (key) => `c:${key}`);
    this.follow(this.db.messages, (row) => messageDoc(row), (key) => `m:${key}`);
    this.follow(this.db.contacts, (row) => contactDoc(row), (key) => `p:${key}`);
    const changed = () => {
      for (const l of this.listeners) l();
    };
    this.runner = this.startWorker ? runIndex(this.db, changed, this.input, this.startWorker) : runIndex(this.db, changed, this.input);
    // Those who show results hear that the build is done, as they hear of each change.
    const done = () => {
      this.built = true;
      changed();
    };
    // On success, a User Timing mark too (DevTools' performance panel shows it), once per index
    // started: when it came to hold the whole cache, in the page's own clock. The benchmark reads it
    // (bench "search"); a search for the oldest message told only when that search was made, minutes
    // after the build.
    const built = () => {
      performance.mark(SEARCH_INDEX_BUILT);
      done();
    };
    this.runner.built.then(built, done);
    return this.runner.built;
  }

  stop() {
    for (const off of this.unhook.splice(0)) off();
    this.runner?.stop();
  }

  /**
   * Whether searches answer from part of the cache: not started, or still building (newest records
   * first). Listeners (`onChange`) hear when it is done.
   */
  get building(): boolean {
    return !this.built;
  }

  /** Documents indexed, as last heard from where the index runs. */
  get size() {
    return this.runner?.size ?? 0;
  }

  /** Called after the index changed (so open result lists can refresh). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Answers after every change the cache committed before the call (they reach the index first).
   * `early`: hears the hits first when their texts take more than a moment to read (index-core.ts).
   */
  search(query: string, limit = 50, early?: (hits: LocalHit[]) => void): Promise<LocalHit[]> {
    return this.runner ? this.runner.search(query, limit, early) : Promise.resolve([]);
  }

  private follow<T>(table: Table<T, number>, toDoc: (row: T) => SearchDoc | undefined, keyOf: (primKey: number) => string) {
    const queue = (tx: Transaction, change: IndexChange) => {
      let list = this.pending.get(tx);
      if (!list) {
        list = [];
        this.pending.set(tx, list);
        const changes = list;
        tx.on('complete', () => this.apply(changes));
      }
      list.push(change);
    };
    const upsert = (tx: Transaction, key: number, row: T) => {
      const doc = toDoc(row);
      queue(tx, doc ? { upsert: doc } : { remove: keyOf(key) });
    };
    function creating(this: { onsuccess?: unknown }, key: number, row: T, tx: Transaction) {
      upsert(tx, key, row);
    }
    function updating(this: { onsuccess?: (updated: T) => void }, _mods: object, key: number, _old: T, tx: Transaction) {
      this.onsuccess = (updated) => upsert(tx, key, updated);
    }
    function deleting(key: number, _row: T, tx: Transaction) {
      queue(tx, { remove: keyOf(key) });
    }
    table.hook('creating', creating);
    table.hook('updating', updating);
    table.hook('deleting', deleting);
    this.unhook.push(() => {
      table.hook('creating').unsubscribe(creating);
      table.hook('updating').unsubscribe(updating);
      table.hook('deleting').unsubscribe(deleting);
    });
  }

  private apply(changes: IndexChange[]) {
    if (changes.length) this.runner?.apply(changes);
  }
}
