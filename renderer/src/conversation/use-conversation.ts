// One conversation's data and behaviour for the screen that lays it out (screens/ConversationView):
// its row, record, history and cursor from the cache at once; the record and the newest page
// asked of the service (any gap it leaves closed), older pages on demand; opening it reads it;
// messages still on their way with their state from the outbox; what is not cached said plainly.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { Conversation, ConversationStatus } from '../../../shared/api/records';
import { useUnsentMessages, withoutDelivered } from '../components/unsent';
import { useLiveRead } from '../db/live-read';
import { BridgeFailure, isUnreachable } from '../platform/call';
import { useSession } from '../platform/session';
import type { HistoryGap } from '../db/schema';
import { useUi } from '../state/ui';
import { conversationParts, keepSameRead, patchConversationRead, readConversation } from './conversation-read';
import { firstUnreadId, UNREAD_CAP } from './thread-items';

export function useConversation(id: number, notify: (text: string) => void) {
  const { db, client } = useSession();
  // Row, messages, cursor and record in one read, started by the event that opened it, or kept from
  // when it was last shown (read-ahead.ts).
  const read = useLiveRead(`${db.name}/${id}`, () => readConversation(db, id), keepSameRead, {
    // Read ahead and in memory: the view's first render shows it.
    inMemory: () => client.conversations.readAhead.peek(id),
    first: () => client.conversations.readAhead.take(id),
    covers: (shown) => conversationParts(db, id, shown),
    // A write to it read back alone (a reply, a message arriving), not the whole history again.
    patch: (shown, changes) => patchConversationRead(db, id, shown, changes),
    // Kept for a switch back (read-ahead.ts).
    onClose: (shown) => client.conversations.readAhead.keep(id, shown, conversationParts(db, id, shown)),
  });
  // null: not cached (undefined: still reading).
  const row = read?.row;
  const conversation = row ?? undefined;
  const messages = read?.messages;
  // null: no history of it is cached (undefined: still reading).
  const cursor = read?.cursor;
  // undefined: not cached, or still reading (`read` says which).
  const record = read?.record;
  // The first read took only the newest messages; the live read that follows brings the rest. Until
  // then nothing is decided for want of an older one (the separator, a search hit), and older pages
  // are not asked of the service.
  const olderHeld = read?.olderHeld ?? false;
  const unsent = useUnsentMessages(db, id);
  const shown = useMemo(() => withoutDelivered(messages ?? []), [messages]);

  // Each read's outcome is also the session's latest word on whether the service can be reached.
  const { reachability } = client.conversations;
  const fresh = useQuery({
    queryKey: ['conversation', db.name, id],
    queryFn: async () => {
      const outcome = await reachability.heard(
        client.conversations.refresh(id).then((o) => {
          if (o.kind === 'failed') throw new BridgeFailure(o.error);
          return o;
        }),
      );
      if (outcome.kind === 'gone') throw new BridgeFailure({ kind: 'not_found', message: 'Not found.' });
      // The service's record as it answered (the cache's copy carries the agent's queued changes).
      return outcome.record;
    },
  });
  const latest = useQuery({ queryKey: ['messages', db.name, id, 'latest'], queryFn: () => reachability.heard(client.history.refreshLatest(id)).then(() => true) });
  // An older page may come from the cache alone (none left at the service): only its failure tells.
  const older = useMutation({ mutationFn: () => client.history.loadOlder(id), onError: (error) => reachability.failed(error) });
  // Offline as far as the session knows: shown from the first render of a conversation opened
  // while the service could not be reached, not only once its own reads fail.
  const offline = useSyncExternalStore(reachability.subscribe, reachability.isUnreachable);

  // A search hit to go to: the page around it is loaded when it is not held (not the whole thread).
  const jumpRequest = useUi((s) => s.jump);
  const jump = jumpRequest?.conversationId === id ? jumpRequest : undefined;
  const held = jump && messages ? messages.some((m) => m.id === jump.messageId) : false;
  const around = useQuery({
    queryKey: ['messages', db.name, id, 'around', jump?.messageId],
    enabled: Boolean(jump && messages && !held && !olderHeld),
    queryFn: () => client.history.loadAround(id, jump!.messageId).then(() => true),
  });
  const fillGap = (gap: { after: number }) => void client.history.fillGap(id, gap).catch(() => undefined);

  // The "New" separator: above the first message unread when the conversation opened. Fixed once
  // placed; new messages while it is open do not move it. Taken before opening marks it read (the
  // mark below waits for it): from the row at its first read, and at the service's cap with the
  // record's last-seen time (cached, or read now). Not cached at all (opened by number: a deep
  // link, "#N", a notification), from the service's record when it answers, or none if it cannot.
  const [unreadAtOpen, setUnreadAtOpen] = useState<{ unread: number; seenAt: number | undefined }>();
  const [rowUnreadAtOpen, setRowUnreadAtOpen] = useState<number | null>();
  if (rowUnreadAtOpen === undefined && row !== undefined) setRowUnreadAtOpen(row ? row.unreadCount : null);
  if (unreadAtOpen === undefined && rowUnreadAtOpen !== undefined && read !== undefined) {
    const atOpen = unreadOnOpening(rowUnreadAtOpen, record, fresh);
    if (atOpen) setUnreadAtOpen(atOpen);
  }
  const [separator, setSeparator] = useState<{ id: number | undefined }>();
  // Nothing unread: none, at once (a read conversation opens at its newest message without waiting).
  if (!separator && unreadAtOpen !== undefined && unreadAtOpen.unread <= 0) setSeparator({ id: undefined });
  else if (!separator && unreadAtOpen !== undefined && cursor !== undefined && shown.length) {
    const placed = firstUnreadId(shown, unreadAtOpen, olderHeld || (cursor?.hasOlder ?? true));
    // Not placeable in what is held, while the newest page is still on its way: the held rows may be
    // a few the feed or a live event cached, with no cursor yet saying where history starts. Fixed
    // as "none" only once that page could not come, or came and its cursor is read back.
    if (placed !== undefined || (!olderHeld && (latest.isError || (latest.isSuccess && !latest.isFetching && cursor !== null)))) setSeparator({ id: placed });
  }

  // Opening a conversation reads it: unread badges clear at once, and the service hears it
  // through the outbox. While it stays open, whatever arrives unread is read too. One not cached
  // yet (opened by number, its record not read yet: offline, or a faulty network) is marked read
  // too: the agent opened it, and the record may not arrive while it is open. Not before what was
  // unread on opening is known: the mark zeroes the cached count at once, and once sent, the
  // service's own (a read of the record answered after it finds nothing unread).
  const somethingUnread = row === null || (row?.unreadCount ?? 0) > 0;
  const unread = unreadAtOpen !== undefined && somethingUnread;
  useEffect(() => {
    if (unread) void client.actions.markRead([id]).catch(() => undefined);
  }, [unread, client, id]);
  // Left for another conversation before that was known (the service's record, needed at the
  // count's cap or when nothing is cached, still on its way: a held request), with something
  // unread: the agent opened it, so it is read all the same (chaos, seed 7: replied to and left, it
  // stayed unread). Not when it closed to no conversation: "mark unread" closes it so, and a read
  // queued behind that would undo it.
  const unreadUnplaced = unreadAtOpen === undefined && somethingUnread;
  const markOnLeaving = useRef(false);
  useEffect(() => {
    markOnLeaving.current = unreadUnplaced;
  }, [unreadUnplaced]);
  useEffect(
    () => () => {
      if (markOnLeaving.current && useUi.getState().selectedConversationId !== undefined) void client.actions.markRead([id]).catch(() => undefined);
    },
    [client, id],
  );
  // Its notification has done its job: it goes, and the next message alerts anew.
  useEffect(() => void client.notifications.opened(id), [client, id]);
  // Colleagues see who has it open, where the service offers that (main says it, or answers told: false).
  useEffect(() => {
    void client.bridge.call('app.setViewing', { conversationId: id });
    return () => void client.bridge.call('app.setViewing', { conversationId: null });
  }, [client, id]);

  const cannotSave = () => notify('That change could not be saved on this computer.');
  const notCached = cursor === null && isUnreachable(latest.error);
  return {
    meId: client.me.id,
    /** The cache has not answered yet (its row, messages and the rest come in one read). */
    reading: read === undefined,
    conversation,
    record,
    messages,
    shown,
    cursor,
    unsent,
    /** The service says it does not exist, or the agent cannot see it. */
    missing: fresh.error instanceof BridgeFailure && fresh.error.error.kind === 'not_found',
    /** Nothing of its history is on this computer and the service cannot be reached (the queued replies still show). */
    notCached,
    /** A read failed (shown unless it is the service being unreachable, which `offline` says). */
    syncError: latest.error ?? older.error ?? fresh.error,
    /** The session's last read of a conversation could not reach the service. */
    offline,
    fetchingLatest: latest.isFetching,
    older: {
      /** Older messages than those shown exist: held here (the first read's rest), or maybe at the service (none said while nothing is cached). */
      exist: !notCached && (olderHeld || (cursor?.hasOlder ?? true)),
      /** Loading: from the service, or (none asked of it meanwhile) the rest of the first read from the cache. */
      loading: older.isPending || olderHeld,
      unavailable: isUnreachable(older.error),
      load: () => !older.isPending && older.mutate(),
    },
    /** The search hit to show, once it is held; a hit the service no longer has is dropped. */
    target: jump && (held || around.isSuccess || around.isError) ? { messageId: jump.messageId, n: jump.n } : undefined,
    newFrom: separator?.id,
    /** Where the separator goes is not known yet: the thread waits before taking the view to its start. */
    newFromPending: separator === undefined,
    /** The holes in the held history, among the messages read (older ones come with the rest). */
    gaps: holesAmong(cursor?.gaps ?? [], olderHeld ? shown[0]?.id : undefined),
    fillGap,
    retry: (seq: number) => void client.actions.retryMessage(seq),
    discard: (seq: number) => {
      const maybeSent = [...unsent.values()].some((u) => u.seq === seq && u.uncertain);
      void client.actions.discardMessage(seq).then((gone) => gone && notify(maybeSent ? 'Discarded here. If it had reached the service, it shows up when the conversation refreshes.' : 'Discarded. It was not sent.'));
    },
    setStatus: (status: ConversationStatus) => void client.actions.setStatus([id], status).catch(cannotSave),
    markUnread: () => void client.actions.markUnread([id]).catch(cannotSave),
  };
}

