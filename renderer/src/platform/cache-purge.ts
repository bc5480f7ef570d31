// Sign-out deletes the session's local cache (`inbox:<sessionId>`). Main keeps the list of caches
// still to delete until the renderer confirms each one, so a cache survives no sign-out even when
// the window was closed at that moment: the list is asked for at start-up, and pushed as
// `session.cacheObsolete` at sign-out.
import { useEffect, useState } from 'react';
import type { Bridge } from '../../../shared/bridge/contract';
import { sessionDbName } from '../client/inbox-client';
import { forgetSession } from '../conversations/early-rows';
import { InboxDb } from '../db/schema';
import { forgetRendered } from '../markdown/rendered-cache';

/**
 * Deletes the session's database. A client still holding it open closes its connection when asked
 * (Dexie closes on the delete's versionchange), and a later sign-in opens a fresh one.
 */
export async function deleteSessionCache(sessionId: string): Promise<void> {
  forgetSession(sessionDbName(sessionId));
  forgetRendered();
  await new InboxDb(sessionDbName(sessionId)).delete();
}

export async function purgeCaches(bridge: Bridge, sessionIds: readonly string[]): Promise<string[]> {
  const deleted: string[] = [];
  for (const sessionId of sessionIds) {
    await deleteSessionCache(sessionId);
    const confirmed = await bridge.call('session.cacheDeleted', { sessionId });
    if (confirmed.ok) deleted.push(sessionId);
  }
  return deleted;
}

/** Deletes pending caches before the app shows anything, then on every sign-out. True once ready. */
export function useCachePurge(bridge: Bridge): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    const failed = (err: unknown) => console.error('could not delete a signed-out cache', err);
    const off = bridge.on('session.cacheObsolete', ({ sessionIds }) => void purgeCaches(bridge, sessionIds).catch(failed));
    void bridge
      .call('session.obsoleteCaches', {})
      .then((r) => (r.ok ? purgeCaches(bridge, r.value.sessionIds) : []))
      .catch(failed)
      .finally(() => live && setReady(true));
    return () => {
      live = false;
      off();
    };
  }, [bridge]);
  return ready;
}
