// Shown while conversations are selected for a bulk action (x, Shift+J/K, or "Select every
// conversation"): how many, and the actions that then apply to all of them. The same keys work
// without it (e, s, a, t, l, p, u; Esc clears); the buttons are there for the mouse and to show them.
import { displayChord } from '../commands/keys';
import type { PickerKind } from '../state/ui';

export interface BulkBarActions {
  resolve(): void;
  markUnread(): void;
  open(kind: PickerKind): void;
  clear(): void;
}

const pickers: { kind: PickerKind; label: string; key: string }[] = [
  { kind: 'snooze', label: 'Snooze…', key: 's' },
  { kind: 'assign', label: 'Assign…', key: 'a' },
  { kind: 'team', label: 'Team…', key: 't' },
  { kind: 'labels', label: 'Labels…', key: 'l' },
  { kind: 'priority', label: 'Priority…', key: 'p' },
];

export function BulkBar(props: { count: number; actions: BulkBarActions }) {
  const { actions } = props;
  return (
    <div role="toolbar" aria-label="Bulk actions" className="bulk-bar" data-testid="bulk-bar">
      <span className="bulk-count" role="status">
        {props.count} selected
      </span>
      <button type="button" onClick={actions.resolve} aria-keyshortcuts="e">
        Resolve <kbd>E</kbd>
      </button>
      {pickers.map((p) => (
        <button key={p.kind} type="button" onClick={() => actions.open(p.kind)} aria-keyshortcuts={p.key}>
          {p.label} <kbd>{displayChord(p.key)}</kbd>
        </button>
      ))}
      <button type="button" onClick={actions.markUnread} aria-keyshortcuts="u">
        Mark unread <kbd>U</kbd>
      </button>
      <button type="button" className="link-button" onClick={actions.clear} aria-keyshortcuts="Escape">
        Clear <kbd>Esc</kbd>
      </button>
    </div>
  );
}
