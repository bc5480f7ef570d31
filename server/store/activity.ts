// The activity messages the reference service writes into a conversation's timeline when someone
// changes it (Chatwoot's `activity` locale strings, English). They are ordinary messages of type 2.
import type { ConversationRow } from './conversations';

type Status = ConversationRow['status'];

export const activityText = {
  status(status: Status, actor: string): string {
    switch (status) {
      case 'resolved':
        return `Conversation was marked resolved by ${actor}`;
      case 'open':
        return `Conversation was reopened by ${actor}`;
      case 'pending':
        return `Conversation was marked as pending by ${actor}`;
      case 'snoozed':
        return `Conversation was snoozed by ${actor}`;
    }
  },
  assignee(assignee: string | null, actor: string, self: boolean): string {
    if (assignee === null) return `Conversation unassigned by ${actor}`;
    return self ? `${actor} self-assigned this conversation` : `Assigned to ${assignee} by ${actor}`;
  },
  team(team: string | null, previous: string | null, actor: string): string {
    return team === null ? `Unassigned from ${previous ?? 'team'} by ${actor}` : `Assigned to ${team} by ${actor}`;
  },
  priority(previous: string | null, next: string | null, actor: string): string {
    if (next === null) return `${actor} removed the priority`;
    return previous === null ? `${actor} set the priority to ${next}` : `${actor} changed the priority from ${previous} to ${next}`;
  },
  labels(added: string[], removed: string[], actor: string): string[] {
    return [...(added.length ? [`${actor} added ${added.join(', ')}`] : []), ...(removed.length ? [`${actor} removed ${removed.join(', ')}`] : [])];
  },
};
