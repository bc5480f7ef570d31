// The outbox as the header's word and the tab counts read it, kept in memory for the session.
//
// Both read the whole outbox on every change to it (a live query over `toArray`), with every
// entry's snapshot of the conversation before it (`before`: its row and full record), and the tab
// counts then read the row of every conversation with a change queued, one request each. Triaging
// offline queues an entry per key, so each key cost a read that grew with the queue: at 500 entries
// its answers came in as tasks ahead of the key's frame (issue 14: triage keys p95 20-30 ms at the
// end of a 150-round run against 12-16 at its start). Here the whole outbox is read once; after
// that, a write that names its entries (every write the app makes) has only those entries read again,
// and only the named rows of the conversations they are about. The outbox's sender finds each
// conversation's next entry from it too (actions/sender.ts).
import Dexie from 'dexie';
import type { ObservabilitySet } from 'dexie';
import { tableChange } from './changed-keys';
import type { CachedConversation, InboxDb } from './schema';
import type { OutboxEntry } from '../model/rows';

/** What is kept of an entry: no payload, and of its `before` the row alone (the sender reads the whole entry it sends). */
export type OutboxLine = Pick<OutboxEntry, 'seq' | 'conversationId' | 'kind' | 'state' | 'confirmedAt' | 'lastErrorKind' | 'nextAttemptAt'> & {
  before?: { row?: CachedConversation };
};

export interface OutboxSnapshot {
  /** In queue order. */
  entries: readonly OutboxLine[];
  /** The cached row of each conversation an entry other than a message is about (where cached). */
  rows: ReadonlyMap<number, CachedConversation>;
}

const lineOf = (e: OutboxEntry): OutboxLine => ({
  seq: e.seq,
  conversationId: e.conversationId,
  kind: e.kind,
  state: e.state,
  nextAttemptAt: e.nextAttemptAt,
  ...(e.confirmedAt !== undefined ? { confirmedAt: e.confirmedAt } : {}),
  ...(e.lastErrorKind !== undefined ? { lastErrorKind: e.lastErrorKind } : {}),
  ...(e.before?.row ? { before: { row: e.before.row } } : {}),
});

/** The conversations whose rows the counts need: those of entries other than messages (contact lanes are negative). */
const tracked = (lines: Iterable<OutboxLine>) => {
  const ids = new Set<number>();
  for (const l of lines) if (l.kind !== 'message' && l.conversationId > 0) ids.add(l.conversationId);
  return ids;
};

export class OutboxSummary {
  private readonly lines = new Map<number, OutboxLine>();
  private readonly rows = new Map<number, CachedConversation>();
  private snap: OutboxSnapshot | undefined;
  private readonly listeners = new Set<() => void>();
  private stopListening: (() => void) | undefined;
  private cancelStart: (() => void) | undefined;
  // What the next read must do.
  private wholeOutbox = true;
  private wholeRows = true;
  private readonly namedSeqs = new Set<number>();
  private readonly namedRows = new Set<number>();
  private reading = false;
  private again = false;

  /** `whenReady(run)`: runs `run` once the session's first reads may begin (returns how to cancel). */
  constructor(
    private readonly db: InboxDb,
    private readonly whenReady: (run: () => void) => () => void = (run) => (run(), () => undefined),
  ) {}

  /** Undefined until the outbox has been read once. */
  readonly snapshot = (): OutboxSnapshot | undefined => this.snap;

  /** Kept current while anyone listens (useSyncExternalStore's subscribe). */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.cancelStart = this.whenReady(() => this.start());
    return () => {
      this.listeners.delete(listener);
      if (!this.listeners.size) this.stop();
    };
  };

  private start() {
    const onChange = (parts: ObservabilitySet) => {
      const seqs = tableChange(parts, this.db.name, 'outbox');
      const rows = tableChange(parts, this.db.name, 'conversations');
      if (seqs === undefined) this.wholeOutbox = true;
      else for (const s of seqs) this.namedSeqs.add(s);
      if (rows === undefined) this.wholeRows = true;
      else for (const id of rows) this.namedRows.add(id);
      if (seqs?.length !== 0 || rows?.length !== 0) void this.read();
    };
    Dexie.on.storagemutated.subscribe(onChange);
    this.stopListening = () => Dexie.on.storagemutated.unsubscribe(onChange);
    void this.read();
  }

  private stop() {
    this.cancelStart?.();
    this.cancelStart = undefined;
    this.stopListening?.();
    this.stopListening = undefined;
    // Read afresh when listened to again: changes in between were not followed.
    this.wholeOutbox = this.wholeRows = true;
    this.snap = undefined;
  }

  /** One read at a time; a change during a read asks for one more. */
  private async read() {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      do {
        this.again = false;
        if (!this.stopListening) return;
        await this.readOnce();
      } while (this.again);
    } catch {
      // The database closed (signed out): nothing more to show.
    } finally {
      this.reading = false;
    }
  }

  private async readOnce() {
    let changed = !this.snap;
    if (this.wholeOutbox) {
      this.wholeOutbox = false;
      this.namedSeqs.clear();
      const all = await this.db.outbox.toArray();
      this.lines.clear();
      for (const e of all) if (e.seq !== undefined) this.lines.set(e.seq, lineOf(e));
      changed = true;
    } else if (this.namedSeqs.size) {
      const seqs = [...this.namedSeqs];
      this.namedSeqs.clear();
      const got = await this.db.outbox.bulkGet(seqs);
      seqs.forEach((seq, i) => {
        const e = got[i];
        if (e) this.lines.set(seq, lineOf(e));
        else this.lines.delete(seq);
      });
      changed = true;
    }
    const want = tracked(this.lines.values());
    for (const id of [...this.rows.keys()]) {
      if (want.has(id)) continue;
      this.rows.delete(id);
      changed = true;
    }
    const toRead = [...want].filter((id) => this.wholeRows || this.namedRows.has(id) || !this.rows.has(id));
    this.wholeRows = false;
    this.namedRows.clear();
    if (toRead.length) {
      const got = await this.db.conversations.bulkGet(toRead);
      toRead.forEach((id, i) => {
        const row = got[i];
        if (row) this.rows.set(id, row);
        else this.rows.delete(id);
      });
      changed = true;
    }
    if (!changed) return;
    this.snap = { entries: [...this.lines.values()].sort((a, b) => a.seq! - b.seq!), rows: new Map(this.rows) };
    for (const l of this.listeners) l();
  }
}
