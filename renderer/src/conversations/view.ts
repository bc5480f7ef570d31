// A list view (tab, status, filters, sort) and how it reads from the cache. The same predicate
// and order the service applies are applied to cached rows, so the list the agent sees from the
// cache is the list the service will confirm.
import type { Collection } from 'dexie';
import Dexie from 'dexie';
import type { ConversationListInput } from '../../../shared/bridge/calls/conversations';
import type { ConversationStatus } from '../../../shared/api/records';
import type { InFlight } from '../actions/in-flight';
import { applyIntent } from '../model/intent';
import { waitingStart } from '../model/waiting';
import { withoutIds } from './without-ids';
import type { CachedConversation, InboxDb } from '../db/schema';

export type AssigneeTab = 'me' | 'unassigned' | 'all';
export type StatusFilter = ConversationStatus | 'all';
export type SortBy = NonNullable<ConversationListInput['sortBy']>;

export interface ListView {
  tab: AssigneeTab;
  status: StatusFilter;
  inboxId?: number | undefined;
  teamId?: number | undefined;
  label?: string | undefined;
  sortBy: SortBy;
}

export const defaultView: ListView = { tab: 'me', status: 'open', sortBy: 'last_activity_at_desc' };

export const sortOptions: { value: SortBy; label: string }[] = [
  { value: 'last_activity_at_desc', label: 'Last activity: newest' },
  { value: 'last_activity_at_asc', label: 'Last activity: oldest' },
  { value: 'created_at_desc', label: 'Created: newest' },
  { value: 'created_at_asc', label: 'Created: oldest' },
  { value: 'priority_desc', label: 'Priority: highest' },
  { value: 'priority_asc', label: 'Priority: lowest' },
  { value: 'waiting_since_asc', label: 'Waiting: longest' },
  { value: 'waiting_since_desc', label: 'Waiting: shortest' },
];

export const statusOptions: { value: StatusFilter; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'pending', label: 'Pending' },
  { value: 'snoozed', label: 'Snoozed' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'all', label: 'All statuses' },
];

export const tabOptions: { value: AssigneeTab; label: string; countKey: 'mine_count' | 'unassigned_count' | 'all_count' }[] = [
  { value: 'me', label: 'Mine', countKey: 'mine_count' },
  { value: 'unassigned', label: 'Unassigned', countKey: 'unassigned_count' },
  { value: 'all', label: 'All', countKey: 'all_count' },
];

/** The service's list parameters for this view. */
export function listInput(view: ListView, page: number): ConversationListInput {
  return {
    page,
    status: view.status,
    assigneeType: view.tab,
    sortBy: view.sortBy,
    ...(view.inboxId ? { inboxId: view.inboxId } : {}),
    ...(view.teamId ? { teamId: view.teamId } : {}),
    ...(view.label ? { labels: [view.label] } : {}),
  };
}

/** Counts are computed before the assignee filter, so all three tabs share one key. */
export const countsKey = (v: ListView) => JSON.stringify([v.status, v.inboxId ?? 0, v.teamId ?? 0, v.label ?? '']);
export const viewKey = (v: ListView) => JSON.stringify([v.tab, v.status, v.inboxId ?? 0, v.teamId ?? 0, v.label ?? '', v.sortBy]);

/** Whether a cached row belongs in the view: the service's filters, in the same terms. */
export function matchesView(c: CachedConversation, v: ListView, meId: number): boolean {
  if (v.status !== 'all' && c.status !== v.status) return false;
  if (v.tab === 'me' && c.assigneeId !== meId) return false;
  if (v.tab === 'unassigned' && c.assigneeId !== 0) return false;
  if (v.inboxId && c.inboxId !== v.inboxId) return false;
  if (v.teamId && c.teamId !== v.teamId) return false;
  if (v.label && !c.labels.includes(v.label)) return false;
  return true;
}

type Compare = (a: CachedConversation, b: CachedConversation) => number;
const desc = (f: (c: CachedConversation) => number): Compare => (a, b) => f(b) - f(a);
const asc = (f: (c: CachedConversation) => number): Compare => (a, b) => f(a) - f(b);
const then = (...cs: Compare[]): Compare => (a, b) => {
  for (const c of cs) {
    const r = c(a, b);
    if (r !== 0) return r;
  }
  return 0;
};
/** NULLS LAST: conversations without the value sort after all that have it, in both directions. */
const nullsLast = (isNull: (c: CachedConversation) => boolean, c: Compare): Compare => (a, b) => Number(isNull(a)) - Number(isNull(b)) || c(a, b);
const noPriority = (c: CachedConversation) => c.priorityRank < 0;
// The same figure the rows show (model/waiting.ts): a resolved conversation is not waiting.
const notWaiting = (c: CachedConversation) => !waitingStart(c);

