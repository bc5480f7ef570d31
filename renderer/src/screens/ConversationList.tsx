// The conversation list: rendered from the cache at once (the view's predicate and order applied
// to cached rows), then revalidated page by page, with the service's tab counts. Virtualized, so
// 10,000 conversations scroll smoothly; the keyboard cursor (j/k) is the listbox's active option.
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useRef } from 'react';
import type { BulkBarActions } from '../components/BulkBar';
import { settledBefore, useInFlight } from '../actions/in-flight';
import { BulkBar } from '../components/BulkBar';
import { ConversationRow, ROW_HEIGHT } from '../components/ConversationRow';
import { FilterBar } from '../components/FilterBar';
import { ListTabs } from '../components/ListTabs';
import { SyncBanner } from '../components/SyncBanner';
import { adjustedCounts } from '../conversations/counts';
import { refreshCounts, revalidateView } from '../conversations/revalidate';
import { countsKey, readFirstRows, readView, statusOptions, tabOptions, viewKey, withInFlight } from '../conversations/view';
import { useDirectory } from '../directory/use-directory';
import { useLiveRevision } from '../live/revision';
import { useSession } from '../platform/session';
import { useUi } from '../state/ui';

/** Live events come in bursts (a new conversation brings three): one count request after them. */
const LIVE_COUNTS_DELAY_MS = 400;
/** Rows read first, ahead of the whole view: more than a tall window shows, plus overscan. */
const FIRST_ROWS = 60;

