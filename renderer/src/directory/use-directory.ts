// The account's directory (inboxes, agents, teams, labels, canned responses): read from the cache,
// refreshed from the service once per session (they change rarely), replaced whole so that a
// deleted label or inbox does not stay selectable.
import { useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import type { Agent, CannedResponse, Inbox, Label, Team } from '../../../shared/api/directory';
import { replaceAll } from '../db/save';
import { callOrThrow } from '../platform/call';
import { useSession } from '../platform/session';

export interface Directory {
  inboxes: Inbox[];
  agents: Agent[];
  teams: Team[];
  labels: Label[];
  cannedResponses: CannedResponse[];
}

const empty: Directory = { inboxes: [], agents: [], teams: [], labels: [], cannedResponses: [] };

/** Keeps the cached directory fresh; mount once per session. */
export function useDirectorySync() {
  const { bridge, db } = useSession();
  return useQuery({
    queryKey: ['directory', db.name],
    staleTime: 5 * 60_000,
    queryFn: async () => {
      const [inboxes, agents, teams, labels, canned] = await Promise.all([
        callOrThrow(bridge, 'inboxes.list', {}),
        callOrThrow(bridge, 'agents.list', {}),
        callOrThrow(bridge, 'teams.list', {}),
        callOrThrow(bridge, 'labels.list', {}),
        callOrThrow(bridge, 'cannedResponses.list', {}),
      ]);
      await replaceAll(db, 'inboxes', inboxes.payload);
      await replaceAll(db, 'agents', agents);
      await replaceAll(db, 'teams', teams);
      await replaceAll(db, 'labels', labels.payload);
      await replaceAll(db, 'cannedResponses', canned);
      return true;
    },
  });
}

/** The directory from the cache (empty until the first sync on a new computer). */
export function useDirectory(): Directory {
  const { db } = useSession();
  return (
    useLiveQuery(
      async () => ({
        inboxes: await db.inboxes.toArray(),
        agents: await db.agents.toArray(),
        teams: await db.teams.toArray(),
        labels: await db.labels.orderBy('title').toArray(),
        cannedResponses: await db.cannedResponses.toArray(),
      }),
      [db],
    ) ?? empty
  );
}
