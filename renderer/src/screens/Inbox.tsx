// The signed-in inbox: the conversation list (or search results) beside the open conversation and
// its contact. Keyboard-first: one command registry drives the shortcuts, the palette (Ctrl/Cmd+K)
// and the shortcuts sheet (?); triage pickers and the bulk bar act through the write path, whose
// sender runs while the inbox is mounted. On narrow windows (200% zoom) one pane shows at a time.
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ConflictBar } from '../components/ConflictBar';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { WaitingThresholdsProvider } from '../waiting/use-waiting';
import { useNotifySettings } from '../notifications/use-settings';
import { createInboxCommands } from '../commands/inbox-commands';
import { useShortcuts } from '../commands/use-shortcuts';
import { DirectoryContext, useDirectory, useDirectorySync } from '../directory/use-directory';
import { useLiveStatus } from '../live/live-status';
import { useBridgeConnection } from '../platform/connection';
import { warmFontFallback } from '../platform/font-fallback';
import { whenIdle } from '../platform/idle';
import { useConversationRoute } from '../platform/route';
import { useLiveUpdates } from '../live/use-live-updates';
import { useClientRunning, useSession } from '../platform/session';
import type { SearchHit } from '../search/merge';
import type { PickerKind } from '../state/ui';
import { useUi } from '../state/ui';
import { ListOrder } from '../conversations/list-order';
import { ConversationList } from './ConversationList';
import { SearchPane } from './SearchResults';
import { ConversationView, preloadScreens } from './lazy-screens';
import { InboxOverlays } from './InboxOverlays';
import { useInboxContext } from './inbox-context';
import { useReadAhead } from '../conversation/use-read-ahead';
import { InboxHeader } from './InboxHeader';
import { TriageStateSync, useTriageStateRefs } from './triage-state';

