// The read of a conversation being opened, asked by the event that opens it: the press on its row
// (a click's button goes up 50-150 ms later), else the store's change that opens it (a click, a
// key, a search hit, a notification). The click renders the whole switch in its own task (20-30
// ms: the old thread unmounted, the new view mounted) before the view could ask; IndexedDB takes
// 8-18 ms for 500 messages, one read at a time, and answers only after the frame that follows the
// input. Asked first, the read is in by that frame and the messages show in the next one (bench
// "switch" from IndexedDB: median 65-82 → 53-59 ms, A/B, 2026-11-28).
//
// It also keeps what the last few views showed when they closed (useLiveRead's `onClose`), while
// nothing they rest on is written: a conversation switched back to opens from memory. Read again,
// its 500 messages waited in IndexedDB behind the writes of the conversation just left (bench
// "switch back", A/B 2026-11-28: median 58.3 and 37.4 → 33.9 and 38.8 ms, p95 68.2 and 52 → 46.7
// and 45.5 ms).
//
// And it reads the conversations the agent may open next, before they open one: the rows in sight,
// while the page is idle (use-read-in-sight.ts), and the row the pointer or the keyboard's
// highlight rests on (use-read-intent.ts). Kept like a closed view's read, such a read opens that
// conversation without an IndexedDB read; a click or a key that opens it then shows its messages
// in its own frame, where a read asked by the click came in after that frame. A read in memory
// (`peek`) is shown by the view's first render: the switch is one commit (the view, its messages
// and its contact), not the view empty, then a commit with them that lays the thread out again.
//
// Nothing kept is dropped for its age: a write to what it rests on forgets it, and that is what
// keeps it current; the counts bound the memory (60 messages a read).
import { Dexie, RangeSet } from 'dexie';
import type { ObservabilitySet } from 'dexie';
import type { ConversationRead } from './conversation-read';
import { conversationOwnParts, conversationParts, FIRST_READ_MESSAGES, readConversation } from './conversation-read';
import { overlaps } from '../db/live-read';
import type { InboxDb } from '../db/schema';

/** A read ahead older than this is not used: the view reads afresh. */
const FRESH_MS = 1_000;
/** Every key (the messages' are numbers). */
const ANY_KEY = new RangeSet(-Infinity, Infinity);
/** How many closed views' reads are kept (while nothing they rest on is written, however long). */
const KEPT = 4;
/**
 * How many reads of conversations about to be opened are kept: the rows in sight (read while the
 * page is idle, use-read-in-sight.ts, at most IN_SIGHT) and those the pointer or the highlight
 * rested on. The oldest go first. Kept while nothing they rest on is written, however long.
 */
export const PREPARED = 24;
/** The most rows in sight read ahead (a tall window shows about 20). */
export const IN_SIGHT = 20;

interface Kept {
  read: ConversationRead;
  /** What it rests on: a write to any of it forgets it. */
  parts: ObservabilitySet;
}

interface Pending {
  id: number;
  at: number;
  read: Promise<ConversationRead>;
  /** What it read, once it has answered. */
  settled?: ConversationRead;
  /**
   * What a write must touch to overtake it: once it has answered, what that rests on; before, its
   * conversation's row, cursor and record, a message added to it or taken out, and any message by
   * its key alone (one changed in place names nothing else, and which are shown is known once the
   * read is in). Any write to the tables it reads counted once: the rows in sight, read ahead one by
   * one, were thrown away and read again whenever a triage key wrote another row while one was read
   * (71 of 429 reads in the bench's triage, 2026-12-07).
   */
  parts: ObservabilitySet;
  /** A write since it started touched `parts`: what it read may be overtaken. */
  written: boolean;
}

export class ConversationReadAhead {
  private pending: Pending | undefined;
  /** A read of a conversation about to be opened (`prepare`), under way. */
  private preparing: Pending | undefined;
  /** Closed views' reads, oldest first. */
  private readonly kept = new Map<number, Kept>();
  /** Reads of conversations about to be opened, oldest first. */
  private readonly prepared = new Map<number, Kept>();
  private watching = false;
  /** Told when a kept read goes (taken, pushed out, or overtaken by a write). */
  private readonly forgetting = new Set<() => void>();

