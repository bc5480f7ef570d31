// The session's notification settings for React: read live from the cache (so every window of
// the session shows the same), changed through the session's notification center.
import { useLiveQueryAfterFirstRows } from '../db/live-query-after-first-rows';
import { useCallback, useMemo } from 'react';
import { useSession } from '../platform/session';
import { SETTINGS_KEY } from './notification-center';
import type { NotifySettings } from './settings';

export function useNotifySettings(): [NotifySettings | undefined, (change: (s: NotifySettings) => NotifySettings) => Promise<void>] {
  const { db, client } = useSession();
  const stored = useLiveQueryAfterFirstRows(async () => (await db.settings.get(SETTINGS_KEY)) ?? null, [db]);
  const update = useCallback(async (change: (s: NotifySettings) => NotifySettings) => void (await client.notifications.update(change)), [client]);
  // Read once per stored value, not per render: the defaults ask Intl for the time zone (~1 ms), and
  // the inbox renders on every triage key.
  const settings = useMemo(() => (stored === undefined ? undefined : client.notifications.read(stored?.value)), [stored, client]);
  return [settings, update];
}
