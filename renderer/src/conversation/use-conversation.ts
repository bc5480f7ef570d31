// One conversation's data and behaviour for the screen that lays it out (screens/ConversationView):
// its row, record, history and cursor from the cache at once; the record and the newest page
// asked of the service (any gap it leaves closed), older pages on demand; opening it reads it;
// messages still on their way with their state from the outbox; what is not cached said plainly.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo } from 'react';
import type { ConversationStatus } from '../../../shared/api/records';
import { useUnsentMessages, withoutDelivered } from '../components/unsent';
import { BridgeFailure, isUnreachable } from '../platform/call';
import { useSession } from '../platform/session';

export function useConversation(id: number, notify: (text: string) => void) {
  const { db, client } = useSession();
  // null: not cached (undefined: still reading).
  const row = useLiveQuery(async () => (await db.conversations.get(id)) ?? null, [db, id]);
  const conversation = row ?? undefined;
  const messages = useLiveQuery(() => db.messages.where('[conversation_id+id]').between([id, 0], [id, Infinity]).toArray(), [db, id]);
  // null: no history of it is cached (undefined: still reading).
  const cursor = useLiveQuery(async () => (await db.cursors.get(id)) ?? null, [db, id]);
  const record = useLiveQuery(async () => (await db.conversationRecords.get(id))?.record, [db, id]);
  const unsent = useUnsentMessages(db, id);
  const shown = useMemo(() => withoutDelivered(messages ?? []), [messages]);

  const fresh = useQuery({
    queryKey: ['conversation', db.name, id],
    queryFn: async () => {
      const outcome = await client.conversations.refresh(id);
      if (outcome.kind === 'failed') throw new BridgeFailure(outcome.error);
      if (outcome.kind === 'gone') throw new BridgeFailure({ kind: 'not_found', message: 'Not found.' });
      return true;
    },
  });
  const latest = useQuery({ queryKey: ['messages', db.name, id, 'latest'], queryFn: () => client.history.refreshLatest(id).then(() => true) });
  const older = useMutation({ mutationFn: () => client.history.loadOlder(id) });

  // Opening a conversation reads it: unread badges clear at once, and the service hears it
  // through the outbox. While it stays open, whatever arrives unread is read too. One not cached
  // yet (opened by number, its record not read yet: offline, or a faulty network) is marked read
  // too: the agent opened it, and the record may not arrive while it is open.
  const unread = row === null || (row?.unreadCount ?? 0) > 0;
  useEffect(() => {
    if (unread) void client.actions.markRead([id]).catch(() => undefined);
  }, [unread, client, id]);
  // Its notification has done its job: it goes, and the next message alerts anew.
  useEffect(() => void client.notifications.opened(id), [client, id]);
  // Colleagues see who has it open, where the service offers that (main says it, or answers told: false).
  useEffect(() => {
    void client.bridge.call('app.setViewing', { conversationId: id });
    return () => void client.bridge.call('app.setViewing', { conversationId: null });
  }, [client, id]);

  const cannotSave = () => notify('That change could not be saved on this computer.');
  return {
    meId: client.me.id,
    conversation,
    record,
    messages,
    shown,
    cursor,
    unsent,
    /** The service says it does not exist, or the agent cannot see it. */
    missing: fresh.error instanceof BridgeFailure && fresh.error.error.kind === 'not_found',
    /** Nothing of its history is on this computer and the service cannot be reached (the queued replies still show). */
    notCached: cursor === null && isUnreachable(latest.error),
    syncError: latest.error ?? older.error ?? fresh.error,
    fetchingLatest: latest.isFetching,
    older: { loading: older.isPending, unavailable: isUnreachable(older.error), load: () => !older.isPending && older.mutate() },
    retry: (seq: number) => void client.actions.retryMessage(seq),
    discard: (seq: number) => {
      const maybeSent = [...unsent.values()].some((u) => u.seq === seq && u.uncertain);
      void client.actions.discardMessage(seq).then((gone) => gone && notify(maybeSent ? 'Discarded here. If it had reached the service, it shows up when the conversation refreshes.' : 'Discarded. It was not sent.'));
    },
    setStatus: (status: ConversationStatus) => void client.actions.setStatus([id], status).catch(cannotSave),
    markUnread: () => void client.actions.markUnread([id]).catch(cannotSave),
  };
}
