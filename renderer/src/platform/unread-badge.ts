// Reports the unread count of open conversations (from the cache) to main, which shows it on the
// dock/taskbar badge or the tray. Only when it changes; 0 when the session goes away.
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import { useSession } from './session';

export function useUnreadBadge() {
  const { bridge, db } = useSession();
  const unread = useLiveQuery(async () => {
    const open = await db.conversations.where('status').equals('open').toArray();
    return open.reduce((sum, c) => sum + (c.unreadCount > 0 ? c.unreadCount : 0), 0);
  }, [db]);
  useEffect(() => {
    if (unread === undefined) return;
    void bridge.call('app.setUnreadCount', { count: Math.min(unread, 1_000_000) });
  }, [bridge, unread]);
  useEffect(() => () => void bridge.call('app.setUnreadCount', { count: 0 }), [bridge]);
}
