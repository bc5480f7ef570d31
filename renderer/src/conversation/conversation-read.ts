// Everything the open conversation shows from the cache, in one read: its row, its held messages,
// its cursor and its record, so that they land together and the thread renders once (four live
// reads landed one by one, the messages last, each a render of the view).
import { dequal } from 'dequal';
import { RangeSet } from 'dexie';
import type { ObservabilitySet } from 'dexie';
import type { Conversation } from '../../../shared/api/records';
import { keySet, PATCH_LIMIT, tableChange } from '../db/changed-keys';
import type { CachedConversation, CachedMessage, CursorState, InboxDb } from '../db/schema';

export interface ConversationRead {
  /** null: not cached. */
  row: CachedConversation | null;
  /** Oldest first. */
  messages: CachedMessage[];
  /**
   * The cache holds older messages of it than `messages`: this is a view's first read, which takes
   * only the newest (FIRST_READ_MESSAGES); the live read that follows takes them all.
   */
  olderHeld: boolean;
  /** null: no history of it is cached. */
  cursor: CursorState | null;
  /** undefined: not cached. */
  record: Conversation | undefined;
}

/**
 * How many of its newest messages a view's first read takes: more than a tall pane shows with the
 * thread's overscan. IndexedDB took 8-18 ms for a conversation's 500 (one read at a time, in the
 * browser process), and the view's messages rendered only once the last of them was in; the rest
 * come with the live read that follows 250 ms later (bench "switch", A/B 2026-11-28, 40 switches
 * a run, two runs each: median 60.3 and 65 → 49.7 and 54.9 ms, p95 82 and 96.4 → 74.9 and 83.6).
 */
export const FIRST_READ_MESSAGES = 60;

/** All of conversation `id`, or with `newest` only that many of its newest messages. */
export async function readConversation(db: InboxDb, id: number, newest?: number): Promise<ConversationRead> {
  // Four reads asked in the same moment, not one explicit transaction: Dexie starts an explicit one
  // a microtask later, behind the render of the click that opened the view (15 ms). Transactions
  // asked together, with nothing written between, read the same state. The small ones first:
  // IndexedDB answers them in order, and an answer that waits behind the messages' (8-18 ms)
  // reached the page only after the timers queued meanwhile (10 ms more, traced).
  const inConversation = db.messages.where('[conversation_id+id]').between([id, 0], [id, Infinity]);
  const [row, cursor, record, read] = await Promise.all([
    db.conversations.get(id),
    db.cursors.get(id),
    db.conversationRecords.get(id),
    // One more than asked for, to tell whether older ones are held.
    newest === undefined ? inConversation.toArray() : inConversation.reverse().limit(newest + 1).toArray(),
  ]);
  const olderHeld = newest !== undefined && read.length > newest;
  const messages = newest === undefined ? read : read.slice(0, newest).reverse();
  return { row: row ?? null, messages, olderHeld, cursor: cursor ?? null, record: record?.record };
}

/**
 * `shown` brought up to date with `changes` (writes to what it rests on, db/live-read.ts) by reading
 * only what they wrote: its row, cursor and record, and the messages they name. Undefined when
 * they cannot be told one by one (a range, a page of 50 or more, more than PATCH_LIMIT), or when
 * `shown` is a first read's newest only: then it is read whole again.
 *
 * Why: a conversation's cache grows with everything the agent scrolled through or that arrived
 * while it was open, and every change to it (the agent's own reply, each message arriving) read
 * it all again: 10,000 messages took 197 ms in IndexedDB before the reply showed (bench "reply",
 * thirty-second stop).
 */