  constructor(
    private readonly db: InboxDb,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Starts reading `id` for a view about to open it (unless a read of it started a moment ago). */
  ahead(id: number): void {
    if (this.freshFor(id) || this.keptFor(id)) return;
    this.pending = this.started(id);
    this.watchWhileNeeded();
  }

  /**
   * The agent is about to open `id` (the pointer rests on its row, the keyboard's highlight is on
   * it): reads it now and keeps it, current, until it is opened or a write touches it.
   */
  prepare(id: number): Promise<void> {
    if (this.freshFor(id) || this.keptFor(id)) return Promise.resolve();
    const preparing = this.started(id);
    this.preparing = preparing;
    this.watchWhileNeeded();
    const done = () => {
      if (this.preparing === preparing) this.preparing = undefined;
      this.watchWhileNeeded();
    };
    return preparing.read.then((read) => {
      // A write since it started may have overtaken what it read: not kept.
      if (this.preparing === preparing && !preparing.written) this.hold(this.prepared, PREPARED, id, read, conversationParts(this.db, id, read));
      done();
    }, done);
  }

  /** Whether a read of `id` is kept, current, to open it from. */
  holds(id: number): boolean {
    return this.keptFor(id) !== undefined;
  }

  /**
   * What `take(id)` would answer, when it is already in memory: a read kept, or one asked a moment
   * ago that has answered (a person's click comes 50-150 ms after the press that asked it). A view
   * shows it in its first render, so a switch is one commit, not an empty view and then its
   * messages. Changes nothing: the view still takes the read (the same one) once it is shown.
   */
  peek(id: number): ConversationRead | undefined {
    const fresh = this.freshPending(id);
    return fresh ? fresh.settled : this.keptFor(id)?.read;
  }

  /** The read started for `id` a moment ago (once), else a new one: a first read (its newest messages). */
  take(id: number): Promise<ConversationRead> {
    const fresh = this.freshFor(id);
    const kept = this.keptFor(id);
    this.pending = undefined;
    // Being prepared: the view takes it (it is not kept as well).
    if (this.preparing?.id === id) this.preparing = undefined;
    // The view holds it now, and gives it back when it closes.
    const held = [this.kept.delete(id), this.prepared.delete(id)].some(Boolean);
    this.watchWhileNeeded();
    if (held) this.forgot();
    return fresh ?? (kept ? Promise.resolve(kept.read) : this.firstRead(id));
  }

  /** What a view of `id` showed as it closed, current then (`parts`: what it rests on). */
  keep(id: number, read: ConversationRead, parts: ObservabilitySet): void {
    this.prepared.delete(id);
    this.hold(this.kept, KEPT, id, read, parts);
  }

  /** Calls `listener` whenever a kept read goes; returns how to stop. */
  onForget(listener: () => void): () => void {
    this.forgetting.add(listener);
    return () => this.forgetting.delete(listener);
  }

  private forgot(): void {
    for (const listener of this.forgetting) listener();
  }

  private hold(into: Map<number, Kept>, most: number, id: number, read: ConversationRead, parts: ObservabilitySet): void {
    into.delete(id);
    into.set(id, { read, parts });
    let pushedOut = false;
    for (const old of into.keys()) {
      if (into.size <= most) break;
      into.delete(old);
      pushedOut = true;
    }
    this.watchWhileNeeded();
    if (pushedOut) this.forgot();
  }

  /** A view's first read: the newest messages (the live read that follows reads them all). */
  private firstRead(id: number): Promise<ConversationRead> {
    return readConversation(this.db, id, FIRST_READ_MESSAGES);
  }

  private started(id: number): Pending {
    const read = this.firstRead(id);
    const parts = { ...conversationOwnParts(this.db, id), [`idb://${this.db.name}/messages/`]: ANY_KEY };
    const pending: Pending = { id, at: this.now(), read, parts, written: false };
    // Whoever takes it sees a failure; one never taken must not be an unhandled rejection.
    read
      .then((value) => {
        pending.settled = value;
        pending.parts = conversationParts(this.db, id, value);
      })
      .catch(() => undefined);
    return pending;
  }

  private keptFor(id: number): Kept | undefined {
    return this.kept.get(id) ?? this.prepared.get(id);
  }

  /**
   * A read asked for `id` a moment ago (by the press, or being prepared), with nothing written to
   * what it reads since: a write between the press and the view (a message arriving) would
   * otherwise show the view a row from before it until the view's live read follows, and a view
   * closed before then never marked that message read (chaos, seed 42).
   */
  private freshFor(id: number): Promise<ConversationRead> | undefined {
    return this.freshPending(id)?.read;
  }

  private freshPending(id: number): Pending | undefined {
    return [this.pending, this.preparing].find((p) => p && p.id === id && !p.written && this.now() - p.at < FRESH_MS);
  }

  private readonly onWrite = (changed: ObservabilitySet) => {
    for (const p of [this.pending, this.preparing]) if (p && !p.written && overlaps(p.parts, changed)) p.written = true;
    let forgot = false;
    for (const held of [this.kept, this.prepared])
      for (const [id, kept] of held)
        if (overlaps(kept.parts, changed)) {
          held.delete(id);
          forgot = true;
        }
    this.watchWhileNeeded();
    if (forgot) this.forgot();
  };

  private watchWhileNeeded(): void {
    const on = this.pending !== undefined || this.preparing !== undefined || this.kept.size > 0 || this.prepared.size > 0;
    if (on === this.watching) return;
    this.watching = on;
    if (on) Dexie.on.storagemutated.subscribe(this.onWrite);
    else Dexie.on.storagemutated.unsubscribe(this.onWrite);
  }
}
