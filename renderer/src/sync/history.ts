// Following a conversation's history through the service's id cursors (spec, Pagination):
// the newest page first, `before` for older pages, and `after` / `before`+`after` to close a gap
// when the newest page does not connect to what the cache already held.
import type { Message } from '../../../shared/api/records';
import type { InboxDb } from '../db/schema';
import type { PageRequest } from '../model/cursor';
import { applyPage, knownSpan, nextGapRequest } from '../model/cursor';
import { isLocalMessage } from '../model/intent';

/** Asks the service for one page; throws on failure (the cache keeps what it had). */
export type FetchPage = (query: { before?: number; after?: number }) => Promise<Message[]>;

/** The answer proves there is nothing newer than what it brought. */
const reachesNewest = (req: PageRequest, ids: readonly number[]) => (req.kind === 'latest' || req.kind === 'after') && knownSpan(req, ids).to === Number.MAX_SAFE_INTEGER;

const queryOf = (req: PageRequest) =>
  req.kind === 'latest' ? {} : req.kind === 'before' ? { before: req.before } : req.kind === 'after' ? { after: req.after } : { after: req.after, before: req.before };

/**
 * Stores a page and what it proves about the history, in one transaction. `askedAt`: when the
 * request went out; a page that reached the newest message marks the history complete as of then.
 */
export async function recordPage(db: InboxDb, conversationId: number, req: PageRequest, page: Message[], askedAt?: number, opts: { lazyGaps?: boolean } = {}): Promise<void> {
  // Only this conversation's messages; a confused answer must not write into another one.
  const own = page.filter((m) => m.conversation_id === conversationId);
  const ids = own.map((m) => m.id);
  await db.transaction('rw', db.messages, db.cursors, async () => {
    if (own.length) await db.messages.bulkPut(own);
    const prev = await db.cursors.get(conversationId);
    const next = applyPage(conversationId, prev, req, ids, opts);
    const completeAt = askedAt !== undefined && reachesNewest(req, ids) ? askedAt : prev?.completeAt;
    await db.cursors.put(completeAt === undefined ? next : { ...next, completeAt });
  });
}

async function fetchAndRecord(db: InboxDb, conversationId: number, fetchPage: FetchPage, req: PageRequest, opts: { lazyGaps?: boolean } = {}) {
  const askedAt = Date.now();
  const page = await fetchPage(queryOf(req));
  await recordPage(db, conversationId, req, page, askedAt, opts);
  return page.length;
}

/**
 * Closes the cursor's gaps, newest first (nearest to what the agent reads). Each gap is tried
 * with `after` (100); a gap still open after that is large, so `before`+`after` (1000) follows.
 * Bounded so that a service answering nonsense cannot keep us looping. A jump's gaps (`lazy`)
 * stay: they are filled a page at a time as the agent scrolls to them (`fillGap`).
 */
