// Catch-up of the whole cache after any gap (socket not recovered, sleep, offline, a reload): every
// cached conversation with new activity converges, with the fewest requests the service's cursor
// limits allow (SYNC-PROTOCOL.md, "Catch-up").
//
// - Where the service has the changes feed: pages of everything that changed after the stored
//   cursor (up to 1,000 items a page, `more` says whether another page follows), so 2,000 new
//   messages in 50 conversations take three requests.
// - Elsewhere (a real Chatwoot installation): one `updated_within` list (unpaginated) names every
//   conversation changed since the watermark, then one `after`+`before` page (up to 1,000) per
//   conversation whose held history ends before its newest message.
//
// Histories stay whole: a conversation's cursor moves past new messages without a gap only when
// the cache is known to hold everything before them (its newest page was read after the feed
// cursor was taken, or the between page runs from the newest held id); otherwise the ids in
// between are a gap that opening the conversation closes.
import type { Conversation, Message } from '../../../shared/api/records';
import type { Bridge } from '../../../shared/bridge/contract';
import type { ServiceFeatures } from '../../../shared/bridge/calls/session';
import { forgetConversation, saveConversations } from '../db/save';
import type { InboxDb } from '../db/schema';
import { isLocalMessage } from '../model/intent';
import { BridgeFailure, callOrThrow } from '../platform/call';
import { recordPage } from './history';

/** Keys in the `sync` table. */
export const SYNC_KEYS = {
  /** The changes feed's cursor after the last complete catch-up. */
  feedCursor: 'feed.cursor',
  /** Client time the feed cursor was read at (histories read after it are complete up to it). */
  feedCursorAt: 'feed.cursorAt',
  /** Client time before which every change is known to be in the cache. */
  watermark: 'watermark',
} as const;

/** The service's page sizes (spec, Pagination; chatwoot-compat §7). */
export const FEED_PAGE = 1_000;
export const BETWEEN_PAGE = 1_000;
/** Chatwoot's conversation page size, and a paginated answer's tell: a full page may have more. */
const LIST_PAGE = 25;
/** Clocks and requests in flight: ask for a little more than the gap. */
const WATERMARK_MARGIN_MS = 60_000;
/** Beyond this long offline, `updated_within` is capped (the list would be most of the account anyway). */
const MAX_WITHIN_S = 30 * 86_400;

export interface CatchUpResult {
  mode: 'feed' | 'list' | 'none';
  /** Requests made to the service. */
  requests: number;
  conversations: number;
  messages: number;
  /** Messages that arrived during the gap, as far as this catch-up saw them (for one summary notification). */
  arrived: Message[];
}

export interface CatchUpDeps {
  bridge: Bridge;
  db: InboxDb;
  features(): Promise<ServiceFeatures>;
  now?: () => number;
}

async function getValue(db: InboxDb, key: string): Promise<string | number | undefined> {
  return (await db.sync.get(key))?.value;
}
const setValue = (db: InboxDb, key: string, value: string | number) => db.sync.put({ key, value });

/** Runs one catch-up. Throws BridgeFailure when the service cannot be reached (what was stored stays). */
export async function catchUp(deps: CatchUpDeps): Promise<CatchUpResult> {
  const now = deps.now ?? Date.now;
  const startedAt = now();
  const features = await deps.features();
  const result = features.changesFeed ? await viaFeed(deps, now) : await viaList(deps, now);
  // Everything that changed before this catch-up began is in the cache now (an empty cache has nothing to miss).
  await setValue(deps.db, SYNC_KEYS.watermark, startedAt);
  return result;
}

/** Marks the cache as current up to now (the socket delivered everything meanwhile): the next catch-up asks for less. */
export async function advanceWatermark(db: InboxDb, at: number): Promise<void> {
  const held = await getValue(db, SYNC_KEYS.watermark);
  if (typeof held === 'number' && held >= at) return;
  await setValue(db, SYNC_KEYS.watermark, at);
}

async function viaFeed(deps: CatchUpDeps, now: () => number): Promise<CatchUpResult> {
  const { bridge, db } = deps;
  const result: CatchUpResult = { mode: 'feed', requests: 0, conversations: 0, messages: 0, arrived: [] };
  const stored = await getValue(db, SYNC_KEYS.feedCursor);
  if (typeof stored !== 'string') {
    // First time with the feed: its "now" is taken before anything is read, so what changes from
    // here on is in it; the cache up to now is caught up the list way.
    const askedAt = now();
    const start = await callOrThrow(bridge, 'changes.list', {});
    result.requests++;
    const before = await viaList(deps, now);
    await setValue(db, SYNC_KEYS.feedCursor, start.meta.cursor);
    await setValue(db, SYNC_KEYS.feedCursorAt, askedAt);
    return { ...before, mode: before.mode === 'none' ? 'feed' : before.mode, requests: result.requests + before.requests };
  }
  const cursorAt = Number((await getValue(db, SYNC_KEYS.feedCursorAt)) ?? Infinity);
  let cursor: string = stored;
  for (;;) {
    const askedAt = now();
    const page = await bridge.call('changes.list', { since: cursor, limit: FEED_PAGE });
    result.requests++;
    if (!page.ok) {
      // A cursor the service no longer knows (its database was replaced): start over, the list way.
      if (page.error.kind === 'validation') {
        await db.sync.bulkDelete([SYNC_KEYS.feedCursor, SYNC_KEYS.feedCursorAt]);
        const again = await viaFeed(deps, now);
        return { ...again, requests: again.requests + result.requests };
      }
      throw new BridgeFailure(page.error);
    }
    const { conversations, messages, removed } = page.value.payload;
    await saveConversations(db, conversations, askedAt);
    for (const id of removed) await forgetConversation(db, id);
    await storeMessages(db, messages, cursorAt, askedAt);
    result.conversations += conversations.length;
    result.messages += messages.length;
    result.arrived.push(...messages);
    cursor = page.value.meta.cursor;
    // Stored page by page: a catch-up cut off half way resumes where it stopped.
    await setValue(db, SYNC_KEYS.feedCursor, cursor);
    if (!page.value.meta.more) {
      await setValue(db, SYNC_KEYS.feedCursorAt, askedAt);
      return result;
    }
  }
}

