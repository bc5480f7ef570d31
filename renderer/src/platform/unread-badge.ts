// Reports the unread count of open conversations (from the cache) to main, which shows it on the
// dock/taskbar badge or the tray. Only when it changes; 0 when the session goes away.
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import { useSession } from './session';

export function useUnreadBadge() {
  const { bridge, db } = useSession();
  // From the index's keys ([status, unreadCount]) of the open conversations with anything unread: no row is read.
  const unread = useLiveQuery(async () => {
    const keys = await db.conversations.where('[status+unreadCount]').between(['open', 1], ['open', Infinity]).keys();
    return keys.reduce<number>((sum, key) => sum + Number((key as unknown as [string, number])[1]), 0);
  }, [db]);
  useEffect(() => {
    if (unread === undefined) return;
    void bridge.call('app.setUnreadCount', { count: Math.min(unread, 1_000_000) });
  }, [bridge, unread]);
  useEffect(() => () => void bridge.call('app.setUnreadCount', { count: 0 }), [bridge]);
}
