// Instant local search: a MiniSearch full-text index over the cached conversations, messages and
// contacts. Built once from the cache, then kept current from the cache's own writes (Dexie hooks,
// applied when each transaction commits), so a keystroke never scans the database.
import MiniSearch from 'minisearch';
import type { Table, Transaction } from 'dexie';
import type { InboxDb } from '../db/schema';
import type { HitKind, SearchDoc } from './documents';
import { contactDoc, conversationDoc, messageDoc } from './documents';

export interface LocalHit {
  key: string;
  kind: HitKind;
  refId: number;
  conversationId: number;
  title: string;
  snippet: string;
  at: number;
  score: number;
  /** The document's words that matched (for the snippet). */
  terms: string[];
  /** Every matched word was in the title alone (a message found by its sender's name, not its text). */
  nameOnly: boolean;
  senderContactId?: number;
}

type Change = { upsert: SearchDoc } | { remove: string };

const BUILD_SLICE = 250;

export class LocalSearchIndex {
  private readonly mini = new MiniSearch<SearchDoc>({
    idField: 'key',
    fields: ['title', 'text'],
    storeFields: ['key', 'kind', 'refId', 'conversationId', 'title', 'snippet', 'at', 'senderContactId'],
    searchOptions: { prefix: true, fuzzy: 0.15, boost: { title: 2 }, combineWith: 'AND' },
  });
  private readonly pending = new WeakMap<Transaction, Change[]>();
  private readonly unhook: (() => void)[] = [];
  private readonly listeners = new Set<() => void>();
  private built: Promise<void> | undefined;
  /** Keys the hooks wrote while the build ran: newer than what the build read, so it skips them. */
  private touchedDuringBuild: Set<string> | undefined;

  constructor(private readonly db: InboxDb) {}

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
    return this.mini.documentCount;
  }

  /** Called after the index changed (so open result lists can refresh). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  search(query: string, limit = 50): LocalHit[] {
    const q = query.trim();
    if (!q) return [];
    return this.mini
      .search(q)
      .slice(0, limit)
      .map(
        (r) =>
          ({
            key: r.key,
            kind: r.kind,
            refId: r.refId,
            conversationId: r.conversationId,
            title: r.title,
            snippet: r.snippet,
            at: r.at,
            score: r.score,
            terms: r.terms,
            nameOnly: Object.values(r.match).every((fields) => fields.every((f) => f === 'title')),
            ...(r.senderContactId ? { senderContactId: r.senderContactId } : {}),
          }) as LocalHit,
      );
  }

  private async buildFromCache() {
    const chunk = async <T>(table: Table<T, number>, toDoc: (row: T) => SearchDoc | undefined) => {
      // In small slices, yielding between them, so a large cache never blocks the page for long
      // while the index builds (a slice costs a few milliseconds).
      const keys = await table.toCollection().primaryKeys();
      for (let i = 0; i < keys.length; i += BUILD_SLICE) {
        const rows = await table.bulkGet(keys.slice(i, i + BUILD_SLICE));
        const docs = rows.flatMap((row) => {
          const doc = row && toDoc(row);
          return doc && !this.touchedDuringBuild?.has(doc.key) ? [doc] : [];
        });
        this.mini.addAll(docs.filter((d) => !this.mini.has(d.key)));
        if (docs.length) for (const l of this.listeners) l();
        await new Promise((r) => setTimeout(r, 0));
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
      this.touchedDuringBuild?.add('remove' in change ? change.remove : change.upsert.key);
      if ('remove' in change) {
        if (this.mini.has(change.remove)) this.mini.discard(change.remove);
      } else if (this.mini.has(change.upsert.key)) this.mini.replace(change.upsert);
      else this.mini.add(change.upsert);
    }
    for (const l of this.listeners) l();
  }
}
