// Revalidates a list view against the service: pages by `page` until an empty page (the spec's
// end of list), the tab counts from page 1's meta, then reconciliation. A conversation the cache
// shows in this view but a complete fetch did not return has left the view (resolved, reassigned,
// relabelled, or gone): it must not linger where it no longer belongs.
import type { Bridge } from '../../../shared/bridge/contract';
import { idsWithPending, saveConversations } from '../db/save';
import type { RefreshOutcome } from '../sync/refresh';
import { refreshConversation } from '../sync/refresh';
import type { InboxDb } from '../db/schema';
import { callOrThrow } from '../platform/call';
import type { ListView } from './view';
import { countsKey, listInput, readView } from './view';

export const MAX_PAGES = 400;
/** Above this many leavers, re-reading each one costs more than letting its own view bring it back. */
export const RECHECK_LIMIT = 50;

export interface RevalidateResult {
  fetched: number;
  complete: boolean;
  left: number;
}

/** `refresh`: the session's one conversation read (re-reads a leaver); by default a plain read over `bridge`. */
export async function revalidateView(
  bridge: Bridge,
  db: InboxDb,
  view: ListView,
  meId: number,
  maxPages = MAX_PAGES,
  refresh: (id: number) => Promise<RefreshOutcome> = (id) => refreshConversation(bridge, db, id),
): Promise<RevalidateResult> {
  const seen = new Set<number>();
  const startedAt = Date.now();
  let complete = false;
  for (let page = 1; page <= maxPages; page++) {
    const askedAt = Date.now();
    const list = await callOrThrow(bridge, 'conversations.list', listInput(view, page));
    if (page === 1) await db.viewCounts.put({ key: countsKey(view), counts: list.data.meta, fetchedAt: askedAt });
    if (list.data.payload.length === 0) {
      complete = true;
      break;
    }
    for (const c of list.data.payload) seen.add(c.id);
    await saveConversations(db, list.data.payload, askedAt);
  }
  // Only a complete fetch proves absence; an interrupted one reconciles nothing.
  const left = complete ? await reconcileView(db, view, meId, seen, startedAt, refresh) : 0;
  return { fetched: seen.size, complete, left };
}

/**
 * Rows the cache places in `view` that the service did not return. Each is re-read: the fresh
 * record moves it to where it belongs (pages shift while we read them, so a row may simply have
 * moved to a page we had already passed). A 404 forgets it; any other failure drops the row from
 * the list (its messages stay cached) until a view that holds it brings it back. Rows the agent's
 * own actions put here (queued, or confirmed after `fetchedAt`) are not leavers.
 */
export async function reconcileView(db: InboxDb, view: ListView, meId: number, seen: ReadonlySet<number>, fetchedAt: number, refresh: (id: number) => Promise<RefreshOutcome>): Promise<number> {
  const candidates = (await readView(db, view, meId)).filter((c) => !seen.has(c.id));
  // A row the agent just changed may sit here ahead of the service (its action is still queued):
  // that is where it belongs, not a leaver.
  const ahead = await db.transaction('r', db.outbox, () => idsWithPending(db, candidates.map((c) => c.id), fetchedAt));
  const leavers = candidates.filter((c) => !ahead.has(c.id));
  if (leavers.length > RECHECK_LIMIT) {
    await db.conversations.bulkDelete(leavers.map((c) => c.id));
    return leavers.length;
  }
  for (const c of leavers) {
    // Stored where it now belongs, or forgotten (404); any other failure drops the row from lists
    // (its messages stay cached) until a view that holds it brings it back.
    const read = await refresh(c.id);
    if (read.kind === 'failed') await db.conversations.delete(c.id);
  }
  return leavers.length;
}

/** The tab counts alone (page 1's meta): after the agent's own changes landed, without re-reading the list. */
export async function refreshCounts(bridge: Bridge, db: InboxDb, view: ListView): Promise<void> {
  const askedAt = Date.now();
  const first = await bridge.call('conversations.list', listInput(view, 1));
  // When they were asked for: the agent's changes confirmed after that may not be in them (conversations/counts.ts).
  if (first.ok) await db.viewCounts.put({ key: countsKey(view), counts: first.value.data.meta, fetchedAt: askedAt });
}