export function patchConversationRead(db: InboxDb, id: number, shown: ConversationRead, changes: readonly ObservabilitySet[]): Promise<ConversationRead> | undefined {
  if (shown.olderHeld) return undefined;
  const keys = new Set<number>();
  for (const parts of changes) {
    const written = tableChange(parts, db.name, 'messages');
    if (!written) return undefined;
    for (const key of written) keys.add(key);
  }
  if (keys.size > PATCH_LIMIT) return undefined;
  // Asked together, as readConversation's reads are: they read the same state.
  const asked = [...keys];
  return Promise.all([db.conversations.get(id), db.cursors.get(id), db.conversationRecords.get(id), db.messages.bulkGet(asked)]).then(([row, cursor, record, written]) => ({
    row: row ?? null,
    messages: withWritten(shown.messages, asked, written, id),
    olderHeld: false,
    cursor: cursor ?? null,
    record: record?.record,
  }));
}

/**
 * `messages` (oldest first, by id) with the messages at `keys` read back (`written`, in the same
 * order): changed, added, or gone (not found, or now of another conversation). Each found by a
 * binary search: a map of the whole history for a write of one took 1.4 ms of a reply's task in a
 * thread of 10,000 (profiled).
 */
function withWritten(messages: CachedMessage[], keys: readonly number[], written: readonly (CachedMessage | undefined)[], id: number): CachedMessage[] {
  if (!keys.length) return messages;
  const next = messages.slice();
  keys.forEach((key, i) => {
    const m = written[i];
    const at = lowerBound(next, key);
    const held = next[at]?.id === key;
    if (!m || m.conversation_id !== id) {
      if (held) next.splice(at, 1);
    } else next.splice(at, held ? 1 : 0, m);
  });
  return next;
}

/** The index of the first message whose id is not below `key` (messages sorted by id). */
function lowerBound(messages: readonly CachedMessage[], key: number): number {
  let lo = 0;
  let hi = messages.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (messages[mid]!.id < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const part = (db: InboxDb, table: string, index = '') => `idb://${db.name}/${table}/${index}`;

/** What a read of conversation `id` rests on, in Dexie's terms: for a live read to tell a write to it (db/live-read.ts). */
export function conversationParts(db: InboxDb, id: number, read: ConversationRead): ObservabilitySet {
  // And one of the messages shown changed in place (a write names only its key).
  return { ...conversationOwnParts(db, id), [part(db, 'messages')]: keySet(read.messages.map((m) => m.id)) };
}

/**
 * What any read of conversation `id` rests on, known before it answers: its row, cursor and record,
 * and a message added to it or taken out (its index key). Not a message changed in place: that
 * write names the message's key alone.
 */
export function conversationOwnParts(db: InboxDb, id: number): ObservabilitySet {
  return {
    [part(db, 'messages', '[conversation_id+id]')]: new RangeSet([id, -Infinity], [id, Infinity]),
    [part(db, 'conversations')]: new RangeSet(id),
    [part(db, 'cursors')]: new RangeSet(id),
    [part(db, 'conversationRecords')]: new RangeSet(id),
  };
}

/**
 * `next`, with each part (and each message) that holds the same data as in `prev` kept as `prev`'s
 * object, and `prev` itself when nothing changed: a re-read after a change elsewhere (the row's
 * unread count, a cursor) renders no message again.
 */
export function keepSameRead(prev: ConversationRead, next: ConversationRead): ConversationRead {
  const messages = keepSameMessages(prev.messages, next.messages);
  const row = dequal(prev.row, next.row) ? prev.row : next.row;
  const cursor = dequal(prev.cursor, next.cursor) ? prev.cursor : next.cursor;
  const record = dequal(prev.record, next.record) ? prev.record : next.record;
  if (messages === prev.messages && row === prev.row && cursor === prev.cursor && record === prev.record && next.olderHeld === prev.olderHeld) return prev;
  return { row, messages, olderHeld: next.olderHeld, cursor, record };
}

function keepSameMessages(prev: CachedMessage[], next: CachedMessage[]): CachedMessage[] {
  let changed = prev.length !== next.length;
  const kept = next.map((m, i) => {
    // At the same place, else by id (both are sorted by id): no map of the whole history.
    const old = prev[i]?.id === m.id ? prev[i] : prev[lowerBound(prev, m.id)];
    const same = old !== undefined && old.id === m.id && dequal(old, m) ? old : m;
    if (same !== prev[i]) changed = true;
    return same;
  });
  return changed ? kept : prev;
}
