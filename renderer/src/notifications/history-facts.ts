// What a conversation's cached history says for a notification: whether the agent took part in it
// (a message of theirs, not an activity line), and who last resolved it. Read newest first, a page
// at a time (one IndexedDB getAll each), until both are known: a conversation the agent answered
// lately is told by its newest page. Each message's decision counted every cached message with a
// cursor before (a cursor's step is a task of the page's own): in a conversation of 10,000 cached
// messages, a contact's message was notified 427 ms after it was sent, p50, against 23 ms (bench
// "notify", thirty-third stop). While the inbox runs, what a walk found is kept with the messages
// written to that conversation since (`createHistoryFacts`), so its next message reads those alone.
import Dexie, { RangeSet } from 'dexie';
import type { ObservabilitySet } from 'dexie';
import { messageTypes } from '../../../shared/api/record-values';
import { tableChange } from '../db/changed-keys';
import type { CachedMessage, InboxDb } from '../db/schema';

/** The newest messages read first: more than a conversation the agent is answering holds since their last reply. */
export const FIRST_PAGE = 100;
/** Each page after that: few round trips through a long history (pages of 1,000: p50 190 ms in the bench above; of 5,000: 130 ms; each a 9 ms task to take in). */
export const PAGE = 5_000;
const RESOLVED_BY = /marked resolved by (.+)$/;

export interface HistoryFacts {
  /** A message of `me`'s (not an activity line) is cached. */
  participating: boolean;
  /** The name in the newest "marked resolved by" activity line cached; undefined if none was read. */
  lastResolvedBy: string | undefined;
}

/** What a read of messages found. */
interface Found {
  participating: boolean;
  /** Whether the read looked for the last resolve and reached it or the oldest message (so `lastResolvedBy` is the answer). */
  resolveKnown: boolean;
  lastResolvedBy: string | undefined;
  /** The resolve line's id (-1: none): a line written later counts only if it is newer. */
  resolvedAt: number;
}

/** Takes messages newest first; says when both facts are known. */
function finder(me: { id: number }, resolver: boolean) {
  const found: Found = { participating: false, resolveKnown: !resolver, lastResolvedBy: undefined, resolvedAt: -1 };
  const visit = (m: CachedMessage) => {
    if (m.message_type === messageTypes.activity) {
      const by = found.resolveKnown ? null : RESOLVED_BY.exec(m.content ?? '');
      if (by) {
        found.resolveKnown = true;
        found.lastResolvedBy = by[1]!.trim();
        found.resolvedAt = m.id;
      }
    } else if (m.sender?.type === 'user' && m.sender.id === me.id) found.participating = true;
    return found.participating && found.resolveKnown;
  };
  return { found, visit };
}

/** What messages (newest first) say, all of them read. */
function scan(messages: readonly CachedMessage[], me: { id: number }, resolver: boolean): Found {
  const { found, visit } = finder(me, resolver);
  messages.some(visit);
  return { ...found, resolveKnown: resolver };
}

/**
 * Conversation `id`'s cached history, newest first, until both facts are known. `resolver`: whether
 * who last resolved it is wanted (else the walk stops once the agent's part is known).
 */
async function walk(db: InboxDb, id: number, me: { id: number }, resolver: boolean): Promise<Found> {
  const { found, visit } = finder(me, resolver);
  let upper = Infinity;
  for (let size = FIRST_PAGE; ; size = PAGE) {
    // Newest first, below the last page's oldest.
    const page = await db.messages.where('[conversation_id+id]').between([id, 0], [id, upper], true, false).reverse().limit(size).toArray();
    if (page.some(visit) || page.length < size) break;
    upper = page[page.length - 1]!.id;
  }
  // Read to the oldest message: what was looked for and not found is not there.
  return { ...found, resolveKnown: resolver };
}

/** The facts of conversation `id`'s cached history, read each time (nothing kept). */
export async function historyFacts(db: InboxDb, id: number, me: { id: number }, resolver: boolean): Promise<HistoryFacts> {
  const { participating, lastResolvedBy } = await walk(db, id, me, resolver);
  return { participating, lastResolvedBy };
}

/** Writes kept while a conversation's facts are read: more than this meanwhile, and what was found is not kept. */
const WRITES_KEPT = 64;
/** Messages written to a conversation since its walk beyond which it is walked again (a read of them all would cost about as much). */
const SINCE_KEPT = 1_000;

/** What was found of a conversation over its messages as read, and the messages written to it since (read alone next time). */
interface Kept extends Found {
  since: Set<number>;
}

/** A write to the cache's messages: the messages it named, by conversation, or undefined when it did not name them all (a delete, a range, a page of 50 or more). */
type MessageWrite = Map<number, number[]> | undefined;

