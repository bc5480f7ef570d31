// The session's notification settings for React: read live from the cache (so every window of
// the session shows the same), changed through the session's notification center.
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import { useSession } from '../platform/session';
import { SETTINGS_KEY } from './notification-center';
import type { NotifySettings } from './settings';

export function useNotifySettings(): [NotifySettings | undefined, (change: (s: NotifySettings) => NotifySettings) => Promise<void>] {
  const { db, client } = useSession();
  const stored = useLiveQuery(async () => (await db.settings.get(SETTINGS_KEY)) ?? null, [db]);
  const update = useCallback(async (change: (s: NotifySettings) => NotifySettings) => void (await client.notifications.update(change)), [client]);
  return [stored === undefined ? undefined : client.notifications.read(stored?.value), update];
}