export async function closeGaps(db: InboxDb, conversationId: number, fetchPage: FetchPage, maxRequests = 50): Promise<void> {
  const attempts = new Map<string, number>();
  for (let i = 0; i < maxRequests; i++) {
    const gap = (await db.cursors.get(conversationId))?.gaps.filter((g) => !g.lazy).at(-1);
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

/** One older page (`before` the oldest held), or the newest page if nothing is held. Returns whether older history remains. */
export async function loadOlderOnce(db: InboxDb, conversationId: number, fetchPage: FetchPage): Promise<boolean> {
  const cursor = await db.cursors.get(conversationId);
  if (!cursor || cursor.oldestId === 0) {
    await refreshLatest(db, conversationId, fetchPage);
  } else if (cursor.hasOlder) {
    await fetchAndRecord(db, conversationId, fetchPage, { kind: 'before', before: cursor.oldestId });
  }
  return (await db.cursors.get(conversationId))?.hasOlder ?? true;
}

/**
 * The page around one message (a search hit), not the whole thread: the newest page first when
 * nothing is held (so the jump's window never sits alone, mistaken for the newest messages), then
 * the hit with the page before it (`before` = its id + 1) and the page after it. What lies between
 * the window and what was held stays a lazy gap, filled as the agent scrolls there.
 */
export async function loadAround(db: InboxDb, conversationId: number, fetchPage: FetchPage, messageId: number): Promise<void> {
  const cursor = await db.cursors.get(conversationId);
  if (!cursor || cursor.newestId === 0) await fetchAndRecord(db, conversationId, fetchPage, { kind: 'latest' });
  await fetchAndRecord(db, conversationId, fetchPage, { kind: 'before', before: messageId + 1 }, { lazyGaps: true });
  await fetchAndRecord(db, conversationId, fetchPage, { kind: 'after', after: messageId }, { lazyGaps: true });
}

/** One page into a lazy gap from its older side (`after`), as the agent scrolls down into it. */
export async function fillGap(db: InboxDb, conversationId: number, fetchPage: FetchPage, gap: { after: number }): Promise<void> {
  await fetchAndRecord(db, conversationId, fetchPage, { kind: 'after', after: gap.after });
}

/**
 * A session's history work that must not run twice at once: older pages (scroll events arrive in
 * bursts; a second call joins the one on its way) and the open conversation following live
 * messages. One per session client, so nothing is shared between sessions or tests.
 */
export class HistoryFollower {
  private readonly older = new Map<number, Promise<boolean>>();
  private readonly following = new Map<number, Promise<void>>();
  private readonly again = new Set<number>();

  constructor(
    private readonly db: InboxDb,
    private readonly fetchPageOf: (conversationId: number) => FetchPage,
  ) {}

  /** The newest page, then any gap it left. */
  refreshLatest(conversationId: number): Promise<void> {
    return refreshLatest(this.db, conversationId, this.fetchPageOf(conversationId));
  }

  /** The page around a message (a search hit); a second call for the same one joins the first. */
  loadAround(conversationId: number, messageId: number): Promise<void> {
    return this.once(`around:${conversationId}:${messageId}`, () => loadAround(this.db, conversationId, this.fetchPageOf(conversationId), messageId));
  }

  /** One page into a lazy gap; calls while one is on its way join it. */
  fillGap(conversationId: number, gap: { after: number }): Promise<void> {
    return this.once(`gap:${conversationId}:${gap.after}`, () => fillGap(this.db, conversationId, this.fetchPageOf(conversationId), gap));
  }

  private readonly running = new Map<string, Promise<void>>();
  private once(key: string, run: () => Promise<void>): Promise<void> {
    let p = this.running.get(key);
    if (!p) {
      p = run().finally(() => this.running.delete(key));
      this.running.set(key, p);
    }
    return p;
  }

  /** One older page; a call while one is on its way joins it. Returns whether older history remains. */
  loadOlder(conversationId: number): Promise<boolean> {
    let running = this.older.get(conversationId);
    if (!running) {
      running = loadOlderOnce(this.db, conversationId, this.fetchPageOf(conversationId)).finally(() => this.older.delete(conversationId));
      this.older.set(conversationId, running);
    }
    return running;
  }

  /**
   * Brings the open conversation's cursor up to its newest live message without a visible hole:
   * a message newer than the newest held may have others before it that this window never heard
   * of (it was reloading, or the socket was down), so one `after` page asks for them before the
   * cursor moves. Bursts share one request; a message that arrived while the page was on its way
   * gets one more round. If the service cannot be asked, the ids in between become a gap that
   * closes when the conversation is next refreshed.
   */
  followOpen(conversationId: number): Promise<void> {
    const current = this.following.get(conversationId);
    if (current) {
      this.again.add(conversationId);
      return current;
    }
    const run = (async () => {
      do {
        this.again.delete(conversationId);
        await this.closeToNewest(conversationId);
      } while (this.again.has(conversationId));
    })().finally(() => this.following.delete(conversationId));
    this.following.set(conversationId, run);
    return run;
  }

  private async closeToNewest(conversationId: number): Promise<void> {
    const db = this.db;
    const cursor = await db.cursors.get(conversationId);
    if (!cursor || cursor.newestId === 0) return;
    const after = cursor.newestId;
    try {
      const askedAt = Date.now();
      await recordPage(db, conversationId, { kind: 'after', after }, await this.fetchPageOf(conversationId)({ after }), askedAt);
    } catch {
      await db.transaction('rw', db.messages, db.cursors, async () => {
        const held = await db.messages.where('[conversation_id+id]').between([conversationId, after + 1], [conversationId, Infinity]).toArray();
        const newest = Math.max(after, ...held.filter((m) => !isLocalMessage(m)).map((m) => m.id));
        const now = await db.cursors.get(conversationId);
        if (!now || newest <= now.newestId) return;
        const gap = newest - now.newestId > 1 ? [{ after: now.newestId, before: newest }] : [];
        await db.cursors.put({ ...now, newestId: newest, gaps: [...now.gaps, ...gap] });
      });
    }
  }
}
