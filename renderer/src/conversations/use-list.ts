// A list view's data and upkeep, for the screen that lays it out (screens/ConversationList): the
// rows from the cache (the first screenful first, then the whole view, with actions not yet read
// back applied in memory), the service's revalidation and tab counts (with the agent's uncounted
// changes), and the keyboard cursor and selection following rows that leave the view.
import { useQuery } from '@tanstack/react-query';
import Dexie from 'dexie';
import type { ObservabilitySet } from 'dexie';
import { useOutboxSummary } from '../client/use-outbox-summary';
import { tableChange } from '../db/changed-keys';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useLiveRevision } from '../live/revision';
import { useSession } from '../platform/session';
import { useUi } from '../state/ui';
import type { ListOrder } from './list-order';
import { adjustedCounts } from './counts';
import { refreshCounts, revalidateView } from './revalidate';
import type { ListView } from './view';
import { stableOrder } from './stable-order';
import { countsKey, cursorAfter, patchView, readFirstRows, readView, viewKey, withInFlight } from './view';
import { afterNextFrame } from '../platform/frames';
import { useFirstRowsShown, useLiveQueryAfterEarly, useLiveQueryAfterFirstRows } from '../db/live-query-after-first-rows';
import { earlyRows, earlyRowsComing, FIRST_ROWS } from './early-rows';
import type { InboxDb } from '../db/schema';
import type { CachedConversation } from '../db/schema';

/** Live events come in bursts (a new conversation brings three): one count request after them. */
const LIVE_COUNTS_DELAY_MS = 400;

type WholeView = { key: string; startedAt: number; rows: CachedConversation[] };

/**
 * The whole view, read once, then kept current from each change to the conversations table: the
 * rows a write names are read again and put in place (`patchView`), so a triage key costs a read of
 * one row rather than of the whole view (10,000 rows: tens of milliseconds of the main thread taking
 * them in, in one task, which the next key waited behind). A change that names no rows (a range
 * deleted, the table cleared) or many reads the whole view again. One read at a time; a change during
 * a read asks for one more. Not a live query: Dexie's live queries note every key they read (10,000
 * here) to know when to run again.
 */
function useWholeView(db: InboxDb, view: ListView, meId: number, key: string, enabled: boolean): WholeView | undefined {
  const [result, setResult] = useState<WholeView | undefined>(undefined);
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let reading = false;
    let again = false;
    // What the next read must do: everything, or only the rows named since the last one.
    let whole = true;
    const named = new Set<number>();
    let held: CachedConversation[] | undefined;
    const read = async () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          const startedAt = performance.now();
          let rows: CachedConversation[];
          if (whole || !held) {
            whole = false;
            named.clear();
            rows = await readView(db, view, meId);
          } else {
            const ids = [...named];
            named.clear();
            rows = patchView(held, ids, await db.conversations.bulkGet(ids), view, meId);
          }
          held = rows;
          if (!stopped) setResult({ key, startedAt, rows });
        } while (again && !stopped);
      } catch {
        // The database closed (signed out): nothing more to show.
      } finally {
        reading = false;
      }
    };
    const onChange = (parts: ObservabilitySet) => {
      const ids = tableChange(parts, db.name, 'conversations');
      if (ids?.length === 0) return;
      if (ids) for (const id of ids) named.add(id);
      else whole = true;
      void read();
    };
    Dexie.on.storagemutated.subscribe(onChange);
    void read();
    return () => {
      stopped = true;
      Dexie.on.storagemutated.unsubscribe(onChange);
    };
  }, [db, view, meId, key, enabled]);
  return result;
}

