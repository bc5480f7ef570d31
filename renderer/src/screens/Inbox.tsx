// The signed-in inbox: the conversation list (or search results) beside the open conversation and
// its contact. Keyboard-first: one command registry drives the shortcuts, the palette (Ctrl/Cmd+K)
// and the shortcuts sheet (?). On narrow windows (200% zoom) one pane shows at a time.
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { CommandPalette } from '../components/CommandPalette';
import { SessionSwitcher } from '../components/SessionSwitcher';
import { SearchField } from '../components/SearchField';
import { ShortcutsSheet } from '../components/ShortcutsSheet';
import type { InboxCommandContext } from '../commands/inbox-commands';
import { createInboxCommands } from '../commands/inbox-commands';
import { useShortcuts } from '../commands/use-shortcuts';
import { useDirectory, useDirectorySync } from '../directory/use-directory';
import { useSession } from '../platform/session';
import type { SearchHit } from '../search/merge';
import { searchIndexFor } from '../search/local-index';
import { useUi } from '../state/ui';
import { ConversationList } from './ConversationList';
import { ConversationView } from './ConversationView';
import { SearchPane } from './SearchResults';

export function Inbox() {
  const { session, bridge, db } = useSession();
  const selected = useUi((s) => s.selectedConversationId);
  const overlay = useUi((s) => s.overlay);
  const setOverlay = useUi((s) => s.setOverlay);
  const narrowPane = useUi((s) => s.narrowPane);
  const query = useUi((s) => s.searchQuery);
  const notice = useUi((s) => s.notice);
  const account = session.accounts.find((a) => a.id === session.accountId);
  useDirectorySync();
  const directory = useDirectory();
  // A notice stays long enough to read, then goes (the live region has announced it).
  useEffect(() => {
    if (!notice) return;
    const t = setTimeout(() => useUi.getState().clearNotice(), 6_000);
    return () => clearTimeout(t);
  }, [notice]);

  // Build the local search index once the first screen is up, in idle time.
  useEffect(() => {
    const start = () => void searchIndexFor(db).start();
    if (typeof requestIdleCallback !== 'function') {
      const t = setTimeout(start, 1_000);
      return () => clearTimeout(t);
    }
    const id = requestIdleCallback(start, { timeout: 5_000 });
    return () => cancelIdleCallback(id);
  }, [db]);
  const orderRef = useRef<readonly number[]>([]);
  const registry = useMemo(() => createInboxCommands(), []);
  const directoryRef = useRef(directory);
  useEffect(() => {
    directoryRef.current = directory;
  }, [directory]);

  const context = useCallback((): InboxCommandContext => {
    const ui = useUi.getState();
    return {
      view: ui.view,
      activeId: ui.activeConversationId,
      selectedId: ui.selectedConversationId,
      overlay: ui.overlay,
      orderedIds: () => orderRef.current,
      directory: directoryRef.current,
      setView: (patch) => ui.setView(patch),
      setActive: (id) => ui.setActive(id),
      open: (id) => {
        ui.setSearchQuery('');
        ui.select(id);
      },
      closeConversation: () => {
        ui.showPane('list');
        document.getElementById('conversation-listbox')?.focus();
      },
      focusComposer: (mode) => ui.focusComposer(mode),
      focusSearch: () => ui.focusSearch(),
      focusList: () => {
        ui.showPane('list');
        ui.setSearchQuery('');
        requestAnimationFrame(() => document.getElementById('conversation-listbox')?.focus());
      },
      setOverlay: (o) => ui.setOverlay(o),
      toggleContactPanel: () => ui.toggleContactPanel(),
    };
  }, []);
  useShortcuts(registry, context);

  const openHit = async (hit: SearchHit) => {
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
    <div className="inbox">
      <header className="app-header">
        <h1>{account?.name ?? 'Inbox'}</h1>
        <SearchField />
        <button type="button" className="link-button" onClick={() => setOverlay('palette')} aria-keyshortcuts="Control+K Meta+K">
          Commands
        </button>
        <button type="button" className="link-button" onClick={() => setOverlay('shortcuts')} aria-keyshortcuts="?">
          Shortcuts
        </button>
        <span className="muted user-name">{session.user.name}</span>
        <SessionSwitcher />
      </header>
      <p className="visually-hidden" role="status" aria-live="polite" key={notice?.n}>
        {notice?.text}
      </p>
      {notice && (
        <p className="notice" aria-hidden="true" key={`v${notice.n}`}>
          {notice.text}
        </p>
      )}
      <main className="panes" data-pane={selected === undefined ? 'list' : narrowPane}>
        {query.trim() ? <SearchPane query={query.trim()} onOpen={(h) => void openHit(h)} /> : <ConversationList orderRef={orderRef} />}
        {selected === undefined ? (
          <section className="conversation placeholder" aria-label="No conversation open">
            <p>Select a conversation (j / k to move, Enter to open).</p>
          </section>
        ) : (
          <ConversationView key={selected} conversationId={selected} />
        )}
      </main>
      {overlay === 'palette' && <CommandPalette registry={registry} context={context} onClose={() => setOverlay(undefined)} />}
      {overlay === 'shortcuts' && <ShortcutsSheet registry={registry} onClose={() => setOverlay(undefined)} />}
    </div>
  );
}
