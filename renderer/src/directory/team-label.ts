// The team a conversation is in, as the agent should read it: the directory's name for it, or
// nothing when the directory no longer lists it (deleted: the service drops it from its
// conversations too, possibly without telling). Before the directory is first read, the record's
// own name stands in. And activity lines about a team ("Assigned to billing by Sam", as Chatwoot
// words them) told apart from those about an agent, so the screen can say "team".
import type { Agent, Team } from '../../../shared/api/directory';

export function teamLabel(teamId: number, teams: readonly Team[], recordName?: string): string | undefined {
  if (!teamId) return undefined;
  const listed = teams.find((t) => t.id === teamId);
  if (listed) return listed.name;
  return teams.length ? undefined : recordName || undefined;
}

export interface TeamActivity {
  /** The words before the team's name ("Assigned to ", "Unassigned from "). */
  before: string;
  team: string;
  /** The rest (" by Sam Patel"). */
  after: string;
}

const TEAM_LINE = /^(Assigned to |Unassigned from )(.+?)( by .+)$/s;

/** The team an activity line names, when it names one the directory lists (and no agent of that name). */
export function teamActivity(text: string, teams: readonly Team[], agents: readonly Agent[]): TeamActivity | undefined {
  const m = TEAM_LINE.exec(text);
  if (!m) return undefined;
  const name = m[2]!;
  const same = (a: string) => a.toLowerCase() === name.toLowerCase();
  if (!teams.some((t) => same(t.name)) || agents.some((a) => same(a.name) || same(a.available_name ?? ''))) return undefined;
  return { before: m[1]!, team: name, after: m[3]! };
}
