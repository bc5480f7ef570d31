// One conversation, laid out: header, history, typing line, composer, and the contact beside it.
// What it shows and does comes from `useConversation` (conversation/use-conversation.ts).
import { isLocalMessage } from '../model/intent';
import { Composer } from '../components/Composer';
import type { HeaderActions } from '../components/ConversationHeader';
import { ConversationHeader } from '../components/ConversationHeader';
import { MessageList } from '../components/MessageList';
import { SyncBanner } from '../components/SyncBanner';
import { TypingIndicator } from '../components/TypingIndicator';
import { useConversation } from '../conversation/use-conversation';
import { useUi } from '../state/ui';
import { ContactPanel } from './ContactPanel';
import { visibleControls } from '../../../shared/text/untrusted-text';

export function ConversationView(props: { conversationId: number }) {
  const id = props.conversationId;
  const contactPanelOpen = useUi((s) => s.contactPanelOpen);
  const toggleContact = useUi((s) => s.toggleContact);
  const showPane = useUi((s) => s.showPane);
  const narrowPane = useUi((s) => s.narrowPane);
  const notify = useUi((s) => s.notify);
  const openPicker = useUi((s) => s.openPicker);
  const c = useConversation(id, notify);
  const { conversation, shown } = c;
  const name = conversation?.contactName ?? `Conversation #${id}`;
  const messageActions = { unsent: c.unsent, onRetry: c.retry, onDiscard: c.discard };
  const headerActions: HeaderActions = {
    back: () => showPane('list'),
    setStatus: c.setStatus,
    markUnread: () => {
      c.markUnread();
      const ui = useUi.getState();
      ui.select(undefined);
      ui.setActive(id);
    },
    open: (kind) => openPicker(kind, [id]),
    toggleContact,
  };
  return (
    <>
      <section className="conversation" aria-label={`Conversation with ${visibleControls(name)}`}>
        <ConversationHeader id={id} name={name} conversation={conversation} record={c.record} contactExpanded={contactPanelOpen || narrowPane === 'contact'} actions={headerActions} meId={c.meId} />
        {c.missing ? (
          <>
            <p className="empty" role="alert">
              Conversation #{id} does not exist, or you cannot see it.
            </p>
            {/* What the agent wrote here and could not send stays reachable (retry, or discard). */}
            {shown.some(isLocalMessage) && (
              <MessageList messages={shown.filter(isLocalMessage)} gaps={[]} hasOlder={false} loadingOlder={false} onLoadOlder={() => undefined} {...messageActions} />
            )}
          </>
        ) : (
          <>
            <SyncBanner error={c.syncError} offline={c.offline} />
            {c.notCached ? (
              <p className="empty" role="note" data-testid="history-not-cached">
                The messages of this conversation are not on this computer yet. They load when the service can be reached.
              </p>
            ) : (
              c.messages && c.messages.length === 0 && !c.fetchingLatest && <p className="empty">No messages yet.</p>
            )}
            <MessageList
              messages={shown}
              {...messageActions}
              gaps={c.gaps}
              hasOlder={c.older.exist}
              loadingOlder={c.older.loading}
              olderUnavailable={c.older.unavailable}
              onLoadOlder={c.older.load}
              onFillGap={c.fillGap}
              newFrom={c.newFrom}
              newFromPending={c.newFromPending}
              target={c.target}
            />
            <TypingIndicator conversationId={id} />
            <Composer key={id} conversationId={id} />
          </>
        )}
      </section>
      {/* Its place is kept while the cache's first answer is on its way: the messages are laid out
          in the width they keep, not wider and again narrower a moment later when the contact
          comes with them (issue 14: that re-measured the thread in every switch). */}
      {(contactPanelOpen || narrowPane === 'contact') && (conversation ? <ContactPanel conversation={conversation} /> : c.reading && <aside className="contact-panel" aria-hidden="true" />)}
    </>
  );
}
