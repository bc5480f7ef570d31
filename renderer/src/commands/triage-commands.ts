// Triage commands: status (resolve, resolve and next, reopen, pending, snooze), assignee, team,
// labels, priority, read markers, bulk selection, unsent messages. Single keys open pickers or act
// at once; the palette also offers every value directly ("Assign to Priya Shah", "Add label vip").
// They apply to the bulk selection when there is one, else to the conversation in front of the agent.
import type { ConversationStatus, Priority } from '../../../shared/api/record-values';
import { priorities } from '../../../shared/api/record-values';
import type { Person } from '../model/intent';
import type { SnoozePreset } from '../actions/snooze';
import { snoozePresets } from '../actions/snooze';
import type { PickerKind } from '../state/ui';
import type { InboxCommandContext } from './inbox-commands';
import type { Command, CommandRegistry } from './registry';

/** What triage commands read and do; the inbox builds it over the write path (actions/). */
export interface TriageCommandContext {
  /** The bulk selection if any; else the row the agent moved the cursor to; else the open conversation. */
  targets(): number[];
  bulk: readonly number[];
  me: Person;
  /** Labels on the current targets (for "Remove label …"). */
  targetLabels(): string[];
  setStatus(ids: number[], status: ConversationStatus): void;
  snooze(ids: number[], preset: SnoozePreset): void;
  setPriority(ids: number[], priority: Priority | null): void;
  assign(ids: number[], agent: Person | null): void;
  assignTeam(ids: number[], team: Person | null): void;
  changeLabels(ids: number[], change: { add?: string[]; remove?: string[] }): void;
  markRead(ids: number[]): void;
  markUnread(ids: number[]): void;
  resolveAndNext(): void;
  openPicker(kind: PickerKind, ids: number[]): void;
  toggleBulk(id: number): void;
  addToBulk(ids: number[]): void;
  setBulk(ids: number[]): void;
  retryUnsent(): void;
  discardFailed(): void;
  /** Whether the open conversation has messages not yet sent / refused. */
  unsent(): { waiting: number; failed: number };
  /** The oldest change waiting for the agent because someone else changed the same thing first (its outbox seq). */
  conflict(): number | undefined;
  resolveConflict(seq: number, choice: 'apply' | 'drop'): void;
}

type C = Command<InboxCommandContext>;

const hasTargets = (ctx: InboxCommandContext) => ctx.triage.targets().length > 0;
/** A command acting on the targets. */
const onTargets = (base: Omit<C, 'run' | 'enabled' | 'group'>, act: (ctx: InboxCommandContext, ids: number[]) => void): C => ({
  ...base,
  group: 'Triage',
  enabled: hasTargets,
  run: (ctx) => {
    const ids = ctx.triage.targets();
    if (ids.length) act(ctx, ids);
  },
});
const picker = (kind: PickerKind) => (ctx: InboxCommandContext, ids: number[]) => ctx.triage.openPicker(kind, ids);

const priorityLabel: Record<Priority, string> = { urgent: 'Urgent', high: 'High', medium: 'Medium', low: 'Low' };

const statusCommands: C[] = [
  onTargets({ id: 'triage.resolve', title: 'Resolve', keys: ['e'], keywords: 'done close status' }, (ctx, ids) => ctx.triage.setStatus(ids, 'resolved')),
  {
    id: 'triage.resolveNext',
    title: 'Resolve and open the next conversation',
    group: 'Triage',
    keys: ['shift+e'],
    keywords: 'done close status',
    enabled: (ctx) => ctx.selectedId !== undefined && ctx.triage.bulk.length === 0,
    run: (ctx) => ctx.triage.resolveAndNext(),
  },
  onTargets({ id: 'triage.reopen', title: 'Reopen', keywords: 'open status' }, (ctx, ids) => ctx.triage.setStatus(ids, 'open')),
  onTargets({ id: 'triage.pending', title: 'Mark as pending', keywords: 'status wait' }, (ctx, ids) => ctx.triage.setStatus(ids, 'pending')),
  onTargets({ id: 'triage.snooze', title: 'Snooze…', keys: ['s'], keywords: 'later remind status' }, picker('snooze')),
  ...snoozePresets.map((p) => onTargets({ id: `triage.snooze.${p.value}`, title: `Snooze ${p.label.toLowerCase()}`, keywords: 'later remind' }, (ctx, ids) => ctx.triage.snooze(ids, p.value))),
];

const peopleCommands: C[] = [
  onTargets({ id: 'triage.assign', title: 'Assign…', keys: ['a'], keywords: 'agent owner assignee' }, picker('assign')),
  onTargets({ id: 'triage.assignMe', title: 'Assign to me', keywords: 'agent take mine' }, (ctx, ids) => ctx.triage.assign(ids, ctx.triage.me)),
  onTargets({ id: 'triage.unassign', title: 'Unassign', keywords: 'agent remove assignee' }, (ctx, ids) => ctx.triage.assign(ids, null)),
  onTargets({ id: 'triage.team', title: 'Change team…', keys: ['t'], keywords: 'team move' }, picker('team')),
  onTargets({ id: 'triage.removeTeam', title: 'Remove the team', keywords: 'team none' }, (ctx, ids) => ctx.triage.assignTeam(ids, null)),
];

