// The inbox's part of live updates: a click on a notification opens its conversation, and who is
// typing and colleagues' presence are forgotten when the inbox goes (sign-out, another account). The events themselves go into the cache through the
// session client (client/inbox-client.ts), which also turns a catch-up signal into a revalidation.
import { useEffect } from 'react';
import { useSession } from '../platform/session';
import { useUi } from '../state/ui';
import { usePresence } from './presence';
import { useTyping } from './typing';

export function useLiveUpdates() {
  const { bridge } = useSession();
  useEffect(() => {
    const off = bridge.on('app.notificationClicked', ({ conversationId }) => useUi.getState().select(conversationId));
    return () => {
      off();
      useTyping.getState().clear();
      usePresence.getState().clear();
    };
  }, [bridge]);
}
