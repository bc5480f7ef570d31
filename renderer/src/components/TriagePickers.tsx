// The pickers behind a, t, l and p (and the bulk bar): agent (with each one's availability), team, labels, priority, each over
// the conversations the picker was opened for. What they have now is marked; choosing queues the
// change through the write path. Labels are ticked per label across the selection, and each
// conversation then gets its own full set.
import { useLiveQuery } from 'dexie-react-hooks';
import type { Priority } from '../../../shared/api/records';
import type { ActionContext } from '../actions/agent-actions';
import * as triage from '../actions/agent-actions';
import type { CachedConversation } from '../db/schema';
import type { Directory } from '../directory/use-directory';
import { useSession } from '../platform/session';
import type { PickerKind } from '../state/ui';
import { useUi } from '../state/ui';
import type { PickerOption, Tick } from './PickerDialog';
import { PickerDialog, targetsLabel } from './PickerDialog';
import { SnoozeDialog } from './SnoozeDialog';
import { useAgentAvailability } from './ColleaguePresence';
import { availabilityWords } from '../live/presence';

const NONE = 'none';


/** The one value all targets share, or undefined when they differ. */
function shared<T>(rows: readonly CachedConversation[], f: (c: CachedConversation) => T): T | undefined {
  const values = new Set(rows.map(f));
  return values.size === 1 ? rows.map(f)[0] : undefined;
}

/** The targets as cached; undefined until read (a picker shows their current values from the start). */
function useTargetRows(ids: readonly number[]): CachedConversation[] | undefined {
  const { db } = useSession();
  const key = ids.join(',');
  return useLiveQuery(async () => (await db.conversations.bulkGet([...ids])).filter((c): c is CachedConversation => Boolean(c)), [db, key]);
}

export function TriagePickers(props: { kind: PickerKind; targets: number[]; directory: Directory; onClose(): void }) {
  const { client } = useSession();
  const loaded = useTargetRows(props.targets);
  const availability = useAgentAvailability();
  const ctx: ActionContext = client.actions.context;
  const ids = props.targets;
  const notify = useUi((s) => s.notify);
  const queued = (p: Promise<unknown>) => void p.catch(() => notify('That change could not be saved on this computer. Nothing was sent.'));
  const note = <span className="muted">For {targetsLabel(ids)}</span>;
  const common = { onClose: props.onClose, note };
  if (!loaded) return null;
  const rows = loaded;

  switch (props.kind) {
    case 'snooze':
      return <SnoozeDialog targets={ids} onClose={props.onClose} onSnooze={(until) => queued(triage.setStatus(ctx, ids, 'snoozed', until))} />;
    case 'assign': {
      const current = shared(rows, (c) => c.assigneeId);
      const options: PickerOption[] = [
        { id: NONE, label: 'Unassigned', current: current === 0 },
        ...props.directory.agents.map((a) => {
          const state = availability(a);
          return { id: String(a.id), label: a.available_name || a.name, detail: a.email, badge: { text: availabilityWords[state], className: `availability ${state}` }, current: current === a.id };
        }),
      ];
      return (
        <PickerDialog
          {...common}
          title="Assign to"
          inputLabel="Filter agents"
          options={options}
          onPick={(o) => queued(triage.assign(ctx, ids, o.id === NONE ? null : { id: Number(o.id), name: o.label }))}
        />
      );
    }
    case 'team': {
      const current = shared(rows, (c) => c.teamId);
      const options: PickerOption[] = [
        { id: NONE, label: 'No team', current: current === 0 },
        ...props.directory.teams.map((t) => ({ id: String(t.id), label: t.name, ...(t.description ? { detail: t.description } : {}), current: current === t.id })),
      ];
      return <PickerDialog {...common} title="Move to team" inputLabel="Filter teams" options={options} onPick={(o) => queued(triage.assignTeam(ctx, ids, o.id === NONE ? null : { id: Number(o.id), name: o.label }))} />;
    }
    case 'priority': {
      const current = shared(rows, (c) => c.priority);
      const values: (Priority | null)[] = ['urgent', 'high', 'medium', 'low', null];
      const options = values.map((p) => ({ id: p ?? NONE, label: p ? p[0]!.toUpperCase() + p.slice(1) : 'No priority', current: current === p }));
      return <PickerDialog {...common} title="Priority" inputLabel="Filter priorities" options={options} onPick={(o) => queued(triage.setPriority(ctx, ids, o.id === NONE ? null : (o.id as Priority)))} />;
    }
    case 'labels': {
      const onTargets = new Set(rows.flatMap((c) => c.labels));
      const titles = [...new Set([...props.directory.labels.map((l) => l.title), ...onTargets])].sort();
      const initial: Record<string, Tick> = {};
      for (const t of titles) {
        const having = rows.filter((c) => c.labels.includes(t)).length;
        initial[t] = having === 0 ? false : having === rows.length ? true : 'mixed';
      }
      const details = new Map(props.directory.labels.map((l) => [l.title, l.description ?? '']));
      const options = titles.map((t) => ({ id: t, label: t, ...(details.get(t) ? { detail: details.get(t)! } : {}) }));
      return (
        <PickerDialog
          {...common}
          multi
          title="Labels"
          inputLabel="Filter labels"
          options={options}
          initial={initial}
          onApply={(ticks) => {
            // Only what the agent changed: a label some of them have stays as it is on each.
            const add = titles.filter((t) => ticks[t] === true && initial[t] !== true);
            const remove = titles.filter((t) => ticks[t] === false && initial[t] !== false);
            if (add.length || remove.length) queued(triage.changeLabels(ctx, ids, { add, remove }));
          }}
        />
      );
    }
  }
}
