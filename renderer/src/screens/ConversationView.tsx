// One conversation: history from the cache at once, then the newest page from the service (and
// any gap it leaves closed); older pages as the agent scrolls up. The record itself is refreshed
// too, so a conversation opened by number or from search shows even when it was never listed.
// Opening it marks it read; messages still on their way show with their state from the outbox.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo } from 'react';
import { isLocalMessage } from '../actions/intents';
import { discardMessage, markRead, markUnread, retryMessage, setStatus } from '../actions/triage';
import { Composer } from '../components/Composer';
import type { HeaderActions } from '../components/ConversationHeader';
import { ConversationHeader } from '../components/ConversationHeader';
import { useUnsentMessages, withoutDelivered } from '../components/unsent';
import { MessageList } from '../components/MessageList';
import { SyncBanner } from '../components/SyncBanner';
import { TypingIndicator } from '../components/TypingIndicator';
import { saveConversations } from '../db/sync';
import type { FetchPage } from '../history/follow';
import { loadOlder, refreshLatest } from '../history/follow';
import { BridgeFailure, callOrThrow } from '../platform/call';
import { useSession } from '../platform/session';
import { useUi } from '../state/ui';
import { ContactPanel } from './ContactPanel';
import { visibleControls } from '../../../shared/text/untrusted-text';

/** Below this width the contact panel replaces the conversation instead of sitting beside it (styles.css). */
const NARROW_QUERY = '(max-width: 1099px)';

export function ConversationView(props: { conversationId: number }) {
  const { bridge, db, session } = useSession();
  const id = props.conversationId;
  const contactPanelOpen = useUi((s) => s.contactPanelOpen);
  const toggleContactPanel = useUi((s) => s.toggleContactPanel);
  const showPane = useUi((s) => s.showPane);
  const narrowPane = useUi((s) => s.narrowPane);
  const conversation = useLiveQuery(() => db.conversations.get(id), [db, id]);
  const messages = useLiveQuery(() => db.messages.where('[conversation_id+id]').between([id, 0], [id, Infinity]).toArray(), [db, id]);
  const cursor = useLiveQuery(() => db.cursors.get(id), [db, id]);
  const fullRecord = useLiveQuery(async () => (await db.conversationRecords.get(id))?.record, [db, id]);
  const me = useMemo(() => ({ id: session.user.id, name: session.user.name }), [session.user.id, session.user.name]);
  const notify = useUi((s) => s.notify);
  const openPicker = useUi((s) => s.openPicker);
  const unsent = useUnsentMessages(db, id);
  const shown = useMemo(() => withoutDelivered(messages ?? []), [messages]);

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

  // Opening a conversation reads it: unread badges clear at once, and the service hears it
  // through the outbox. While it stays open, whatever arrives unread is read too.
  const unread = (conversation?.unreadCount ?? 0) > 0;
  useEffect(() => {
    if (unread) void markRead({ db, me }, [id]).catch(() => undefined);
  }, [unread, db, me, id]);

  const missing = record.error instanceof BridgeFailure && record.error.error.kind === 'not_found';
  const name = conversation?.contactName ?? `Conversation #${id}`;
  const messageActions = {
    unsent,
    onRetry: (seq: number) => void retryMessage(db, seq),
    onDiscard: (seq: number) => {
      const maybeSent = [...unsent.values()].some((u) => u.seq === seq && u.uncertain);
      void discardMessage(db, seq).then((gone) => gone && notify(maybeSent ? 'Discarded here. If it had reached the service, it shows up when the conversation refreshes.' : 'Discarded. It was not sent.'));
    },
  };
  const headerActions: HeaderActions = {
    back: () => showPane('list'),
    setStatus: (status) => void setStatus({ db, me }, [id], status).catch(() => notify('That change could not be saved on this computer.')),
    markUnread: () => {
      void markUnread({ db, me }, [id]).catch(() => notify('That change could not be saved on this computer.'));
      const ui = useUi.getState();
      ui.select(undefined);
      ui.setActive(id);
    },
    open: (kind) => openPicker(kind, [id]),
    toggleContact: () => {
      // Narrow windows show one pane at a time; wide ones show the panel beside.
      if (window.matchMedia(NARROW_QUERY).matches) showPane(narrowPane === 'contact' ? 'conversation' : 'contact');
      else toggleContactPanel();
    },
  };
  return (
    <>
      <section className="conversation" aria-label={`Conversation with ${visibleControls(name)}`}>
        <ConversationHeader id={id} name={name} conversation={conversation} record={fullRecord} contactExpanded={contactPanelOpen || narrowPane === 'contact'} actions={headerActions} />
        {missing ? (
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
            <SyncBanner error={latest.error ?? older.error ?? record.error} fetching={latest.isFetching} />
            {messages && messages.length === 0 && !latest.isFetching && <p className="empty">No messages yet.</p>}
            <MessageList
              messages={shown}
              {...messageActions}
              gaps={cursor?.gaps ?? []}
              hasOlder={cursor?.hasOlder ?? true}
              loadingOlder={older.isPending}
              onLoadOlder={() => !older.isPending && older.mutate()}
            />
            <TypingIndicator conversationId={id} />
            <Composer key={id} conversationId={id} />
          </>
        )}
      </section>
      {conversation && (contactPanelOpen || narrowPane === 'contact') && <ContactPanel conversation={conversation} />}
    </>
  );
}
