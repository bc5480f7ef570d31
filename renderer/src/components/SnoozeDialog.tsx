// Snooze: the presets (until next reply, 1 hour, tomorrow 9:00, next Monday 9:00) with the time
// each one means shown beside it, or a custom date and time in a native date-time field (typed
// or stepped with the arrow keys). Times are the agent's local time.
import { useId, useLayoutEffect, useRef, useState } from 'react';
import type { SnoozePreset } from '../actions/snooze';
import { customSnoozeProblem, formatSnooze, fromLocalInputValue, snoozePresets, snoozeUntil, toEpochSeconds, toLocalInputValue } from '../actions/snooze';
import { PickerDialog, targetsLabel } from './PickerDialog';

const CUSTOM = 'custom';

export function SnoozeDialog(props: { targets: readonly number[]; onClose(): void; onSnooze(until: number | null): void; now?: () => Date }) {
  const now = props.now ?? (() => new Date());
  const [custom, setCustom] = useState(false);
  if (custom) return <CustomSnooze {...props} now={now} onBack={() => setCustom(false)} />;
  const at = now();
  const options = [
    ...snoozePresets.map((p) => {
      const until = snoozeUntil(p.value, at);
      return { id: p.value, label: p.label, detail: until ? formatSnooze(until, at) : 'Reopens when the contact writes' };
    }),
    { id: CUSTOM, label: 'Until a date and time…', detail: 'Choose when' },
  ];
  return (
    <PickerDialog
      title="Snooze"
      inputLabel="Filter snooze options"
      options={options}
      note={<span className="muted">For {targetsLabel(props.targets)}</span>}
      onClose={props.onClose}
      onPick={(o) => {
        if (o.id === CUSTOM) {
          // The custom form takes the list's place in the same dialog.
          setCustom(true);
          return 'keep-open';
        }
        const until = snoozeUntil(o.id as SnoozePreset, now());
        props.onSnooze(until ? toEpochSeconds(until) : null);
      }}
    />
  );
}

function CustomSnooze(props: { targets: readonly number[]; onClose(): void; onSnooze(until: number): void; now: () => Date; onBack(): void }) {
  const uid = useId();
  const start = snoozeUntil('tomorrow', props.now())!;
  const [value, setValue] = useState(toLocalInputValue(start));
  const [problem, setProblem] = useState<string>();
  const field = useRef<HTMLInputElement>(null);
  // In the commit that shows it (as PickerDialog): keys typed right away reach the field.
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    field.current?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, []);
  const chosen = fromLocalInputValue(value);
  const submit = () => {
    const why = customSnoozeProblem(chosen, props.now());
    if (why) {
      setProblem(why);
      field.current?.focus();
      return;
    }
    props.onClose();
    props.onSnooze(toEpochSeconds(chosen!));
  };
  return (
    <div className="overlay" onMouseDown={props.onClose}>
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${uid}-title`}
        className="palette picker"
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            props.onClose();
          }
        }}
      >
        <h2 id={`${uid}-title`} className="picker-title">
          Snooze until a date and time
        </h2>
        <form
          className="custom-snooze"
          // Our own check and message (the same in every browser), not the native bubble.
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <label htmlFor={`${uid}-when`}>Date and time (your time zone)</label>
          <input
            ref={field}
            id={`${uid}-when`}
            type="datetime-local"
            value={value}
            min={toLocalInputValue(props.now())}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${uid}-result`}
            onChange={(e) => {
              setValue(e.target.value);
              setProblem(undefined);
            }}
          />
          <p id={`${uid}-result`} className={problem ? 'error' : 'muted'} role={problem ? 'alert' : undefined}>
            {problem ?? customSnoozeProblem(chosen, props.now()) ?? `Snoozed until ${formatSnooze(chosen!, props.now())}`}
          </p>
          <footer className="picker-footer">
            <span className="muted">For {targetsLabel(props.targets)}</span>
            <button type="submit" className="send">
              Snooze
            </button>
            <button type="button" className="link-button" onClick={props.onBack}>
              Back
            </button>
            <button type="button" className="link-button" onClick={props.onClose}>
              Cancel
            </button>
          </footer>
        </form>
      </div>
    </div>
  );
}
