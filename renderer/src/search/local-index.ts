// Instant local search over the cached conversations, messages and contacts (engine.ts). Built
// once from the cache in a worker of its own (index-runner.ts), then kept current from the
// cache's own writes (Dexie hooks here, sent on when each transaction commits), so a keystroke
// never scans the database. What a hit shows of its text (the snippet) is read from the cache for the
// hits on screen only: 200,000 snippets held in memory would be the biggest thing the page holds.
import type { Table, Transaction } from 'dexie';
import type { InboxDb } from '../db/schema';
import type { InputActivity } from '../platform/input-activity';
import type { HitKind, SearchDoc } from './documents';
import { contactDoc, conversationDoc, messageDoc } from './documents';
import { parseKey } from './engine';
import type { IndexChange } from './index-core';
import type { IndexRunner, WorkerLike } from './index-runner';
import { runIndex } from './index-runner';

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

/** Snippets kept once read (the hits of the last few queries). */
const SNIPPETS_KEPT = 500;

export class LocalSearchIndex {
  private readonly snippetsRead = new Map<string, string>();
  private readonly pending = new WeakMap<Transaction, IndexChange[]>();
  private readonly unhook: (() => void)[] = [];
  private readonly listeners = new Set<() => void>();
  private runner: IndexRunner | undefined;

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
    return this.runner.built;
  }

  stop() {
    for (const off of this.unhook.splice(0)) off();
    this.runner?.stop();
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

  /** Answers after every change the cache committed before the call (they reach the index first). */
  async search(query: string, limit = 50): Promise<LocalHit[]> {
    const hits = this.runner ? await this.runner.search(query, limit) : [];
    return hits.map((h) => ({ ...h, snippet: this.snippetsRead.get(h.key) ?? '' }));
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
    if (!changes.length) return;
    for (const change of changes) this.snippetsRead.delete('remove' in change ? change.remove : change.upsert.key);
    this.runner?.apply(changes);
  }
}