/** The service's ORDER BY for each `sort_by`, as a comparator over cached rows. */
export const comparators: Record<SortBy, Compare> = {
  last_activity_at_desc: then(desc((c) => c.lastActivityAt), desc((c) => c.id)),
  last_activity_at_asc: then(asc((c) => c.lastActivityAt), asc((c) => c.id)),
  created_at_desc: then(desc((c) => c.createdAt), desc((c) => c.id)),
  created_at_asc: then(asc((c) => c.createdAt), asc((c) => c.id)),
  // The service leaves ties here to SQLite (rows in id order); by id here too, so a view kept
  // current row by row (`patchView`) orders them as a read of the whole view does.
  priority_desc: then(nullsLast(noPriority, desc((c) => c.priorityRank)), desc((c) => c.lastActivityAt), asc((c) => c.id)),
  priority_asc: then(nullsLast(noPriority, asc((c) => c.priorityRank)), desc((c) => c.lastActivityAt), asc((c) => c.id)),
  waiting_since_desc: then(nullsLast(notWaiting, desc(waitingStart)), asc((c) => c.createdAt), asc((c) => c.id)),
  waiting_since_asc: then(nullsLast(notWaiting, asc(waitingStart)), asc((c) => c.createdAt), asc((c) => c.id)),
};

const assigneeOf = (v: ListView, meId: number) => (v.tab === 'me' ? meId : v.tab === 'unassigned' ? 0 : undefined);

/** One status's rows in last-activity order (oldest first), of one assignee when given. */
function byActivityInStatus(db: InboxDb, status: ConversationStatus, assignee: number | undefined): Collection<CachedConversation, number> {
  const t = db.conversations;
  return assignee === undefined
    ? t.where('[status+lastActivityAt]').between([status, Dexie.minKey], [status, Dexie.maxKey])
    : t.where('[assigneeId+status+lastActivityAt]').between([assignee, status, Dexie.minKey], [assignee, status, Dexie.maxKey]);
}

/**
 * The narrowest index for the view; `matchesView` then decides. An assignee tab is the most
 * selective filter agents use, then inbox and team; a status alone reads `[status+lastActivityAt]`.
 */
function candidates(db: InboxDb, v: ListView, meId: number): Collection<CachedConversation, number> {
  const t = db.conversations;
  const assignee = assigneeOf(v, meId);
  if (assignee !== undefined) return v.status === 'all' ? t.where('assigneeId').equals(assignee) : byActivityInStatus(db, v.status, assignee);
  if (v.inboxId) return v.status === 'all' ? t.where('inboxId').equals(v.inboxId) : t.where('[inboxId+status]').equals([v.inboxId, v.status]);
  if (v.teamId) return v.status === 'all' ? t.where('teamId').equals(v.teamId) : t.where('[teamId+status]').equals([v.teamId, v.status]);
  if (v.label) return t.where('labels').equals(v.label);
  if (v.status !== 'all') return byActivityInStatus(db, v.status, undefined);
  return t.toCollection();
}

/**
 * The first `limit` rows of the view without reading the rest, for the first paint of a long list
 * (reading 10,000 rows takes a few hundred milliseconds; the screen shows a few dozen). Only where
 * an index already holds the view's order: last activity within one status, whose index entries
 * tie-break by id like the service. Elsewhere undefined, and the whole view is read as usual.
 */
export async function readFirstRows(db: InboxDb, v: ListView, meId: number, limit: number): Promise<CachedConversation[] | undefined> {
  const newestFirst = v.sortBy === 'last_activity_at_desc';
  if ((!newestFirst && v.sortBy !== 'last_activity_at_asc') || v.status === 'all') return undefined;
  const inOrder = byActivityInStatus(db, v.status, assigneeOf(v, meId));
  const ordered = newestFirst ? inOrder.reverse() : inOrder;
  // The index range already is the tab and status; a JS filter on top makes Dexie walk rows one by
  // one (in the benchmark, as slow as reading the whole view), so it is added only when needed.
  const filtered = v.inboxId || v.teamId || v.label ? ordered.filter((c) => matchesView(c, v, meId)) : ordered;
  return filtered.limit(limit).toArray();
}

