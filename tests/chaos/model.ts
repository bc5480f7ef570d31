// What the agent intends, action by action (pure), with the service's own rules where they decide
// a field, and "unknown" where a rule makes it ambiguous rather than a guess:
//
// - reopening (status open) as an agent self-assigns on the service, but the app rightly sends
//   nothing when the conversation is already open, and coalesces a reopen followed by another
//   status: so after "Reopen" the assignee is unknown until the next explicit assignment;
// - a team change drops an assignee who is not in the team and may auto-assign a member: the
//   assignee is unknown after it too.
//
// Messages are tracked by their unique text: each must exist exactly once on the service.

export type Status = 'open' | 'resolved' | 'pending' | 'snoozed';
export type Priority = 'low' | 'medium' | 'high' | 'urgent' | null;

export interface Intended {
  status: Status;
  priority: Priority;
  /** An agent's user id, 0 for nobody, or undefined when the service's rules make it ambiguous. */
  assignee: number | undefined;
  team: number;
  labels: Set<string>;
  /** Whether the agent left it marked unread (undefined: not touched by read markers). */
  unread: boolean | undefined;
}

export type Action =
  | { kind: 'reply' | 'note'; text: string }
  | { kind: 'status'; status: Status; title: string }
  | { kind: 'priority'; priority: Priority; title: string }
  | { kind: 'assign'; userId: number; title: string }
  | { kind: 'team'; teamId: number; title: string }
  | { kind: 'label'; label: string; add: boolean; title: string }
  | { kind: 'unread' }
  /** Opening it marks it read (the app does, when it shows anything unread). */
  | { kind: 'open' };

export function apply(state: Intended, action: Action, meId: number): Intended {
  const next: Intended = { ...state, labels: new Set(state.labels) };
  switch (action.kind) {
    case 'status':
      next.status = action.status;
      if (action.status === 'open') next.assignee = undefined;
      break;
    case 'priority':
      next.priority = action.priority;
      break;
    case 'assign':
      next.assignee = action.userId;
      break;
    case 'team':
      next.team = action.teamId;
      if (action.teamId !== 0) next.assignee = undefined;
      break;
    case 'label':
      if (action.add) next.labels.add(action.label);
      else next.labels.delete(action.label);
      break;
    case 'unread':
      next.unread = true;
      break;
    case 'open':
      next.unread = false;
      break;
    case 'reply':
    case 'note':
      break;
  }
  void meId;
  return next;
}

export interface ServiceState {
  status: Status;
  priority: Priority;
  assignee: number;
  team: number;
  labels: string[];
  unread: boolean;
}

/** Fields where the service differs from what the agent intended (ambiguous fields skipped). */
export function differences(intended: Intended, service: ServiceState): string[] {
  const out: string[] = [];
  if (intended.status !== service.status) out.push(`status: intended ${intended.status}, service ${service.status}`);
  if (intended.priority !== service.priority) out.push(`priority: intended ${intended.priority}, service ${service.priority}`);
  if (intended.assignee !== undefined && intended.assignee !== service.assignee) out.push(`assignee: intended ${intended.assignee}, service ${service.assignee}`);
  if (intended.team !== service.team) out.push(`team: intended ${intended.team}, service ${service.team}`);
  const want = [...intended.labels].sort().join(',');
  const have = [...service.labels].sort().join(',');
  if (want !== have) out.push(`labels: intended [${want}], service [${have}]`);
  if (intended.unread !== undefined && intended.unread !== service.unread) out.push(`unread: intended ${intended.unread}, service ${service.unread}`);
  return out;
}
