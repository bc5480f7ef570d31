// The read of a conversation being opened, asked by the event that opens it: the press on its row
// (a click's button goes up 50-150 ms later), else the store's change that opens it (a click, a
// key, a search hit, a notification). The click renders the whole switch in its own task (20-30
// ms: the old thread unmounted, the new view mounted) before the view could ask; IndexedDB takes
// 8-18 ms for 500 messages, one read at a time, and answers only after the frame that follows the
// input. Asked first, the read is in by that frame and the messages show in the next one (bench
// "switch" from IndexedDB: median 65-82 → 53-59 ms, A/B, 2026-11-28).
import type { ConversationRead } from './conversation-read';
import { readConversation } from './conversation-read';
import type { InboxDb } from '../db/schema';

/** A read ahead older than this is not used: the view reads afresh. */
const FRESH_MS = 1_000;

export class ConversationReadAhead {
  private pending: { id: number; at: number; read: Promise<ConversationRead> } | undefined;

  constructor(
    private readonly db: InboxDb,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Starts reading `id` for a view about to open it (unless a read of it started a moment ago). */
  ahead(id: number): void {
    if (this.pending && this.pending.id === id && this.now() - this.pending.at < FRESH_MS) return;
    const read = readConversation(this.db, id);
    // Whoever takes it sees a failure; one never taken must not be an unhandled rejection.
    read.catch(() => undefined);
    this.pending = { id, at: this.now(), read };
  }

  /** The read started for `id` a moment ago (once), else a new one. */
  take(id: number): Promise<ConversationRead> {
    const pending = this.pending;
    this.pending = undefined;
    if (pending && pending.id === id && this.now() - pending.at < FRESH_MS) return pending.read;
    return readConversation(this.db, id);
  }
}
