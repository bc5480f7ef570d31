// Reports the unread count of open conversations (from the cache) to main, which shows it on the
// dock/taskbar badge or the tray. Only when it changes; 0 when the session goes away.
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import { useSession } from './session';

/** The reference service's cap on a conversation's unread count. */
const UNREAD_CAP = 10;

export function useUnreadBadge() {
  const { bridge, db } = useSession();
  // From the [status+unreadCount] index, without reading a row: how many open conversations have
  // each unread count (the service caps it at 10), and the rows only of any past that (none, normally).
  // Its keys would be a cursor step per conversation, rows a read of every one.
  const unread = useLiveQuery(async () => {
    const index = () => db.conversations.where('[status+unreadCount]');
    const counts = await Promise.all(Array.from({ length: UNREAD_CAP }, (_, i) => index().equals(['open', i + 1]).count()));
    const beyond = await index().between(['open', UNREAD_CAP + 1], ['open', Infinity]).toArray();
    return counts.reduce((sum, n, i) => sum + n * (i + 1), 0) + beyond.reduce((sum, c) => sum + c.unreadCount, 0);
  }, [db]);
  useEffect(() => {
    if (unread === undefined) return;
    void bridge.call('app.setUnreadCount', { count: Math.min(unread, 1_000_000) });
  }, [bridge, unread]);
  useEffect(() => () => void bridge.call('app.setUnreadCount', { count: 0 }), [bridge]);
}
