// The account's directory as the cache holds it, read in one go. Apart from the React hooks
// (use-directory.ts) so that the cold open's early read (conversations/early-rows.ts), which runs
// before React is evaluated, reads it the same way.
import type { Agent, CannedResponse, Inbox, Label, Team } from '../../../shared/api/directory';
import type { InboxDb } from '../db/schema';

export interface Directory {
  inboxes: Inbox[];
  agents: Agent[];
  teams: Team[];
  labels: Label[];
  cannedResponses: CannedResponse[];
}

export async function readCachedDirectory(db: InboxDb): Promise<Directory> {
  return {
    inboxes: await db.inboxes.toArray(),
    agents: await db.agents.toArray(),
    teams: await db.teams.toArray(),
    labels: await db.labels.orderBy('title').toArray(),
    cannedResponses: await db.cannedResponses.toArray(),
  };
}
