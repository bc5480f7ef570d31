// One conversation: history from the cache at once, then the newest page from the service;
// older pages follow the `before` cursor.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { saveMessages } from '../db/sync';
import { callOrThrow, useSession } from '../platform/session';
import { SyncBanner } from '../components/SyncBanner';
import { MessageBubble } from '../components/MessageBubble';

const PAGE = 20;

export function ConversationView(props: { conversationId: number }) {
  const { bridge, db } = useSession();
  const id = props.conversationId;
  const conversation = useLiveQuery(() => db.conversations.get(id), [db, id]);
  const messages = useLiveQuery(() => db.messages.where('[conversation_id+id]').between([id, 0], [id, Infinity]).toArray(), [db, id]);
  const cursor = useLiveQuery(() => db.cursors.get(id), [db, id]);

  const latest = useQuery({
    queryKey: ['messages', id, 'latest'],
    queryFn: async () => {
      const page = await callOrThrow(bridge, 'messages.list', { conversationId: id });
      await saveMessages(db, id, page.payload, { kind: 'latest', pageSize: PAGE });
      return page.payload.length;
    },
  });

  const older = useMutation({
    mutationFn: async () => {
      const before = cursor?.oldestId;
      if (!before || before === Infinity) return;
      const page = await callOrThrow(bridge, 'messages.list', { conversationId: id, before });
      await saveMessages(db, id, page.payload, { kind: 'before', pageSize: PAGE });
    },
  });

  return (
    <section className="conversation" aria-label={`Conversation with ${conversation?.contactName ?? ''}`}>
      <header className="pane-header">
        <h2>{conversation?.contactName ?? 'Conversation'}</h2>
        <span className="muted">#{id}</span>
      </header>
      <SyncBanner error={latest.error ?? older.error} fetching={latest.isFetching} />
      <div className="messages" role="log" aria-label="Messages" aria-live="polite">
        {cursor?.hasOlder !== false && messages && messages.length > 0 && (
          <button type="button" className="load-older" onClick={() => older.mutate()} disabled={older.isPending}>
            {older.isPending ? 'Loading…' : 'Load older messages'}
          </button>
        )}
        {messages?.map((m) => <MessageBubble key={m.id} message={m} />)}
        {messages && messages.length === 0 && !latest.isFetching && <p className="empty">No messages yet.</p>}
      </div>
    </section>
  );
}