/**
 * What was unread when the conversation opened, once it can be told: `rowUnread` is the cached
 * row's count at its first read (null: not cached), `record` the cached record, `fresh` the read of
 * the service's record asked on opening. Undefined while it waits for that read.
 */
function unreadOnOpening(
  rowUnread: number | null,
  record: Conversation | undefined,
  fresh: { data?: Conversation | undefined; isError: boolean },
): { unread: number; seenAt: number | undefined } | undefined {
  if (rowUnread !== null) {
    // At the cap the count alone does not say where unread starts: the last-seen time does.
    if (rowUnread < UNREAD_CAP || record) return { unread: rowUnread, seenAt: record?.agent_last_seen_at };
    if (fresh.data) return { unread: rowUnread, seenAt: fresh.data.agent_last_seen_at };
    return fresh.isError ? { unread: rowUnread, seenAt: undefined } : undefined;
  }
  if (fresh.data) return { unread: fresh.data.unread_count, seenAt: fresh.data.agent_last_seen_at };
  return fresh.isError ? { unread: 0, seenAt: undefined } : undefined;
}

/** The holes above `oldestRead` or later (all of them without it): those among the messages read. */
function holesAmong(gaps: HistoryGap[], oldestRead: number | undefined): HistoryGap[] {
  return oldestRead === undefined ? gaps : gaps.filter((g) => g.before > oldestRead);
}