/** The view's rows from the cache, filtered and ordered as the service would. */
export async function readView(db: InboxDb, v: ListView, meId: number): Promise<CachedConversation[]> {
  const rows = await candidates(db, v, meId).toArray();
  return rows.filter((c) => matchesView(c, v, meId)).sort(comparators[v.sortBy]);
}

/**
 * The view's rows after some conversations changed in the cache, without reading the rest again:
 * `rows` (the view as last read, in its order) less `changedIds`, plus those of `fresh` (their rows
 * as the cache holds them now; undefined where deleted) that belong in the view, each at its sorted
 * place. The same rows, in the same order, that `readView` would read now. Pure.
 */
export function patchView(rows: readonly CachedConversation[], changedIds: readonly number[], fresh: readonly (CachedConversation | undefined)[], v: ListView, meId: number): CachedConversation[] {
  const out = withoutIds(rows, new Set(changedIds));
  const compare = comparators[v.sortBy];
  for (const row of fresh) {
    if (!row || !matchesView(row, v, meId)) continue;
    // The first place whose row sorts after this one (binary search: the rows are in order).
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(out[mid]!, row) <= 0) lo = mid + 1;
      else hi = mid;
    }
    out.splice(lo, 0, row);
  }
  return out;
}

/** `row` with one action in flight applied; undefined when the action does not change it. */
function withItem(row: CachedConversation, item: InFlight): CachedConversation | undefined {
  const intent = item.intentFor({ row, record: undefined }, row.id);
  return intent && intent.kind !== 'message' ? applyIntent({ row, record: undefined }, intent, item.at).row! : undefined;
}

/**
 * Where the keyboard cursor goes when `item`, an action just begun, takes the cursor's row out of
 * the view: the row that will sit at its place once the rows `item` takes out have gone (the rule
 * of use-list.ts's effect, which moves the cursor after a row left); undefined when the cursor's
 * row stays. `rows`: the list as on screen, actions before `item` applied.
 */
export function cursorAfter(rows: readonly CachedConversation[], cursorId: number, item: InFlight, v: ListView, meId: number): number | undefined {
  const named = new Set(item.ids);
  if (!named.has(cursorId)) return undefined;
  const leaves = (r: CachedConversation) => {
    if (!named.has(r.id)) return false;
    const row = withItem(r, item);
    return row !== undefined && !matchesView(row, v, meId);
  };
  // The cursor's place in the list without the rows that leave: the (was + 1)th row that stays,
  // or the last that stays when fewer do.
  let was = -1;
  let kept = 0;
  let last: number | undefined;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.id === cursorId) {
      if (!leaves(r)) return undefined;
      was = i;
    } else if (!leaves(r)) {
      kept++;
      last = r.id;
      if (was >= 0 && kept === was + 1) return r.id;
    }
  }
  return was >= 0 ? last : undefined;
}

/**
 * The view's rows with actions not yet read back from the cache applied in memory: changed rows
 * show their new state, rows that no longer match leave. (The order is the cache's until it
 * catches up a moment later.)
 */
export function withInFlight(rows: CachedConversation[], inFlight: readonly InFlight[], v: ListView, meId: number): CachedConversation[] {
  if (!inFlight.length) return rows;
  // One pass over the rows (10,000 of them, on every key): only those an action names change. The
  // answer is one copy of the array, made at the first row that changes and compacted in place.
  // Pushed row by row, it made five times the garbage (21.5 against 4.1 MB in a heap profile of
  // fifteen triage rounds), and the young generation's collections (4-7 ms, traced) came sooner.
  const named = new Set<number>();
  for (const item of inFlight) for (const id of item.ids) named.add(id);
  let out: CachedConversation[] | undefined;
  let w = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    let row = r;
    let changed = false;
    if (named.has(r.id)) {
      for (const item of inFlight) {
        if (!item.ids.includes(r.id)) continue;
        const next = withItem(row, item);
        if (next) {
          row = next;
          changed = true;
        }
      }
    }
    if (!out) {
      if (!changed) continue;
      // The rows before this one are already in their places in the copy.
      out = rows.slice();
      w = i;
    }
    if (!changed || matchesView(row, v, meId)) out[w++] = row;
  }
  if (!out) return rows;
  out.length = w;
  return out;
}
