// The account's directory (inboxes, agents, teams, labels, canned responses) read from the service
// and stored whole, so what the service no longer lists (a deleted team) stops being pickable.
// Read once per session, and again whenever something says it changed: the service's
// `account.cache_invalidated` event, a pick or a change the service refused or did not take
// because it no longer knows the team or agent, a colleague the directory does not know yet.
import type { Bridge } from '../../../shared/bridge/contract';
import type { Team } from '../../../shared/api/directory';
import type { InboxDb } from '../db/schema';
import { replaceAll } from '../db/save';
import { callOrThrow } from '../platform/call';

/** Reads every collection, then stores them; answers the teams that were cached and are gone now. */
export async function readDirectory(bridge: Bridge, db: InboxDb): Promise<{ removedTeams: Team[] }> {
  const [inboxes, agents, teams, labels, canned] = await Promise.all([
    callOrThrow(bridge, 'inboxes.list', {}),
    callOrThrow(bridge, 'agents.list', {}),
    callOrThrow(bridge, 'teams.list', {}),
    callOrThrow(bridge, 'labels.list', {}),
    callOrThrow(bridge, 'cannedResponses.list', {}),
  ]);
  const before = await db.teams.toArray();
  await replaceAll(db, 'inboxes', inboxes.payload);
  await replaceAll(db, 'agents', agents);
  await replaceAll(db, 'teams', teams);
  await replaceAll(db, 'labels', labels.payload);
  await replaceAll(db, 'cannedResponses', canned);
  const kept = new Set(teams.map((t) => t.id));
  return { removedTeams: before.filter((t) => !kept.has(t.id)) };
}

/**
 * One read at a time; asked for while one runs, it runs once more after (the change may have come
 * after the running read was answered). `onRemovedTeams`: conversations may have lost their team
 * on the service without an event (Chatwoot nullifies them), so the caller catches up.
 */
export function directoryFollower(bridge: Bridge, db: InboxDb, onRemovedTeams: () => void) {
  let running: Promise<void> | undefined;
  let again = false;
  const once = async () => {
    const { removedTeams } = await readDirectory(bridge, db);
    if (removedTeams.length) onRemovedTeams();
  };
  function refresh(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = once().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        void refresh().catch(() => undefined);
      }
    });
    return running;
  }
  return { refresh };
}
