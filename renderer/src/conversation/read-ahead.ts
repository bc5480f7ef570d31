// The read of a conversation being opened, asked by the event that opens it: the press on its row
// (a click's button goes up 50-150 ms later), else the store's change that opens it (a click, a
// key, a search hit, a notification). The click renders the whole switch in its own task (20-30
// ms: the old thread unmounted, the new view mounted) before the view could ask; IndexedDB takes
// 8-18 ms for 500 messages, one read at a time, and answers only after the frame that follows the
// input. Asked first, the read is in by that frame and the messages show in the next one (bench
// "switch" from IndexedDB: median 65-82 → 53-59 ms, A/B, 2026-11-28).
import { Dexie } from 'dexie';
import type { ObservabilitySet } from 'dexie';
import type { ConversationRead } from './conversation-read';
import { readConversation } from './conversation-read';
import type { InboxDb } from '../db/schema';

/** A read ahead older than this is not used: the view reads afresh. */
const FRESH_MS = 1_000;
/** The tables a conversation's read reads. */
const READ_TABLES = ['conversations', 'messages', 'cursors', 'conversationRecords'];

export class ConversationReadAhead {
  private pending: { id: number; at: number; read: Promise<ConversationRead>; written: boolean } | undefined;
  private watching = false;

  constructor(
    private readonly db: InboxDb,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Starts reading `id` for a view about to open it (unless a read of it started a moment ago). */
  ahead(id: number): void {
    if (this.freshFor(id)) return;
    const read = readConversation(this.db, id);
    // Whoever takes it sees a failure; one never taken must not be an unhandled rejection.
    read.catch(() => undefined);
    this.pending = { id, at: this.now(), read, written: false };
    this.watch(true);
  }

  /** The read started for `id` a moment ago (once), else a new one. */
  take(id: number): Promise<ConversationRead> {
    const fresh = this.freshFor(id);
    this.pending = undefined;
    this.watch(false);
    return fresh ?? readConversation(this.db, id);
  }

  /**
   * A read asked for `id` a moment ago, with nothing written to what it reads since: a write
   * between the press and the view (a message arriving) would otherwise show the view a row from
   * before it until the view's live read follows, and a view closed before then never marked that
   * message read (chaos, seed 42).
   */
  private freshFor(id: number): Promise<ConversationRead> | undefined {
    const p = this.pending;
    return p && p.id === id && !p.written && this.now() - p.at < FRESH_MS ? p.read : undefined;
  }

  private readonly onWrite = (changed: ObservabilitySet) => {
    const prefix = `idb://${this.db.name}/`;
    if (this.pending && Object.keys(changed).some((part) => part.startsWith(prefix) && READ_TABLES.includes(part.slice(prefix.length).split('/')[0]!))) this.pending.written = true;
  };

  private watch(on: boolean): void {
    if (on === this.watching) return;
    this.watching = on;
    if (on) Dexie.on.storagemutated.subscribe(this.onWrite);
    else Dexie.on.storagemutated.unsubscribe(this.onWrite);
  }
}