export function Inbox() {
  const { session, bridge, db, client } = useSession();
  const selected = useUi((s) => s.selectedConversationId);
  const setOverlay = useUi((s) => s.setOverlay);
  const narrowPane = useUi((s) => s.narrowPane);
  // Whether a search is typed, not what: each keystroke re-renders the results pane alone.
  const searching = useUi((s) => s.searchQuery.trim() !== '');
  const notice = useUi((s) => s.notice);
  const account = session.accounts.find((a) => a.id === session.accountId);
  useDirectorySync();
  const directory = useDirectory();
  // The session's background work (outbox, live events, catch-up) runs while the inbox is up.
  useClientRunning();
  useLiveUpdates();
  useConversationRoute();
  useReadAhead();
  const liveStatus = useLiveStatus(bridge);
  const link = useBridgeConnection(bridge);
  // A notice stays long enough to read, then goes (the live region has announced it).
  useEffect(() => {
    if (!notice) return;
    const t = setTimeout(() => useUi.getState().clearNotice(), 6_000);
    return () => clearTimeout(t);
  }, [notice]);

  // Build the local search index once the first screen is up, in idle time; the screens the first
  // paint does not need (lazy-screens.ts) are imported then too, and the fonts of the
  // scripts a message may hold are found (platform/font-fallback.ts).
  useEffect(() => {
    let stopWarming: (() => void) | undefined;
    const start = () => {
      void preloadScreens().catch(() => undefined);
      void client.search.start();
      stopWarming = warmFontFallback(document);
    };
    const cancel = whenIdle(start, { within: 5_000, otherwiseAfter: 1_000 });
    return () => {
      cancel();
      stopWarming?.();
    };
  }, [client]);
  const [order] = useState(() => new ListOrder());
  const registry = useMemo(() => createInboxCommands(), []);
  const directoryRef = useRef(directory);
  useEffect(() => {
    directoryRef.current = directory;
  }, [directory]);

  const triageRefs = useTriageStateRefs();
  const { rowsRef, unsentRef, conflictRef } = triageRefs;
  const [notifySettings, updateNotify] = useNotifySettings();
  const notifyRef = useRef<{ settings: typeof notifySettings; update: typeof updateNotify }>(undefined);
  useEffect(() => {
    notifyRef.current = { settings: notifySettings, update: updateNotify };
  }, [notifySettings, updateNotify]);
  const context = useInboxContext({ actions: client.actions.context, order, directoryRef, unsentRef, rowsRef, conflictRef, notifyRef });
  const bulkActions = useMemo(
    () => ({
      resolve: () => {
        const ctx = context();
        ctx.triage.setStatus(ctx.triage.targets(), 'resolved');
      },
      markUnread: () => {
        const ctx = context();
        ctx.triage.markUnread(ctx.triage.targets());
      },
      open: (kind: PickerKind) => {
        const ctx = context();
        ctx.triage.openPicker(kind, ctx.triage.targets());
      },
      clear: () => context().triage.setBulk([]),
    }),
    [context],
  );
  useShortcuts(registry, context);
  const openConversation = useCallback((id: number) => context().open(id), [context]);
  const resolveConflict = useCallback((seq: number, choice: 'apply' | 'drop') => context().triage.resolveConflict(seq, choice), [context]);

  const openHit = async (hit: SearchHit) => {
    if (hit.messageId && hit.conversationId) {
      // A message: its conversation, scrolled to it and highlighted.
      const ui = useUi.getState();
      ui.setSearchQuery('');
      ui.openAt(hit.conversationId, hit.messageId);
      return;
    }
    let id = hit.conversationId;
    if (!id && hit.contactId) {
      const latest = (await db.conversations.where('contactId').equals(hit.contactId).sortBy('lastActivityAt')).at(-1);
      if (latest) id = latest.id;
      else {
        const r = await bridge.call('contacts.conversations', { contactId: hit.contactId });
        id = r.ok ? (r.value.payload[0]?.id ?? 0) : 0;
      }
    }
    if (id) context().open(id);
    else useUi.getState().notify('No conversation with this contact is available.');
  };

  return (
    <WaitingThresholdsProvider>
    <DirectoryContext.Provider value={directory}>
    <div className="inbox">
      <TriageStateSync refs={triageRefs} />
      <InboxHeader accountName={account?.name} userName={session.user.name} liveStatus={liveStatus} link={link} setOverlay={setOverlay} />
      <p className="visually-hidden" role="status" aria-live="polite" key={notice?.n}>
        {notice?.text}
      </p>
      {notice && (
        <p className="notice" aria-hidden="true" key={`v${notice.n}`}>
          {notice.text}
        </p>
      )}
      <ConflictBar onResolve={resolveConflict} onOpen={openConversation} />
      <main className="panes" data-pane={selected === undefined ? 'list' : narrowPane}>
        {/* The list stays mounted (hidden) under a search: back from it, the list is as it was, with no
            read of the whole view again (that read landed in the next search's first keystrokes). */}
        <ErrorBoundary what="the conversation list">
          <ConversationList order={order} bulkActions={bulkActions} hidden={searching} />
        </ErrorBoundary>
        {searching && (
          <ErrorBoundary what="the search results">
            <SearchPane onOpen={(h) => void openHit(h)} />
          </ErrorBoundary>
        )}
        {selected === undefined ? (
          <section className="conversation placeholder" aria-label="No conversation open">
            <p>Select a conversation (j / k to move, Enter to open).</p>
          </section>
        ) : (
          <ErrorBoundary what="this conversation" resetKey={selected}>
            <Suspense fallback={<section className="conversation placeholder" aria-label="Loading the conversation" aria-busy="true" />}>
              <ConversationView key={selected} conversationId={selected} />
            </Suspense>
          </ErrorBoundary>
        )}
      </main>
      {/* The palette, the sheets, the toasts and the pickers: opening or closing one renders them, not the inbox. */}
      <InboxOverlays registry={registry} context={context} directory={directory} onOpen={openConversation} />
    </div>
    </DirectoryContext.Provider>
    </WaitingThresholdsProvider>
  );
}
