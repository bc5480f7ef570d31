// The conversation list, laid out: tabs with counts, filters, the status line and the rows,
// virtualized so 10,000 conversations scroll smoothly; the keyboard cursor (j/k) is the listbox's
// active option. Its rows and upkeep come from `useListView` (conversations/use-list.ts).
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import type { BulkBarActions } from '../components/BulkBar';
import { BulkBar } from '../components/BulkBar';
import { ConversationRow, ROW_HEIGHTS } from '../components/ConversationRow';
import { FilterBar } from '../components/FilterBar';
import { ListTabs } from '../components/ListTabs';
import { SyncBanner } from '../components/SyncBanner';
import { useReadInSight } from '../conversation/use-read-in-sight';
import { useReadIntent } from '../conversation/use-read-intent';
import type { ListOrder } from '../conversations/list-order';
import { useListView } from '../conversations/use-list';
import type { AssigneeTab } from '../conversations/view';
import { statusOptions, tabOptions } from '../conversations/view';
import { useDirectory } from '../directory/use-directory';
import { useSession } from '../platform/session';
import { observeRememberedRect, rememberedViewport } from '../state/viewports';
import { usePreferences } from '../state/preferences';
import { useUi } from '../state/ui';

/** The list's scroller measured, each size remembered for the next open (state/viewports.ts). */
const observeListRect = observeRememberedRect('list');

/** Memoised: the inbox renders again when a picker opens or closes; the list's own state moves it. */
export const ConversationList = memo(ConversationListView);

/** `hidden`: a search's results stand in its place; it keeps its rows and place meanwhile. */
function ConversationListView(props: { order: ListOrder; bulkActions?: BulkBarActions; hidden?: boolean }) {
  const view = useUi((s) => s.view);
  const setView = useUi((s) => s.setView);
  const activeId = useUi((s) => s.activeConversationId);
  const openId = useUi((s) => s.selectedConversationId);
  const select = useUi((s) => s.select);
  const { client } = useSession();
  // One handler for the tabs, which are memoized: the list renders at every triage key.
  const chooseTab = useCallback((tab: AssigneeTab) => setView({ tab }), [setView]);
  // A press on a row starts reading it: a click's button goes up 50-150 ms after it went down.
  const readAhead = useCallback((id: number) => client.conversations.readAhead.ahead(id), [client]);
  // And the row the pointer or the keyboard's highlight rests on, before it is opened.
  const intent = useReadIntent();
  const bulk = useUi((s) => s.bulkSelection);
  const directory = useDirectory();
  const density = usePreferences((s) => s.density);
  const rowHeight = ROW_HEIGHTS[density];

  const { rows, complete, counts, revalidate, painted } = useListView(view, props.order);

  const scroller = useRef<HTMLDivElement>(null);
  // The size the list had when last open: the first render has the rows in sight (state/viewports.ts).
  const [initialRect] = useState(() => rememberedViewport('list'));
  const count = rows?.length ?? 0;
  // Items keyed by index (the default), not by conversation: rows are never measured (fixed height),
  // so a key per row bought nothing, and a key function that changed with the rows made the
  // virtualizer lay out all 10,000 again on every triage key. React keys rows by id below.
  // We do not use the React Compiler; the virtualizer is meant to be read during render.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    initialRect,
    observeElementRect: observeListRect,
    // The first frame with rows lays out and paints only those in sight; the ten on either side
    // that keep scrolling smooth follow in the frame after (a cold open painted twice the rows).
    overscan: painted ? 10 : 0,
  });

  // Rows are not measured (their height is fixed): a new density needs the positions again.
  useEffect(() => {
    virtualizer.measure();
  }, [rowHeight, virtualizer]);

  // The rows in sight, read ahead while the page is idle (not the overscan's, out of sight).
  const range = virtualizer.range;
  useReadInSight(rows && range ? rows.slice(range.startIndex, range.endIndex + 1).map((r) => r.id) : []);

  // Keep the keyboard cursor in sight.
  const activeIndex = activeId === undefined || !rows ? -1 : rows.findIndex((r) => r.id === activeId);
  useEffect(() => {
    if (activeIndex < 0) return;
    // Already wholly in sight (from the virtualizer's own positions): asking it to scroll would read
    // the list's layout, forcing one in the middle of a triage key's frame.
    const item = virtualizer.measurementsCache[activeIndex];
    const top = virtualizer.scrollOffset ?? 0;
    const height = virtualizer.scrollRect?.height ?? 0;
    if (item && height > 0 && item.start >= top && item.end <= top + height) return;
    virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, virtualizer]);

  const tabLabel = tabOptions.find((t) => t.value === view.tab)!.label;
  const statusLabel = statusOptions.find((s) => s.value === view.status)!.label;
  const listLabel = `${tabLabel} conversations, ${statusLabel.toLowerCase()}`;

  return (
    <nav className="conversation-list" aria-label="Conversations" hidden={props.hidden}>
      <ListTabs tab={view.tab} counts={counts?.counts} onChange={chooseTab} />
      <FilterBar view={view} directory={directory} onChange={setView} />
      <SyncBanner error={revalidate.error} />
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
        data-density={density}
        className="list-scroller"
        onPointerOver={intent.onPointerOver}
        onPointerLeave={intent.onPointerLeave}
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
                height={rowHeight}
                onOpen={select}
                onPress={readAhead}
              />
            );
          })}
        </div>
      </div>
    </nav>
  );
}

