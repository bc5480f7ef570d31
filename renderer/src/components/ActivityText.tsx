// An activity line's text; one about a team (model: directory/team-label.ts) says "team" and
// shows the team as a chip, so "Assigned to billing by Sam" cannot be read as an agent named billing.
import { useContext } from 'react';
import { teamActivity } from '../directory/team-label';
import { DirectoryContext } from '../directory/use-directory';
import { UntrustedText } from './UntrustedText';

export function ActivityText({ text }: { text: string }) {
  const directory = useContext(DirectoryContext);
  const team = teamActivity(text, directory.teams, directory.agents);
  if (!team) return <UntrustedText text={text} />;
  return (
    <>
      <UntrustedText text={team.before} />
      team{' '}
      <span className="chip team" data-testid="activity-team">
        <UntrustedText text={team.team} />
      </span>
      <UntrustedText text={team.after} />
    </>
  );
}