const tagCommands: C[] = [
  onTargets({ id: 'triage.labels', title: 'Labels…', keys: ['l'], keywords: 'tag label' }, picker('labels')),
  onTargets({ id: 'triage.priority', title: 'Priority…', keys: ['p'], keywords: 'urgent important' }, picker('priority')),
  ...priorities.map((p) => onTargets({ id: `triage.priority.${p}`, title: `Set priority: ${priorityLabel[p]}`, keywords: 'priority' }, (ctx, ids) => ctx.triage.setPriority(ids, p))),
  onTargets({ id: 'triage.priority.none', title: 'Remove the priority', keywords: 'priority none clear' }, (ctx, ids) => ctx.triage.setPriority(ids, null)),
  onTargets({ id: 'triage.unread', title: 'Mark as unread', keys: ['u'], keywords: 'unseen new' }, (ctx, ids) => ctx.triage.markUnread(ids)),
  onTargets({ id: 'triage.read', title: 'Mark as read', keywords: 'seen' }, (ctx, ids) => ctx.triage.markRead(ids)),
];

/** Moves the cursor and takes both rows into the selection. */
function extend(ctx: InboxCommandContext, delta: number) {
  const ids = ctx.orderedIds();
  if (!ids.length) return;
  const at = ctx.activeId === undefined ? -1 : ids.indexOf(ctx.activeId);
  const from = at < 0 ? (delta > 0 ? 0 : ids.length - 1) : at;
  const to = at < 0 ? from : Math.min(ids.length - 1, Math.max(0, at + delta));
  ctx.triage.addToBulk([ids[from]!, ids[to]!]);
  ctx.setActive(ids[to]!);
  ctx.focusList();
}

const selectionCommands: C[] = [
  {
    id: 'select.toggle',
    title: 'Select or unselect the highlighted conversation',
    group: 'List',
    keys: ['x'],
    keywords: 'bulk check',
    enabled: (ctx) => (ctx.activeId ?? ctx.selectedId) !== undefined,
    run: (ctx) => ctx.triage.toggleBulk((ctx.activeId ?? ctx.selectedId)!),
  },
  { id: 'select.down', title: 'Extend the selection down', group: 'List', keys: ['shift+j', 'shift+ArrowDown'], keywords: 'bulk', run: (ctx) => extend(ctx, 1) },
  { id: 'select.up', title: 'Extend the selection up', group: 'List', keys: ['shift+k', 'shift+ArrowUp'], keywords: 'bulk', run: (ctx) => extend(ctx, -1) },
  { id: 'select.all', title: 'Select every conversation in the list', group: 'List', keywords: 'bulk all', enabled: (ctx) => ctx.orderedIds().length > 0, run: (ctx) => ctx.triage.setBulk([...ctx.orderedIds()]) },
  { id: 'select.clear', title: 'Clear the selection', group: 'List', keywords: 'bulk none unselect', enabled: (ctx) => ctx.triage.bulk.length > 0, run: (ctx) => ctx.triage.setBulk([]) },
];

const messageCommands: C[] = [
  { id: 'messages.retry', title: 'Retry unsent messages', group: 'Conversation', keywords: 'send again failed', enabled: (ctx) => ctx.selectedId !== undefined && ctx.triage.unsent().waiting + ctx.triage.unsent().failed > 0, run: (ctx) => ctx.triage.retryUnsent() },
  { id: 'messages.discard', title: 'Discard messages that were not sent', group: 'Conversation', keywords: 'failed delete drop', enabled: (ctx) => ctx.selectedId !== undefined && ctx.triage.unsent().failed > 0, run: (ctx) => ctx.triage.discardFailed() },
];

const hasConflict = (ctx: InboxCommandContext) => ctx.triage.conflict() !== undefined;
const onConflict = (choice: 'apply' | 'drop') => (ctx: InboxCommandContext) => {
  const seq = ctx.triage.conflict();
  if (seq !== undefined) ctx.triage.resolveConflict(seq, choice);
};
/** Someone else changed the same thing first: the agent keeps theirs or drops it, one key each. */
const conflictCommands: C[] = [
  { id: 'conflict.apply', title: 'Apply my change anyway', group: 'Conflicts', keys: ['y'], keywords: 'conflict keep mine overwrite', enabled: hasConflict, run: onConflict('apply') },
  { id: 'conflict.drop', title: 'Drop my change (keep theirs)', group: 'Conflicts', keys: ['d'], keywords: 'conflict discard theirs', enabled: hasConflict, run: onConflict('drop') },
];

/** One command per agent, team and label: the palette sets them directly. */
function valueCommands(ctx: InboxCommandContext): C[] {
  if (!hasTargets(ctx)) return [];
  return [
    ...ctx.directory.agents.map((a): C => ({ id: `assign.${a.id}`, title: `Assign to ${a.available_name || a.name}`, group: 'Triage', keywords: 'agent assignee', run: (c) => c.triage.assign(c.triage.targets(), { id: a.id, name: a.available_name || a.name }) })),
    ...ctx.directory.teams.map((t): C => ({ id: `team.${t.id}`, title: `Move to team ${t.name}`, group: 'Triage', keywords: 'team assign', run: (c) => c.triage.assignTeam(c.triage.targets(), { id: t.id, name: t.name }) })),
    ...ctx.directory.labels.map((l): C => ({ id: `label.add.${l.id}`, title: `Add label ${l.title}`, group: 'Triage', keywords: 'tag', run: (c) => c.triage.changeLabels(c.triage.targets(), { add: [l.title] }) })),
    ...ctx.triage.targetLabels().map((l): C => ({ id: `label.remove.${l}`, title: `Remove label ${l}`, group: 'Triage', keywords: 'tag untag', run: (c) => c.triage.changeLabels(c.triage.targets(), { remove: [l] }) })),
  ];
}

export function registerTriageCommands(registry: CommandRegistry<InboxCommandContext>): CommandRegistry<InboxCommandContext> {
  return registry.register(...statusCommands, ...peopleCommands, ...tagCommands, ...selectionCommands, ...messageCommands, ...conflictCommands).provide(valueCommands);
}
