// The search index's own work: the engine, building it from the cache, and applying the cache's
// changes. Runs where local-index.ts puts it: in a worker of its own (index-worker.ts) in the app,
// on the page itself where there are no workers (tests). Reads the cache through its own Dexie
// connection; never writes it.
import type { Table } from 'dexie';
import type { InboxDb } from '../db/schema';
import type { SearchDoc } from './documents';
import { contactDoc, conversationDoc, messageDoc } from './documents';
import type { EngineHit } from './engine';
import { SearchEngine } from './engine';

export type IndexChange = { upsert: SearchDoc } | { remove: string };

/** Rows read from the cache at a time while building. */
const READ_SLICE = 500;

type PostTask = (task: () => void, options: { priority: 'background' }) => Promise<void>;

/**
 * The next slice of building, after whatever else is waiting: a background-priority task where the
 * browser schedules them (on the page, input and rendering go first; in the worker, the page's
 * changes and searches), a timeout elsewhere. Not requestIdleCallback: it runs one callback per
 * idle period, which left the build at a tenth of an idle page's time.
 */
const nextSlice = () =>
  new Promise<void>((done) => {
    const postTask = (globalThis as { scheduler?: { postTask?: PostTask } }).scheduler?.postTask;
    if (postTask) void postTask.call((globalThis as unknown as { scheduler: object }).scheduler, done, { priority: 'background' });
    else setTimeout(done, 0);
  });

export class IndexCore {
  private readonly engine = new SearchEngine();
  private built: Promise<void> | undefined;
  /** performance.now() before which the build does nothing (holdOff). */
  private heldUntil = 0;
  /** Keys the cache's changes wrote while the build ran: newer than what the build read, so it skips them. */
  private touchedDuringBuild: Set<string> | undefined;

  /**
   * `sliceMs`: milliseconds of indexing before whatever waits gets its turn (on the page: the
   * page's input and frames; in the worker: the page's changes and searches).
   * `changed`: after documents were added, changed or removed.
   */
  constructor(
    private readonly db: InboxDb,
    private readonly sliceMs: number,
    private readonly changed: () => void,
  ) {}

  get size(): number {
    return this.engine.size;
  }

  /** Indexes what the cache holds (once); changes applied meanwhile win over what the build read. */
  build(): Promise<void> {
    if (this.built) return this.built;
    this.touchedDuringBuild = new Set();
    this.built = this.buildFromCache().finally(() => (this.touchedDuringBuild = undefined));
    return this.built;
  }

  /** The build rests for `ms` from now (searches and changes are still answered). */
  holdOff(ms: number): void {
    this.heldUntil = Math.max(this.heldUntil, performance.now() + ms);
  }

  search(query: string, limit: number): EngineHit[] {
    return this.engine.search(query, limit);
  }

  apply(changes: readonly IndexChange[]): void {
    if (!changes.length) return;
    for (const change of changes) {
      const key = 'remove' in change ? change.remove : change.upsert.key;
      this.touchedDuringBuild?.add(key);
      if ('remove' in change) this.engine.remove(change.remove);
      else this.engine.upsert(change.upsert);
    }
    this.changed();
  }

  private async buildFromCache() {
    const chunk = async <T>(table: Table<T, number>, toDoc: (row: T) => SearchDoc | undefined) => {
      const keys = await table.toCollection().primaryKeys();
      for (let i = 0; i < keys.length; i += READ_SLICE) {
        // One range read per slice (keys come sorted): a bulkGet is a request per row, ~100x slower.
        const slice = keys.slice(i, i + READ_SLICE);
        const rows: (T | undefined)[] = await table.where(':id').between(slice[0]!, slice.at(-1)!, true, true).toArray();
        let next = 0;
        while (next < rows.length) {
          await nextSlice();
          // The agent is at the keys: the build waits (in the worker it would take a core from the page).
          for (let wait = this.heldUntil - performance.now(); wait > 0; wait = this.heldUntil - performance.now()) await new Promise((r) => setTimeout(r, wait));
          const until = performance.now() + this.sliceMs;
          let added = 0;
          for (; next < rows.length && performance.now() < until; next++) {
            const row = rows[next];
            const doc = row && toDoc(row);
            if (!doc || this.touchedDuringBuild?.has(doc.key) || this.engine.has(doc.key)) continue;
            this.engine.upsert(doc);
            added++;
          }
          if (added) this.changed();
        }
      }
    };
    await chunk(this.db.conversations, conversationDoc);
    await chunk(this.db.contacts, contactDoc);
    await chunk(this.db.messages, messageDoc);
  }
}
