// What the session client asks of the screen, wired to the app's UI state: sentences go to the
// notice line, notifications are raised through main (or the browser), live changes bump the tab
// counts' revision, and "events may have been missed" asks TanStack Query for what is on screen.
import type { QueryClient } from '@tanstack/react-query';
import type { Bridge } from '../../../shared/bridge/contract';
import { raiseNotification } from '../live/notifier';
import { useLiveRevision } from '../live/revision';
import { usePreferences } from '../state/preferences';
import { useUi } from '../state/ui';
import type { ClientView } from './inbox-client';

/** The agent is looking at the window: a notification would only interrupt. */
const windowHasAttention = () => document.visibilityState === 'visible' && document.hasFocus();

export function clientView(bridge: Bridge, queryClient: QueryClient | undefined): ClientView {
  const open = (conversationId: number) => useUi.getState().select(conversationId);
  return {
    tell: (text) => useUi.getState().notify(text),
    openConversationId: () => useUi.getState().selectedConversationId,
    attention: () => ({ focused: windowHasAttention(), enabled: usePreferences.getState().notifications }),
    notify: (content) => void raiseNotification(bridge, content, open),
    conversationsChanged: () => useLiveRevision.getState().bump(),
    // Only what is on screen is asked again; a fetch already under way is joined, not restarted.
    revalidateScreen: () => void queryClient?.invalidateQueries({ refetchType: 'active' }, { cancelRefetch: false }),
  };
}