/**
 * The messages a write named, by conversation: `ids`, the keys it named (`tableChange`), each found
 * in its `[conversation_id+id]` key, which Dexie gives for a put of fewer than 50 messages. Anything
 * else (a delete names keys alone; a range; a page) is undefined: every conversation is read whole again.
 */
function messagesWritten(parts: ObservabilitySet, dbName: string, ids: readonly number[] | undefined): MessageWrite {
  const byKey = parts[`idb://${dbName}/messages/[conversation_id+id]`];
  if (!ids || !byKey) return undefined;
  const out = new Map<number, number[]>();
  const named = new Set<number>();
  for (const node of RangeSet(byKey)) {
    const [from, to] = [node.from as unknown, node.to as unknown];
    if (!Array.isArray(from) || !Array.isArray(to) || from[0] !== to[0] || from[1] !== to[1]) return undefined;
    const [conversation, id] = from as [number, number];
    if (typeof conversation !== 'number' || typeof id !== 'number') return undefined;
    const list = out.get(conversation);
    if (list) list.push(id);
    else out.set(conversation, [id]);
    named.add(id);
  }
  // A message Dexie named by its key alone (its conversation unchanged, told without it): unknown where.
  return ids.every((id) => named.has(id)) ? out : undefined;
}

/**
 * The facts of a session's conversations, what each read found kept until a write to the cache's
 * messages says otherwise: a conversation whose contact writes and writes, the agent never
 * answering, was read whole at each of its messages (10,000 cached: p50 130-218 ms to notify,
 * bench "notify"); kept, each message reads only the messages written to it since. A write that
 * names its messages (a live message, an edit, a send) adds them to their conversation's; any
 * other (a delete, a page saved, a catch-up) forgets everything. A message never moves to another
 * conversation (neither the service nor Chatwoot moves one), which is what lets a write named by
 * its new conversation alone leave the others as they were. `stop` lets go of Dexie's events.
 */
export function createHistoryFacts(db: InboxDb, me: { id: number }) {
  const kept = new Map<number, Kept>();
  // Writes told while a read was under way, by turn (the cache's answer and a write's event may
  // cross): what a read found is kept with the messages written meanwhile, or not at all.
  let turn = 0;
  const writes: { turn: number; write: MessageWrite }[] = [];
  const onWrite = (parts: ObservabilitySet) => {
    const ids = tableChange(parts, db.name, 'messages');
    if (ids?.length === 0) return;
    const write = messagesWritten(parts, db.name, ids);
    turn++;
    writes.push({ turn, write });
    if (writes.length > WRITES_KEPT) writes.shift();
    if (!write) kept.clear();
    else
      for (const [id, ids] of write) {
        const k = kept.get(id);
        for (const m of ids) k?.since.add(m);
        if (k && k.since.size > SINCE_KEPT) kept.delete(id);
      }
  };
  Dexie.on.storagemutated.subscribe(onWrite);

  /** The messages of conversation `id` written since turn `from`, or undefined if one write did not name its messages (or too many were told to know). */
  const writtenSince = (from: number, id: number): Set<number> | undefined => {
    if (turn - from > writes.length) return undefined;
    const out = new Set<number>();
    for (const w of writes) {
      if (w.turn <= from) continue;
      if (!w.write) return undefined;
      for (const m of w.write.get(id) ?? []) out.add(m);
    }
    return out;
  };

  async function facts(id: number, resolver: boolean): Promise<HistoryFacts> {
    const from = turn;
    const before = kept.get(id);
    let now: Found;
    if (before && (before.resolveKnown || !resolver)) {
      // Taken out while read: the writes meanwhile are in `writes`, and a read that fails keeps nothing.
      kept.delete(id);
      const fresh = (await db.messages.bulkGet([...before.since])).filter((m): m is CachedMessage => m?.conversation_id === id);
      const after = scan(fresh.sort((a, b) => b.id - a.id), me, before.resolveKnown);
      const newer = after.lastResolvedBy !== undefined && after.resolvedAt > before.resolvedAt;
      now = {
        participating: before.participating || after.participating,
        resolveKnown: before.resolveKnown,
        lastResolvedBy: newer ? after.lastResolvedBy : before.lastResolvedBy,
        resolvedAt: newer ? after.resolvedAt : before.resolvedAt,
      };
    } else {
      now = await walk(db, id, me, resolver);
    }
    const since = writtenSince(from, id);
    if (since && since.size <= SINCE_KEPT) kept.set(id, { ...now, since });
    else kept.delete(id);
    return { participating: now.participating, lastResolvedBy: resolver ? now.lastResolvedBy : undefined };
  }

  return {
    facts,
    stop: () => {
      Dexie.on.storagemutated.unsubscribe(onWrite);
      kept.clear();
    },
  };
}