export function ConversationList(props: { orderRef: { current: readonly number[] }; bulkActions?: BulkBarActions }) {
  const { bridge, db, session, client } = useSession();
  const meId = session.user.id;
  const view = useUi((s) => s.view);
  const setView = useUi((s) => s.setView);
  const activeId = useUi((s) => s.activeConversationId);
  const openId = useUi((s) => s.selectedConversationId);
  const select = useUi((s) => s.select);
  const bulk = useUi((s) => s.bulkSelection);
  const directory = useDirectory();

  // The result carries its view's key, so rows of the previous view are never shown for this one.
  const key = viewKey(view);
  // Until the whole view is read, its first screenful (read in index order, far sooner) is shown.
  // The whole view is asked for only once that is in: IndexedDB serves one request at a time, and
  // a first screenful queued behind 10,000 rows would arrive with them.
  const completeKey = useRef<string | undefined>(undefined);
  const first = useLiveQuery(async () => (completeKey.current === key ? undefined : { key, rows: await readFirstRows(db, view, meId, FIRST_ROWS) }), [db, view, meId, key]);
  const firstIn = first?.key === key || completeKey.current === key;
  const result = useLiveQuery(async () => (firstIn ? { key, startedAt: performance.now(), rows: await readView(db, view, meId) } : undefined), [db, view, meId, key, firstIn]);
  const complete = result?.key === key;
  useEffect(() => {
    completeKey.current = complete ? key : undefined;
  }, [complete, key]);
  const shown = complete ? result.rows : first?.key === key ? first.rows : undefined;
  // Actions the cache has not handed back yet apply here in memory, so the list answers at once.
  const inFlight = useInFlight((s) => s.items);
  const rows = useMemo(() => (shown ? withInFlight(shown, inFlight, view, meId) : undefined), [shown, inFlight, view, meId]);
  useEffect(() => {
    if (result) settledBefore(result.startedAt);
  }, [result]);
  // The service's counts, with the agent's changes it has not counted yet.
  const counts = useLiveQuery(async () => {
    const held = await db.viewCounts.get(countsKey(view));
    if (!held) return undefined;
    const entries = (await db.outbox.toArray()).filter((e) => e.kind !== 'message');
    const ids = [...new Set(entries.map((e) => e.conversationId))];
    const rows = new Map((await db.conversations.bulkGet(ids)).filter((r) => r !== undefined).map((r) => [r.id, r]));
    return { counts: adjustedCounts(held.counts, held.fetchedAt, entries, rows, view, meId) };
  }, [db, view, meId]);
  const revalidate = useQuery({
    queryKey: ['conversations', db.name, key],
    queryFn: () => revalidateView(bridge, db, view, meId, undefined, client.conversations.refresh),
  });

  useEffect(() => {
    props.orderRef.current = rows?.map((r) => r.id) ?? [];
  }, [rows, props.orderRef]);

  // The tab counts come from the service: once the agent's changes have landed, ask again.
  const landed = useLiveQuery(() => db.outbox.where('state').equals('confirmed').filter((e) => e.kind !== 'read' && e.kind !== 'unread').count(), [db]);
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
  const previous = useRef<readonly number[]>([]);
  useEffect(() => {
    // A first screenful says nothing about which rows left the view.
    if (!rows || !complete) return;
    const ids = rows.map((r) => r.id);
    const ui = useUi.getState();
    const cursor = ui.activeConversationId;
    if (cursor !== undefined && !ids.includes(cursor)) {
      const was = previous.current.indexOf(cursor);
      if (was >= 0 && ids.length) ui.setActive(ids[Math.min(was, ids.length - 1)]);
    }
    if (ui.bulkSelection.some((id) => !ids.includes(id))) ui.setBulk(ui.bulkSelection.filter((id) => ids.includes(id)));
    previous.current = ids;
  }, [rows, complete]);

  const scroller = useRef<HTMLDivElement>(null);
  const count = rows?.length ?? 0;
  // We do not use the React Compiler; the virtualizer is meant to be read during render.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    getItemKey: (i) => rows?.[i]?.id ?? i,
  });

  // Keep the keyboard cursor in sight.
  const activeIndex = activeId === undefined || !rows ? -1 : rows.findIndex((r) => r.id === activeId);
  useEffect(() => {
    if (activeIndex >= 0) virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, virtualizer]);

  const tabLabel = tabOptions.find((t) => t.value === view.tab)!.label;
  const statusLabel = statusOptions.find((s) => s.value === view.status)!.label;
  const listLabel = `${tabLabel} conversations, ${statusLabel.toLowerCase()}`;

  return (
    <nav className="conversation-list" aria-label="Conversations">
      <ListTabs tab={view.tab} counts={counts?.counts} onChange={(tab) => setView({ tab })} />
      <FilterBar view={view} directory={directory} onChange={setView} />
      <SyncBanner error={revalidate.error} fetching={revalidate.isFetching} />
      <p className="list-status" role="status">
        {rows && complete ? `${count} ${count === 1 ? 'conversation' : 'conversations'}` : 'Loading…'}
        {revalidate.isFetching ? ' · syncing' : ''}
      </p>
      {rows && complete && count === 0 && !revalidate.isFetching && <p className="empty">Nothing here. Try another tab, status or filter.</p>}
      {bulk.length > 0 && props.bulkActions && <BulkBar count={bulk.length} actions={props.bulkActions} />}
      <div
        ref={scroller}
        id="conversation-listbox"
        role="listbox"
        aria-label={listLabel}
        aria-activedescendant={activeIndex >= 0 ? `conversation-row-${activeId}` : undefined}
        tabIndex={0}
        data-shortcut-scope="list"
        data-virtual-scroller=""
        className="list-scroller"
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }} role="presentation">
          {virtualizer.getVirtualItems().map((item) => {
            const c = rows![item.index]!;
            return (
              <ConversationRow
                key={c.id}
                c={c}
                directory={directory}
                showStatus={view.status === 'all'}
                active={c.id === activeId}
                open={c.id === openId}
                checked={bulk.includes(c.id)}
                selecting={bulk.length > 0}
                index={item.index}
                count={count}
                start={item.start}
                onOpen={select}
              />
            );
          })}
        </div>
      </div>
    </nav>
  );
}
