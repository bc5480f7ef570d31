// The account's directory (inboxes, agents, teams, labels, canned responses): read from the cache,
// refreshed from the service once per session and whenever the client hears it changed
// (sync/directory.ts), replaced whole so that a deleted team, label or inbox does not stay selectable.
import { useQuery } from '@tanstack/react-query';
import { createContext } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { Agent, CannedResponse, Inbox, Label, Team } from '../../../shared/api/directory';
import { useSession } from '../platform/session';

export interface Directory {
  inboxes: Inbox[];
  agents: Agent[];
  teams: Team[];
  labels: Label[];
  cannedResponses: CannedResponse[];
}

const empty: Directory = { inboxes: [], agents: [], teams: [], labels: [], cannedResponses: [] };

/** The inbox's directory for what renders many times (activity lines): one read for all of them. */
export const DirectoryContext = createContext<Directory>(empty);

/** Keeps the cached directory fresh; mount once per session. */
export function useDirectorySync() {
  const { db, client } = useSession();
  return useQuery({
    queryKey: ['directory', db.name],
    staleTime: 5 * 60_000,
    queryFn: async () => {
      await client.directory.refresh();
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
