// Mounts live updates for the signed-in inbox: events into the cache, a catch-up signal into a
// revalidation of whatever is on screen (TanStack Query; the open conversation's history query
// closes its gaps with `after` pages), clicks on notifications into opening the conversation.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSession } from '../platform/session';
import { usePreferences } from '../state/preferences';
import { useUi } from '../state/ui';
import { createLiveHandler } from './live-handler';
import { raiseNotification } from './notifier';
import { useLiveRevision } from './revision';
import { useTyping } from './typing';

/** The agent is looking at the window: a notification would only interrupt. */
const windowHasAttention = () => document.visibilityState === 'visible' && document.hasFocus();

export function useLiveUpdates() {
  const { bridge, db, session } = useSession();
  const queryClient = useQueryClient();
  useEffect(() => {
    const open = (conversationId: number) => useUi.getState().select(conversationId);
    const handler = createLiveHandler({
      bridge,
      db,
      accountId: session.accountId,
      meId: session.user.id,
      openConversationId: () => useUi.getState().selectedConversationId,
      notifyFacts: async () => {
        const inboxIds = await db.inboxes.toCollection().primaryKeys();
        return { focused: windowHasAttention(), enabled: usePreferences.getState().notifications, ...(inboxIds.length ? { inboxIds: new Set(inboxIds) } : {}) };
      },
      notify: (content) => void raiseNotification(bridge, content, open),
      conversationsChanged: () => useLiveRevision.getState().bump(),
    });
    const offs = [
      bridge.on('live.event', (event) => void handler.handle(event)),
      // Only what is on screen is asked again; a fetch already under way is joined, not restarted.
      bridge.on('live.catchUp', () => void queryClient.invalidateQueries({ refetchType: 'active' }, { cancelRefetch: false })),
      bridge.on('app.notificationClicked', ({ conversationId }) => open(conversationId)),
    ];
    return () => {
      for (const off of offs) off();
      useTyping.getState().clear();
    };
  }, [bridge, db, session.accountId, session.user.id, queryClient]);
}
