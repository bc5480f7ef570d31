// Colleagues in the open conversation's header: the assignee's availability (online, busy,
// offline), and who else has this conversation open right now (where the service reports it: the
// presence extension; real Chatwoot does not, and then nothing is shown). Words as well as colour.
import { useContext } from 'react';
import type { Agent } from '../../../shared/api/directory';
import type { Availability } from '../../../shared/api/live-events';
import { DirectoryContext } from '../directory/use-directory';
import { availabilityOf, availabilityWords, usePresence } from '../live/presence';
import { UntrustedText } from './UntrustedText';

/** A dot and the word: "● Online". */
export function AvailabilityBadge({ availability, testId }: { availability: Availability; testId?: string }) {
  return (
    <span className={`availability ${availability}`} data-testid={testId} data-availability={availability}>
      {availabilityWords[availability]}
    </span>
  );
}

export function useAgentAvailability(): (agent: Pick<Agent, 'id' | 'availability_status'>) => Availability {
  const heard = usePresence((s) => s.heard);
  const users = usePresence((s) => s.users);
  return (agent) => availabilityOf(agent, { heard, users });
}

export function AssigneeAvailability({ assigneeId }: { assigneeId: number }) {
  const directory = useContext(DirectoryContext);
  const availability = useAgentAvailability();
  const agent = directory.agents.find((a) => a.id === assigneeId);
  if (!agent) return null;
  return <AvailabilityBadge availability={availability(agent)} testId="assignee-availability" />;
}

export function AlsoViewing({ conversationId, meId }: { conversationId: number; meId: number }) {
  const directory = useContext(DirectoryContext);
  const viewers = usePresence((s) => s.viewing[conversationId]);
  const others = (viewers ?? []).filter((id) => id !== meId);
  if (!others.length) return null;
  const names = others.map((id) => {
    const a = directory.agents.find((x) => x.id === id);
    return a ? a.available_name || a.name : `Agent ${id}`;
  });
  return (
    <span className="chip viewing" data-testid="also-viewing">
      Also viewing:{' '}
      {names.map((n, i) => (
        <span key={others[i]}>
          {i > 0 ? ', ' : ''}
          <UntrustedText text={n} />
        </span>
      ))}
    </span>
  );
}