export function useListView(view: ListView, order: ListOrder) {
  const { bridge, db, session, client } = useSession();
  const meId = session.user.id;
  // The result carries its view's key, so rows of the previous view are never shown for this one.
  const key = viewKey(view);
  // Until the whole view is read, its first screenful (read in index order, far sooner) is shown.
  // The whole view is asked for only once that is in: IndexedDB serves one request at a time, and
  // a first screenful queued behind 10,000 rows would arrive with them.
  const completeKey = useRef<string | undefined>(undefined);
  // On a cold open they may have been read already, while the page asked main for the session.
  const early = earlyRows(db.name, meId, key);
  // Those are shown as they are until they are on screen; then this read follows them.
  const firstRowsShown = useFirstRowsShown();
  const own = useLiveQueryAfterEarly(
    early && { key, rows: early },
    async () => (completeKey.current === key ? undefined : { key, rows: await readFirstRows(db, view, meId, FIRST_ROWS) }),
    [db, view, meId, key],
  );
  // Still on their way at the first render: shown when they come, until the list's own read answers.
  const [coming] = useState(() => ({ key, reading: early ? undefined : earlyRowsComing(db.name, meId, key) }));
  const [arrived, setArrived] = useState<{ key: string; rows: CachedConversation[] } | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void coming.reading?.then((rows) => live && rows && setArrived({ key: coming.key, rows }));
    return () => void (live = false);
  }, [coming]);
  const first = own ?? arrived;
  // Once the whole view is in, the first screenful is no longer read (its query answers undefined).
  const [wholeKey, setWholeKey] = useState<string | undefined>(undefined);
  const firstIn = first?.key === key || wholeKey === key;
  // With a first screenful to show, the whole view is asked for once it is on screen: its read
  // (10,000 rows) is begun and taken in outside the task and frame that show the first rows.
  const firstRows = first?.key === key ? first.rows : undefined;
  const [painted, setPainted] = useState(false);
  // And a frame later still: the reads held for the first rows (client/first-rows-gate.ts: tab
  // counts, the header's words, the conflict bar) begin as those rows' frame is done and are asked
  // first, so IndexedDB answers them in milliseconds, not behind 10,000 rows (about 300 ms).
  const [wholeDue, setWholeDue] = useState(false);
  const result = useWholeView(db, view, meId, key, firstIn && (wholeDue || !firstRows?.length || wholeKey === key));
  const complete = result?.key === key;
  if (complete && wholeKey !== key) setWholeKey(key);
  useEffect(() => {
    completeKey.current = complete ? key : undefined;
  }, [complete, key]);
  const shown = complete ? result.rows : first?.key === key ? first.rows : undefined;
  const hasRows = Boolean(shown?.length);
  useEffect(() => (painted || !hasRows ? undefined : afterNextFrame(() => setPainted(true))), [painted, hasRows]);
  useEffect(() => (!painted || wholeDue ? undefined : afterNextFrame(() => setWholeDue(true))), [painted, wholeDue]);
  // The session's reads held for the first rows (client/first-rows-gate.ts) begin once they are on screen, or known to be none.
  useEffect(() => {
    if (painted || (firstIn && !hasRows)) client.firstRows.open();
  }, [painted, firstIn, hasRows, client]);
  // Actions the cache has not handed back yet apply here in memory, so the list answers at once.
  const inFlight = useSyncExternalStore(client.inFlight.subscribe, client.inFlight.items);
  const sorted = useMemo(() => (shown ? withInFlight(shown, inFlight, view, meId) : undefined), [shown, inFlight, view, meId]);
  // The rows the agent is on hold their places (conversations/stable-order.ts); the order on
  // screen is remembered per view, so another tab, filter or sort starts from its own sort.
  const cursorId = useUi((s) => s.activeConversationId);
  const openId = useUi((s) => s.selectedConversationId);
  // The order on screen, remembered during render with what it was worked out from: the render
  // that remembers it finds it already worked out (the same order) instead of doing it again over
  // the whole view (10,000 rows per triage key).
  const pinned = `${cursorId},${openId}`;
  const [onScreen, setOnScreen] = useState<{ key: string; rows: readonly CachedConversation[]; from?: CachedConversation[]; pinned?: string }>({ key, rows: [] });
  const rows = useMemo(() => {
    if (!sorted) return undefined;
    if (onScreen.key === key && onScreen.from === sorted && onScreen.pinned === pinned) return onScreen.rows;
    // The same rows, in the sort's own order on screen: other rows under the agent (opening one,
    // moving the cursor) change nothing, and the pass over the whole view is not made (2-5 ms of
    // the click that opens a conversation).
    if (onScreen.key === key && onScreen.from === sorted && onScreen.rows === sorted) return sorted;
    return stableOrder(sorted, onScreen.key === key ? onScreen.rows : [], [cursorId, openId]);
  }, [sorted, onScreen, key, pinned, cursorId, openId]);
  if (rows && sorted && !(onScreen.key === key && onScreen.rows === rows)) setOnScreen({ key, rows, from: sorted, pinned });
  useEffect(() => {
    if (result) client.inFlight.settledBefore(result.startedAt);
  }, [result, client]);
  // The service's counts, with the agent's changes it has not counted yet (the outbox and its
  // conversations' rows kept in memory: db/outbox-summary.ts).
  const held = useLiveQueryAfterFirstRows(() => db.viewCounts.get(countsKey(view)), [db, view]);
  const outbox = useOutboxSummary();
  const counts = useMemo(() => {
    if (!held || !outbox) return undefined;
    const entries = outbox.entries.filter((e) => e.kind !== 'message');
    return { counts: adjustedCounts(held.counts, held.fetchedAt, entries, outbox.rows, view, meId) };
  }, [held, outbox, view, meId]);
  const revalidate = useQuery({
    queryKey: ['conversations', db.name, key],
    queryFn: () => revalidateView(bridge, db, view, meId, undefined, client.conversations.refresh),
    // Asked once the first rows are on screen: its request and answer are not that frame's work.
    enabled: firstRowsShown,
  });

  useEffect(() => order.show(rows ?? []), [rows, order]);

  // The tab counts come from the service: once the agent's changes have landed, ask again.
  const landed = useLiveQueryAfterFirstRows(() => db.outbox.where('state').equals('confirmed').filter((e) => e.kind !== 'read' && e.kind !== 'unread').count(), [db]);
  useEffect(() => {
    if (landed) void refreshCounts(bridge, db, view);
  }, [landed, bridge, db, view]);

  // Live changes move conversations between tabs: ask for the counts again, once per burst.
  const liveRevision = useLiveRevision((s) => s.n);
  useEffect(() => {
    if (!liveRevision) return;
    const t = setTimeout(() => void refreshCounts(bridge, db, view), LIVE_COUNTS_DELAY_MS);
    return () => clearTimeout(t);
  }, [liveRevision, bridge, db, view]);

  // A row that leaves the view (resolved while viewing Open) takes the cursor's place with it:
  // the cursor moves to the row that now sits where it was. Picks of rows gone from the view go too.
  // Scans of the rows, not an array of their ids per change (a triage key, 10,000 rows), and a set of
  // them only while some are picked (a check of each pick against the whole view was 10,000² steps
  // after "select all").
  const previous = useRef<readonly CachedConversation[]>([]);
  // The agent's own action taking the cursor's row out (every resolve and snooze key) moves the
  // cursor as the action begins, so the row leaves and the cursor moves in one render. Left to the
  // effect below, the cursor moved after the row had left: a second render of the list and a
  // second commit, with their effects, in the key's task (bench/README.md, thirty-seventh stop).
  // The effect stays for rows that leave otherwise (live changes, another session's writes read back).
  useEffect(() => {
    if (!complete) return;
    let seen = client.inFlight.items().at(-1)?.n ?? 0;
    return client.inFlight.subscribe(() => {
      const item = client.inFlight.items().at(-1);
      if (!item || item.n <= seen) return;
      seen = item.n;
      const ui = useUi.getState();
      const next = ui.activeConversationId === undefined ? undefined : cursorAfter(previous.current, ui.activeConversationId, item, view, meId);
      if (next !== undefined) ui.setActive(next);
    });
  }, [client, complete, view, meId]);
  useEffect(() => {
    // A first screenful says nothing about which rows left the view.
    if (!rows || !complete) return;
    const ui = useUi.getState();
    const cursor = ui.activeConversationId;
    if (cursor !== undefined && !rows.some((r) => r.id === cursor)) {
      const was = previous.current.findIndex((r) => r.id === cursor);
      if (was >= 0 && rows.length) ui.setActive(rows[Math.min(was, rows.length - 1)]!.id);
    }
    if (ui.bulkSelection.length) {
      const inView = new Set<number>();
      for (const r of rows) inView.add(r.id);
      if (ui.bulkSelection.some((id) => !inView.has(id))) ui.setBulk(ui.bulkSelection.filter((id) => inView.has(id)));
    }
    previous.current = rows;
  }, [rows, complete]);

  return { rows, complete, counts, revalidate, painted };
}
