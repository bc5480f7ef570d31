// What the renderer does with each live event, apart from React: the cache (apply.ts), the open
// conversation's history (follow-open.ts), typing (typing.ts) and notifications (the session's
// notification center, which is told how the conversation stood before the event). Events are
// handled one at a time in arrival order (the socket's order), so a message never overtakes the
// conversation it belongs to. Events of another account are ignored: a window shows one account.
import type { LiveEvent } from '../../../shared/api/live-events';
import type { InboxDb } from '../db/schema';
import type { HistoryFollower } from '../sync/history';
import { applyContactEvent, applyConversationEvent, applyMessageEvent } from './apply';
import type { NotificationCenter } from '../notifications/notification-center';
import { usePresence } from './presence';
import { useTyping } from './typing';

export interface LiveHandlerDeps {
  db: InboxDb;
  /** The open conversation follows live messages without a hole. */
  history: Pick<HistoryFollower, 'followOpen'>;
  /** Reads a conversation from the service and stores it (one that is not cached yet). */
  refresh(conversationId: number): Promise<unknown>;
  accountId: number;
  meId: number;
  openConversationId(): number | undefined;
  notifications?: Pick<NotificationCenter, 'consider'>;
  /** A conversation changed through a live event (the tab counts may have). */
  conversationsChanged?(): void;
  /** The account's teams, labels or inboxes changed: read the directory again. */
  directoryChanged?(): void;
}

export function createLiveHandler(deps: LiveHandlerDeps) {
  const reading = new Map<number, Promise<void>>();
  /** Colleagues a presence report named that the directory did not list (each read for once). */
  const askedAbout = new Set<number>();
  let queue: Promise<void> = Promise.resolve();

  /** A conversation the cache does not hold yet (never listed here): read it, so its row appears. Bursts share one read. */
  function readConversation(id: number): Promise<void> {
    let running = reading.get(id);
    if (!running) {
      running = deps
        .refresh(id)
        .then(() => undefined)
        .finally(() => reading.delete(id));
      reading.set(id, running);
    }
    return running;
  }

  async function apply(event: LiveEvent): Promise<void> {
    if (event.accountId !== deps.accountId) return;
    switch (event.type) {
      case 'message.created':
      case 'message.updated': {
        const id = event.message.conversation_id;
        const isOpen = deps.openConversationId() === id;
        const before = await deps.db.conversations.get(id);
        const applied = await applyMessageEvent(deps.db, event, { recordGap: !isOpen });
        if (applied.conversationMissing) await readConversation(id);
        if (isOpen && applied.beyondNewest) await deps.history.followOpen(id);
        if (event.type === 'message.created') await deps.notifications?.consider(event, before);
        return;
      }
      case 'conversation.typing_on':
      case 'conversation.typing_off': {
        const key = `${event.user?.type ?? 'someone'}:${event.user?.id ?? 0}`;
        if (event.user?.type === 'user' && event.user.id === deps.meId) return;
        if (event.type === 'conversation.typing_off') useTyping.getState().stop(event.conversationId, key);
        else useTyping.getState().start(event.conversationId, key, { name: event.user?.available_name || event.user?.name || 'Someone', isPrivate: event.isPrivate, agent: event.user?.type === 'user' });
        return;
      }
      case 'contact.created':
      case 'contact.updated':
        return applyContactEvent(deps.db, event);
      case 'account.cache_invalidated':
        deps.directoryChanged?.();
        return;
      case 'presence.update': {
        usePresence.getState().apply(event);
        // A colleague the directory does not list yet (added since it was read): read it again, once per colleague.
        const listed = new Set((await deps.db.agents.toArray()).map((a) => a.id));
        const unknown = Object.keys(event.users).map(Number).filter((id) => !listed.has(id) && !askedAbout.has(id));
        for (const id of unknown) askedAbout.add(id);
        if (unknown.length && listed.size) deps.directoryChanged?.();
        return;
      }
      case 'notification.created': {
        const id = event.notification.conversationId;
        return deps.notifications?.consider(event, id === null ? undefined : await deps.db.conversations.get(id));
      }
      default: {
        // Every conversation event carries the conversation push data.
        const before = await deps.db.conversations.get(event.conversation.id);
        await applyConversationEvent(deps.db, event);
        deps.conversationsChanged?.();
        return deps.notifications?.consider(event, before);
      }
    }
  }

  return {
    /** Queues the event behind the ones before it; resolves when it has been applied. */
    handle(event: LiveEvent): Promise<void> {
      queue = queue.then(() => apply(event)).catch((err: unknown) => console.error('could not apply a live update', err));
      return queue;
    },
  };
}
export type LiveHandler = ReturnType<typeof createLiveHandler>;
