// What the session client asks of the screen, wired to the app's UI state: sentences go to the
// notice line, notifications are raised through main (or the browser) or shown as in-app toasts
// with the sound, live changes bump the tab counts' revision, and "events may have been missed"
// asks TanStack Query for what is on screen.
import type { QueryClient } from '@tanstack/react-query';
import type { Bridge } from '../../../shared/bridge/contract';
import { useLiveRevision } from '../live/revision';
import { createRaiser } from '../notifications/raise';
import { playSound } from '../notifications/sound';
import { useToasts } from '../notifications/toasts';
import { usePreferences } from '../state/preferences';
import { useUi } from '../state/ui';
import type { ClientView } from './inbox-client';

/** The agent is looking at the window: a notification would only interrupt. */
const windowHasAttention = () => document.visibilityState === 'visible' && document.hasFocus();

export function clientView(bridge: Bridge, queryClient: QueryClient | undefined): ClientView {
  const raiser = createRaiser(bridge, (conversationId) => conversationId !== undefined && useUi.getState().select(conversationId));
  return {
    tell: (text) => useUi.getState().notify(text),
    openConversationId: () => useUi.getState().selectedConversationId,
    focused: windowHasAttention,
    showNotification: ({ via, tag, title, body, conversationId }) => {
      const shown = { tag, title, body, ...(conversationId ? { conversationId } : {}) };
      if (via === 'toast') useToasts.getState().show(shown);
      else void raiser.raise(shown);
    },
    playSound: (sound) => void playSound(sound.name, sound.volume),
    // Before settings were per session, one switch held for the whole app: a session without its own starts from it.
    notificationDefaults: () => ({ enabled: usePreferences.getState().notifications }),
    closeNotification: (tag) => {
      raiser.close(tag);
      useToasts.getState().dismiss(tag);
    },
    conversationsChanged: () => useLiveRevision.getState().bump(),
    // Only what is on screen is asked again; a fetch already under way is joined, not restarted.
    revalidateScreen: () => void queryClient?.invalidateQueries({ refetchType: 'active' }, { cancelRefetch: false }),
  };
}
