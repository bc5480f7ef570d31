// One conversation: history from the cache at once, then the newest page from the service (and
// any gap it leaves closed); older pages as the agent scrolls up. The record itself is refreshed
// too, so a conversation opened by number or from search shows even when it was never listed.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { Composer } from '../components/Composer';
import { MessageList } from '../components/MessageList';
import { SyncBanner } from '../components/SyncBanner';
import { saveConversations } from '../db/sync';
import type { FetchPage } from '../history/follow';
import { loadOlder, refreshLatest } from '../history/follow';
import { BridgeFailure, callOrThrow } from '../platform/call';
import { useSession } from '../platform/session';
import { useUi } from '../state/ui';
import { ContactPanel } from './ContactPanel';

/** Below this width the contact panel replaces the conversation instead of sitting beside it (styles.css). */
const NARROW_QUERY = '(max-width: 1099px)';

export function ConversationView(props: { conversationId: number }) {
  const { bridge, db } = useSession();
  const id = props.conversationId;
  const contactPanelOpen = useUi((s) => s.contactPanelOpen);
  const toggleContactPanel = useUi((s) => s.toggleContactPanel);
  const showPane = useUi((s) => s.showPane);
  const narrowPane = useUi((s) => s.narrowPane);
  const conversation = useLiveQuery(() => db.conversations.get(id), [db, id]);
  const messages = useLiveQuery(() => db.messages.where('[conversation_id+id]').between([id, 0], [id, Infinity]).toArray(), [db, id]);
  const cursor = useLiveQuery(() => db.cursors.get(id), [db, id]);

  const fetchPage: FetchPage = useMemo(
    () => async (q) => (await callOrThrow(bridge, 'messages.list', { conversationId: id, ...q })).payload,
    [bridge, id],
  );
  const record = useQuery({
    queryKey: ['conversation', db.name, id],
    queryFn: async () => {
      const askedAt = Date.now();
      await saveConversations(db, [await callOrThrow(bridge, 'conversations.get', { conversationId: id })], askedAt);
      return true;
    },
  });
  const latest = useQuery({ queryKey: ['messages', db.name, id, 'latest'], queryFn: () => refreshLatest(db, id, fetchPage).then(() => true) });
  const older = useMutation({ mutationFn: () => loadOlder(db, id, fetchPage) });

  const missing = record.error instanceof BridgeFailure && record.error.error.kind === 'not_found';
  const name = conversation?.contactName ?? `Conversation #${id}`;
  return (
    <>
      <section className="conversation" aria-label={`Conversation with ${name}`}>
        <header className="pane-header">
          <button type="button" className="back" onClick={() => showPane('list')} aria-label="Back to the list">
            ←
          </button>
          <h2>{name}</h2>
          <span className="muted">#{id}</span>
          {conversation && <span className={`chip status-${conversation.status}`}>{conversation.status}</span>}
          <button
            type="button"
            className="link-button contact-toggle"
            aria-expanded={contactPanelOpen || narrowPane === 'contact'}
            onClick={() => {
              // Narrow windows show one pane at a time; wide ones show the panel beside.
              if (window.matchMedia(NARROW_QUERY).matches) showPane(narrowPane === 'contact' ? 'conversation' : 'contact');
              else toggleContactPanel();
            }}
          >
            Contact
          </button>
        </header>
        {missing ? (
          <p className="empty" role="alert">
            Conversation #{id} does not exist, or you cannot see it.
          </p>
        ) : (
          <>
            <SyncBanner error={latest.error ?? older.error ?? record.error} fetching={latest.isFetching} />
            {messages && messages.length === 0 && !latest.isFetching && <p className="empty">No messages yet.</p>}
            <MessageList
              messages={messages ?? []}
              gaps={cursor?.gaps ?? []}
              hasOlder={cursor?.hasOlder ?? true}
              loadingOlder={older.isPending}
              onLoadOlder={() => !older.isPending && older.mutate()}
            />
            <Composer key={id} conversationId={id} />
          </>
        )}
      </section>
      {conversation && (contactPanelOpen || narrowPane === 'contact') && <ContactPanel conversation={conversation} />}
    </>
  );
}
