// Where the store opens a conversation, the session's read ahead (read-ahead.ts) starts reading it.
import { useEffect } from 'react';
import { useSession } from '../platform/session';
import { useUi } from '../state/ui';

/**
 * Asks the read whenever the store opens a conversation: the store calls its listeners inside the
 * event that sets it (a click, a key, a search hit, a notification), before React renders.
 */
export function useReadAhead(): void {
  const { client } = useSession();
  useEffect(
    () =>
      useUi.subscribe((state, prev) => {
        const id = state.selectedConversationId;
        if (id !== undefined && id !== prev.selectedConversationId) client.conversations.readAhead.ahead(id);
      }),
    [client],
  );
}
