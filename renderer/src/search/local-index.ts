// Instant local search over the cached conversations, messages and contacts (engine.ts). Built
// once from the cache in the background, a few milliseconds at a time, then kept current from the
// cache's own writes (Dexie hooks, applied when each transaction commits), so a keystroke never
// scans the database. What a hit shows of its text (the snippet) is read from the cache for the
// hits on screen only: 200,000 snippets held in memory would be the biggest thing the page holds.
import type { Table, Transaction } from 'dexie';
import type { InboxDb } from '../db/schema';
import type { HitKind, SearchDoc } from './documents';
import { contactDoc, conversationDoc, messageDoc } from './documents';
import { parseKey, SearchEngine } from './engine';
import type { InputActivity } from '../platform/input-activity';

export interface LocalHit {
  key: string;
  kind: HitKind;
  refId: number;
  conversationId: number;
  title: string;
  /** '' until read from the cache (`snippets`). */
  snippet: string;
  at: number;
  score: number;
  /** The words searched for this hit (for the snippet). */
  terms: string[];
  /** Every searched word is in the title; with the text read, `nameOnly` (engine.ts) tells whether the title alone matched. */
  inTitle: boolean;
  senderContactId?: number;
}

type Change = { upsert: SearchDoc } | { remove: string };

/** Rows read from the cache at a time while building. */
const READ_SLICE = 500;
/** Milliseconds of indexing before the page gets the main thread back, while building. */
const SLICE_MS = 8;
/**
 * While building, how long after the agent's last key, click or scroll the next slice waits: what
 * an action sets off (the render, the cache write, the list reading its rows back, a conversation's
 * messages) runs in the first few dozen milliseconds after it, and a slice (with the garbage its
 * indexing leaves) landing among them delayed the frame that shows the action (issue 14).
 */
const QUIET_AFTER_INPUT_MS = 250;

/** Snippets kept once read (the hits of the last few queries). */
const SNIPPETS_KEPT = 500;

type PostTask = (task: () => void, options: { priority: 'background' }) => Promise<void>;

/**
 * The next slice of building, after whatever else the page has to do: a background-priority task
 * where the browser schedules them (input and rendering go first), a timeout elsewhere (and in
 * tests). Not requestIdleCallback: it runs one callback per idle period, which left the build at
 * a tenth of an idle page's time (minutes for 200,000 messages).
 */
const nextTask = () =>
  new Promise<void>((done) => {
    const postTask = (globalThis as { scheduler?: { postTask?: PostTask } }).scheduler?.postTask;
    if (postTask) void postTask.call((globalThis as unknown as { scheduler: object }).scheduler, done, { priority: 'background' });
    else setTimeout(done, 0);
  });

export class LocalSearchIndex {
  private readonly engine = new SearchEngine();
  private readonly snippetsRead = new Map<string, string>();
  private readonly pending = new WeakMap<Transaction, Change[]>();
  private readonly unhook: (() => void)[] = [];
  private readonly listeners = new Set<() => void>();
  private built: Promise<void> | undefined;
  /** Keys the hooks wrote while the build ran: newer than what the build read, so it skips them. */
  private touchedDuringBuild: Set<string> | undefined;

  /** `input`: the agent's input the build gives way to (none: it builds without pausing). */
  constructor(
    private readonly db: InboxDb,
    private readonly input?: InputActivity,
  ) {}

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

  /** Starts following the cache (hooks first, so nothing written during the build is missed), then indexes what it holds. */
  start(): Promise<void> {
    if (this.built) return this.built;
    this.follow(this.db.conversations, (row) => conversationDoc(row), (key) => `c:${key}`);
    this.follow(this.db.messages, (row) => messageDoc(row), (key) => `m:${key}`);
    this.follow(this.db.contacts, (row) => contactDoc(row), (key) => `p:${key}`);
    this.touchedDuringBuild = new Set();
    this.built = this.buildFromCache().finally(() => (this.touchedDuringBuild = undefined));
    return this.built;
  }

  stop() {
    for (const off of this.unhook.splice(0)) off();
  }

  get size() {
    return this.engine.size;
  }

  /** Called after the index changed (so open result lists can refresh). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  search(query: string, limit = 50): LocalHit[] {
    return this.engine.search(query, limit).map((h) => ({ ...h, snippet: this.snippetsRead.get(h.key) ?? '' }));
  }

  /** The snippets of these hits, read from the cache (and kept for the next queries). */
  async snippets(keys: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const wanted: Record<HitKind, number[]> = { conversation: [], message: [], contact: [] };
    for (const key of keys) {
      const known = this.snippetsRead.get(key);
      const k = parseKey(key);
      if (known !== undefined) out.set(key, known);
      else if (k) wanted[k.kind].push(k.refId);
    }
    const read = async <T>(table: Table<T, number>, ids: number[], toDoc: (row: T) => SearchDoc | undefined) => {
      if (!ids.length) return;
      for (const row of await table.bulkGet(ids)) {
        const doc = row && toDoc(row);
        if (doc) out.set(doc.key, doc.snippet);
      }
    };
    await read(this.db.conversations, wanted.conversation, conversationDoc);
    await read(this.db.messages, wanted.message, messageDoc);
    await read(this.db.contacts, wanted.contact, contactDoc);
    for (const [key, snippet] of out) {
      this.snippetsRead.delete(key);
      this.snippetsRead.set(key, snippet);
    }
    for (const key of this.snippetsRead.keys()) {
      if (this.snippetsRead.size <= SNIPPETS_KEPT) break;
      this.snippetsRead.delete(key);
    }
    return out;
  }

  private async buildFromCache() {
    const chunk = async <T>(table: Table<T, number>, toDoc: (row: T) => SearchDoc | undefined) => {
      // Read a slice, then index it a few milliseconds at a time in background tasks, so a large cache
      // never holds the page up while the index builds.
      const keys = await table.toCollection().primaryKeys();
      for (let i = 0; i < keys.length; i += READ_SLICE) {
        // One range read per slice (keys come sorted): a bulkGet is a request per row, ~100x slower.
        const slice = keys.slice(i, i + READ_SLICE);
        const rows: (T | undefined)[] = await table.where(':id').between(slice[0]!, slice.at(-1)!, true, true).toArray();
        let next = 0;
        while (next < rows.length) {
          await this.nextSlice();
          const until = performance.now() + SLICE_MS;
          let added = 0;
          // A key or click arriving mid-slice ends it (checked every few rows: the call is not free).
          for (; next < rows.length && performance.now() < until && !(next % 16 === 0 && this.input?.pending()); next++) {
            const row = rows[next];
            const doc = row && toDoc(row);
            if (!doc || this.touchedDuringBuild?.has(doc.key) || this.engine.has(doc.key)) continue;
            this.engine.upsert(doc);
            added++;
          }
          if (added) for (const l of this.listeners) l();
        }
      }
    };
    await chunk(this.db.conversations, conversationDoc);
    await chunk(this.db.contacts, contactDoc);
    await chunk(this.db.messages, messageDoc);
  }

  private follow<T>(table: Table<T, number>, toDoc: (row: T) => SearchDoc | undefined, keyOf: (primKey: number) => string) {
    const queue = (tx: Transaction, change: Change) => {
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

  private apply(changes: readonly Change[]) {
    if (!changes.length) return;
    for (const change of changes) {
      const key = 'remove' in change ? change.remove : change.upsert.key;
      this.touchedDuringBuild?.add(key);
      this.snippetsRead.delete(key);
      if ('remove' in change) this.engine.remove(change.remove);
      else this.engine.upsert(change.upsert);
    }
    for (const l of this.listeners) l();
  }
}
