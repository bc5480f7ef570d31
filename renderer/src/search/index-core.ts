// The search index's own work: the engine, building it from the cache, and applying the cache's
// changes. Runs where local-index.ts puts it: in a worker of its own (index-worker.ts) in the app,
// on the page itself where there are no workers (tests). Reads the cache through its own Dexie
// connection; never writes it.
import type { Table } from 'dexie';
import type { InboxDb } from '../db/schema';
import type { InputActivity } from '../platform/input-activity';
import type { SearchDoc } from './documents';
import { contactDoc, conversationDoc, messageDoc } from './documents';
import { SearchEngine } from './engine';
import { HitTexts } from './hit-texts';
import type { LocalHit } from './shown-hit';
import { shownHit } from './shown-hit';

export type IndexChange = { upsert: SearchDoc } | { remove: string };

/** Rows read from the cache at a time while building. */
const READ_SLICE = 500;
/**
 * While building, how long after the agent's last key, click or scroll the next slice waits: what
 * an action sets off (the render, the cache write, the list reading its rows back, a conversation's
 * messages) runs in the first few dozen milliseconds after it, and a slice (with the garbage its
 * indexing leaves) landing among them delayed the frame that shows the action (issue 14). In the
 * worker too: a thread of its own still takes a core's time from the page's frames on two cores.
 */
export const QUIET_AFTER_INPUT_MS = 250;

/**
 * How long a search waits for its hits' texts before answering without those not read yet (they
 * follow). Usually they are kept from the keystroke before, or read in a few milliseconds.
 */
export const TEXTS_WAIT_MS = 10;

type PostTask = (task: () => void, options: { priority: 'background' }) => Promise<void>;

/**
 * The next slice of building, after whatever else is waiting: a background-priority task where the
 * browser schedules them (on the page, input and rendering go first; in the worker, the page's
 * changes and searches), a timeout elsewhere. Not requestIdleCallback: it runs one callback per
 * idle period, which left the build at a tenth of an idle page's time.
 */
const nextTask = () =>
  new Promise<void>((done) => {
    const postTask = (globalThis as { scheduler?: { postTask?: PostTask } }).scheduler?.postTask;
    if (postTask) void postTask.call((globalThis as unknown as { scheduler: object }).scheduler, done, { priority: 'background' });
    else setTimeout(done, 0);
  });

export class IndexCore {
  private readonly engine = new SearchEngine();
  private readonly texts: HitTexts;
  private built: Promise<void> | undefined;
  /** Keys the cache's changes wrote while the build ran: newer than what the build read, so it skips them. */
  private touchedDuringBuild: Set<string> | undefined;

  /**
   * `sliceMs`: milliseconds of indexing before whatever waits gets its turn (on the page: the
   * page's input and frames; in the worker: the page's changes and searches).
   * `changed`: after documents were added, changed or removed.
   * `input`: the agent's input the build gives way to (none: it builds without pausing).
   */
  constructor(
    private readonly db: InboxDb,
    private readonly sliceMs: number,
    private readonly changed: () => void,
    private readonly input?: InputActivity,
  ) {
    this.texts = new HitTexts(db);
  }

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

  /**
   * The next slice of building: in a background task that starts once the agent's input has been
   * quiet for a moment (checked again when the task runs: input may have come while it waited).
   */
  private async nextSlice() {
    for (;;) {
      const wait = this.input ? QUIET_AFTER_INPUT_MS - this.input.sinceLast() : 0;
      if (wait > 0) await new Promise((done) => setTimeout(done, wait));
      await nextTask();
      if (!this.input || this.input.sinceLast() >= QUIET_AFTER_INPUT_MS) return;
    }
  }

  /**
   * The hits, each with what it shows (its text read from the cache and cut around the match).
   * `early`: called with the hits as they are known so far (texts not read yet shown empty) when
   * reading the rest takes longer than a moment: the cache may be busy with a long read (the list
   * reading the whole view, say), and the results should not wait on it.
   */
  async search(query: string, limit: number, early?: (hits: LocalHit[]) => void): Promise<LocalHit[]> {
    const hits = this.engine.search(query, limit);
    const keys = hits.map((h) => h.key);
    const timer = early && setTimeout(() => early(hits.map((h) => shownHit(h, this.texts.kept(h.key) ?? ''))), TEXTS_WAIT_MS);
    const texts = await this.texts.read(keys);
    clearTimeout(timer);
    return hits.map((h) => shownHit(h, texts.get(h.key) ?? ''));
  }

  apply(changes: readonly IndexChange[]): void {
    if (!changes.length) return;
    for (const change of changes) {
      const key = 'remove' in change ? change.remove : change.upsert.key;
      this.touchedDuringBuild?.add(key);
      this.texts.forget(key);
      if ('remove' in change) this.engine.remove(change.remove);
      else this.engine.upsert(change.upsert);
    }
    this.changed();
  }

  /**
   * Newest first (highest ids: the service numbers records as they are made): while the agent keeps
   * working the build waits, often for minutes on a large cache (bench "search"), and what they
   * search for meanwhile is mostly recent. Built oldest first, this week's messages were the last
   * a search could find.
   */
  private async buildFromCache() {
    const chunk = async <T>(table: Table<T, number>, toDoc: (row: T) => SearchDoc | undefined) => {
      const keys = await table.toCollection().primaryKeys();
      for (let end = keys.length; end > 0; end -= READ_SLICE) {
        // One range read per slice (keys come sorted): a bulkGet is a request per row, ~100x slower.
        const slice = keys.slice(Math.max(0, end - READ_SLICE), end);
        const rows: (T | undefined)[] = (await table.where(':id').between(slice[0]!, slice.at(-1)!, true, true).toArray()).reverse();
        let next = 0;
        while (next < rows.length) {
          await this.nextSlice();
          const until = performance.now() + this.sliceMs;
          let added = 0;
          // A key or click arriving mid-slice ends it (checked every few rows: the call is not free).
          for (; next < rows.length && performance.now() < until && !(next % 16 === 0 && this.input?.pending()); next++) {
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
