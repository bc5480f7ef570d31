// The account's directory (inboxes, agents, teams, labels, canned responses): read from the cache,
// refreshed from the service once per session and whenever the client hears it changed
// (sync/directory.ts), replaced whole so that a deleted team, label or inbox does not stay selectable.
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { useFirstRowsShown, useLiveQueryAfterEarly } from '../db/live-query-after-first-rows';
import { earlyDirectory } from '../conversations/early-rows';
import { useSession } from '../platform/session';
import type { Directory } from './cached-directory';
import { readCachedDirectory } from './cached-directory';

export type { Directory } from './cached-directory';

const empty: Directory = { inboxes: [], agents: [], teams: [], labels: [], cannedResponses: [] };

/** The inbox's directory for what renders many times (activity lines): one read for all of them. */
export const DirectoryContext = createContext<Directory>(empty);

/** Keeps the cached directory fresh; mount once per session. */
export function useDirectorySync() {
  const { db, client } = useSession();
  return useQuery({
    queryKey: ['directory', db.name],
    staleTime: 5 * 60_000,
    // Its five requests go once the first rows are on screen (client/first-rows-gate.ts).
    enabled: useFirstRowsShown(),
    queryFn: async () => {
      await client.directory.refresh();
      return true;
    },
  });
}

/**
 * The directory from the cache (empty until the first sync on a new computer). Under the inbox's
 * `DirectoryContext` once it holds the directory, that one: the composer and the contact panel mount
 * again with every conversation opened, and each reading the five tables again (and rendering once
 * more when they came) was part of every switch (issue 14). Elsewhere (the inbox itself, a screen
 * rendered alone) it is read here.
 */
export function useDirectory(): Directory {
  const { db } = useSession();
  const provided = useContext(DirectoryContext);
  const shared = provided !== empty;
  // On a cold open, read beside the first rows (the rows' inbox and team chips are in their first
  // frame) and followed once they are on screen; read here at once when it was not.
  const early = shared ? undefined : earlyDirectory(db.name);
  const own = useLiveQueryAfterEarly(early, () => (shared ? undefined : readCachedDirectory(db)), [db, shared]);
  return shared ? provided : (own ?? empty);
}