/**
 * Messages from the feed: stored by id, and each held history moves to its newest one. Without a
 * gap where the history was complete when the cursor was read (its newest page asked for after
 * `cursorAt`: everything before the cursor was held, everything after is in the feed); with one
 * otherwise. Conversations whose history is not held get none (opening reads their newest page).
 */
async function storeMessages(db: InboxDb, messages: readonly Message[], cursorAt: number, askedAt: number): Promise<void> {
  if (!messages.length) return;
  const byConversation = new Map<number, Message[]>();
  for (const m of messages) byConversation.set(m.conversation_id, [...(byConversation.get(m.conversation_id) ?? []), m]);
  await db.transaction('rw', db.messages, db.cursors, async () => {
    await db.messages.bulkPut(messages.filter((m) => !isLocalMessage(m)));
    for (const [id, list] of byConversation) {
      const cursor = await db.cursors.get(id);
      if (!cursor || cursor.newestId === 0) continue;
      const newest = Math.max(...list.map((m) => m.id));
      if (newest <= cursor.newestId) continue;
      const whole = (cursor.completeAt ?? 0) >= cursorAt;
      const first = Math.min(...list.filter((m) => m.id > cursor.newestId).map((m) => m.id));
      const gap = whole || first - cursor.newestId <= 1 ? [] : [{ after: cursor.newestId, before: first }];
      await db.cursors.put({ ...cursor, newestId: newest, gaps: [...cursor.gaps, ...gap], ...(whole ? { completeAt: askedAt } : {}) });
    }
  });
}

/** The newest message id a conversation record names (REST: its newest message of any kind). */
const lastMessageId = (c: Conversation) => Math.max(0, ...c.messages.map((m) => m.id), c.last_non_activity_message?.id ?? 0);

/**
 * Since when the cache may miss changes: the watermark; for a cache from before watermarks, its
 * newest activity (the service's clock, so an hour more for a skewed one); nothing for an empty cache.
 */
async function missingSince(db: InboxDb): Promise<{ at: number; known: boolean } | undefined> {
  const watermark = await getValue(db, SYNC_KEYS.watermark);
  if (typeof watermark === 'number') return { at: watermark, known: true };
  const newest = await db.conversations.orderBy('lastActivityAt').last();
  return newest ? { at: newest.lastActivityAt * 1000 - 3_600_000, known: false } : undefined;
}

async function viaList(deps: CatchUpDeps, now: () => number): Promise<CatchUpResult> {
  const { bridge, db } = deps;
  const since = await missingSince(db);
  if (since === undefined) return { mode: 'none', requests: 0, conversations: 0, messages: 0, arrived: [] };
  const watermark = since.at;
  // Arrived "while away" only when the cache knows since when it was away (not the first catch-up of a session).
  const arrived = (list: readonly Message[]) => since.known && result.arrived.push(...list);
  const result: CatchUpResult = { mode: 'list', requests: 0, conversations: 0, messages: 0, arrived: [] };
  const within = Math.min(MAX_WITHIN_S, Math.ceil((now() - watermark + WATERMARK_MARGIN_MS) / 1000));
  const changed = new Map<number, Conversation>();
  // Unpaginated where the service honours updated_within (Chatwoot does); a service that pages
  // anyway answers full pages, so go on while a page is full and brings conversations not seen.
  for (let page = 1; page <= 400; page++) {
    const askedAt = now();
    const list = await callOrThrow(bridge, 'conversations.list', { page, status: 'all', assigneeType: 'all', updatedWithin: within });
    result.requests++;
    const fresh = list.data.payload.filter((c) => !changed.has(c.id));
    for (const c of fresh) changed.set(c.id, c);
    await saveConversations(db, fresh, askedAt);
    if (list.data.payload.length !== LIST_PAGE || !fresh.length) break;
  }
  result.conversations = changed.size;
  for (const c of changed.values()) {
    const cursor = await db.cursors.get(c.id);
    const last = lastMessageId(c);
    if (!cursor || cursor.newestId === 0) {
      // No history held: its newest message stands for what arrived (opening reads the rest).
      const newest = c.last_non_activity_message;
      if (newest && newest.created_at * 1_000 > watermark) arrived([newest]);
      continue;
    }
    if (last <= cursor.newestId) continue;
    // Everything between the newest held and the newest there is, a thousand at a time, oldest first.
    let after = cursor.newestId + 1;
    for (let i = 0; i < 100 && after <= last; i++) {
      const askedAt = now();
      const req = { kind: 'between', after, before: last + 1 } as const;
      const page = (await callOrThrow(bridge, 'messages.list', { conversationId: c.id, after, before: last + 1 })).payload;
      result.requests++;
      await recordPage(db, c.id, req, page);
      result.messages += page.length;
      arrived(page);
      const top = Math.max(0, ...page.map((m) => m.id));
      if (page.length < BETWEEN_PAGE || top >= last) {
        const held = await db.cursors.get(c.id);
        if (held && held.gaps.length === 0) await db.cursors.put({ ...held, completeAt: askedAt });
        break;
      }
      after = top + 1;
    }
  }
  return result;
}
