// Following a conversation's history through the service's id cursors (spec, Pagination):
// the newest page first, `before` for older pages, and `after` / `before`+`after` to close a gap
// when the newest page does not connect to what the cache already held.
import type { Message } from '../../../shared/api/records';
import type { InboxDb } from '../db/schema';
import type { PageRequest } from '../model/cursor';
import { applyPage, nextGapRequest } from '../model/cursor';

/** Asks the service for one page; throws on failure (the cache keeps what it had). */
export type FetchPage = (query: { before?: number; after?: number }) => Promise<Message[]>;

const queryOf = (req: PageRequest) =>
  req.kind === 'latest' ? {} : req.kind === 'before' ? { before: req.before } : req.kind === 'after' ? { after: req.after } : { after: req.after, before: req.before };

/** Stores a page and what it proves about the history, in one transaction. */
export async function recordPage(db: InboxDb, conversationId: number, req: PageRequest, page: Message[]): Promise<void> {
  // Only this conversation's messages; a confused answer must not write into another one.
  const own = page.filter((m) => m.conversation_id === conversationId);
  await db.transaction('rw', db.messages, db.cursors, async () => {
    if (own.length) await db.messages.bulkPut(own);
    const prev = await db.cursors.get(conversationId);
    await db.cursors.put(applyPage(conversationId, prev, req, own.map((m) => m.id)));
  });
}

async function fetchAndRecord(db: InboxDb, conversationId: number, fetchPage: FetchPage, req: PageRequest) {
  const page = await fetchPage(queryOf(req));
  await recordPage(db, conversationId, req, page);
  return page.length;
}

/**
 * Closes the cursor's gaps, newest first (nearest to what the agent reads). Each gap is tried
 * with `after` (100); a gap still open after that is large, so `before`+`after` (1000) follows.
 * Bounded so that a service answering nonsense cannot keep us looping.
 */
export async function closeGaps(db: InboxDb, conversationId: number, fetchPage: FetchPage, maxRequests = 50): Promise<void> {
  const attempts = new Map<string, number>();
  for (let i = 0; i < maxRequests; i++) {
    const gap = (await db.cursors.get(conversationId))?.gaps.at(-1);
    if (!gap) return;
    const key = `${gap.before}`;
    const attempt = attempts.get(key) ?? 0;
    attempts.set(key, attempt + 1);
    await fetchAndRecord(db, conversationId, fetchPage, nextGapRequest(gap, attempt));
  }
}

/** The newest page, then any gap it left. */
export async function refreshLatest(db: InboxDb, conversationId: number, fetchPage: FetchPage): Promise<void> {
  await fetchAndRecord(db, conversationId, fetchPage, { kind: 'latest' });
  await closeGaps(db, conversationId, fetchPage);
}

const olderInFlight = new Map<string, Promise<boolean>>();

/**
 * One older page (`before` the oldest held). Returns whether older history remains. Scroll events
 * arrive in bursts: a second call while one is on its way joins it instead of asking again.
 */
export function loadOlder(db: InboxDb, conversationId: number, fetchPage: FetchPage): Promise<boolean> {
  const key = `${db.name}#${conversationId}`;
  let running = olderInFlight.get(key);
  if (!running) {
    running = loadOlderOnce(db, conversationId, fetchPage).finally(() => olderInFlight.delete(key));
    olderInFlight.set(key, running);
  }
  return running;
}

async function loadOlderOnce(db: InboxDb, conversationId: number, fetchPage: FetchPage): Promise<boolean> {
  const cursor = await db.cursors.get(conversationId);
  if (!cursor || cursor.oldestId === 0) {
    await refreshLatest(db, conversationId, fetchPage);
  } else if (cursor.hasOlder) {
    await fetchAndRecord(db, conversationId, fetchPage, { kind: 'before', before: cursor.oldestId });
  }
  return (await db.cursors.get(conversationId))?.hasOlder ?? true;
}
