// The triage pickers' shared dialog: type to filter, ↑/↓ (Home/End) to move, Enter to choose,
// Space to tick in a multi-pick (labels: ticked, unticked, or "some of them" for a bulk
// selection), Esc to cancel. The filter field keeps focus (aria-activedescendant points into the
// list), like the command palette; Tab stays inside the dialog. Focus returns where it was.
import { useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { UntrustedText } from './UntrustedText';

/** "#12" or "3 conversations": what a picker applies to. */
export const targetsLabel = (ids: readonly number[]) => (ids.length === 1 ? `#${ids[0]}` : `${ids.length} conversations`);

export interface PickerOption {
  id: string;
  label: string;
  detail?: string;
  /** A short state beside the label, in words (an agent's availability: "Online"), styled by `className`. */
  badge?: { text: string; className: string };
  /** What the target has now (single pick): marked "current". */
  current?: boolean;
}

export type Tick = boolean | 'mixed';

interface Common {
  title: string;
  /** The filter field's accessible name. */
  inputLabel: string;
  options: PickerOption[];
  onClose(): void;
  /** Shown under the list (a note on what the pick applies to). */
  note?: ReactNode;
}
/** `keep-open`: the pick leads somewhere else in the same dialog (snooze's custom time). */
type Single = Common & { multi?: false; onPick(option: PickerOption): void | 'keep-open' };
type Multi = Common & { multi: true; initial: Readonly<Record<string, Tick>>; onApply(ticks: Record<string, Tick>): void };

const matches = (o: PickerOption, q: string) => !q || `${o.label} ${o.detail ?? ''}`.toLowerCase().includes(q);

export function PickerDialog(props: Single | Multi) {
  const uid = useId();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [ticks, setTicks] = useState<Record<string, Tick>>(() => (props.multi ? { ...props.initial } : {}));
  const input = useRef<HTMLInputElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const q = query.trim().toLowerCase();
  const shown = useMemo(() => props.options.filter((o) => matches(o, q)), [props.options, q]);
  const activeIndex = Math.min(active, Math.max(0, shown.length - 1));
  // Where the agent was (the list, the conversation) when the dialog opened.
  const before = useRef<HTMLElement | null>(null);
  const focusBack = () => {
    const to = before.current;
    if (to?.isConnected && document.activeElement !== to) to.focus();
  };
  // The dialog closing itself gives the focus back first, in the key's handler: the page's style is
  // still the last frame's there, so `focus()` (which brings style up to date) restyles only what
  // the focus states touch (the field, the list, its outlined row: styles.css) besides leaving the
  // field, about 1.4 ms in a 50 µs profile. From the commit that removes the dialog it recalculated
  // the style of the rows that key changed, the dialog's removal included: 2.5-3.2 ms of a label,
  // assign or snooze key's task. Given back after the key's frame (the field removed while it had
  // the focus), the key's own task was shorter but its frame no sooner (bench/README.md,
  // twenty-seventh stop).
  const onClose = () => {
    focusBack();
    props.onClose();
  };

  // In the commit that shows the dialog, not after the frame: a key typed right behind the one
  // that opened it (Enter on a preset, a name) must reach the field, not the list below it.
  useLayoutEffect(() => {
    before.current = document.activeElement as HTMLElement | null;
    input.current?.focus();
    // Closed from outside (another overlay, the conversation gone): back to where the agent was.
    return focusBack;
  }, []);

  const toggle = (o: PickerOption | undefined) => {
    if (!o) return;
    setTicks((t) => ({ ...t, [o.id]: t[o.id] === true ? false : true }));
  };
  const choose = (o: PickerOption | undefined) => {
    if (props.multi) return toggle(o);
    if (!o) return;
    if (props.onPick(o) !== 'keep-open') onClose();
  };
  const apply = () => {
    if (!props.multi) return;
    onClose();
    props.onApply(ticks);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const n = shown.length;
    const move = (to: number) => {
      e.preventDefault();
      if (n) setActive((to + n) % n);
    };
    if (e.key === 'ArrowDown') move(activeIndex + 1);
    else if (e.key === 'ArrowUp') move(activeIndex - 1);
    else if (e.key === 'Home' && e.target === input.current && !query) move(0);
    else if (e.key === 'End' && e.target === input.current && !query) move(n - 1);
    else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    } else if (e.key === ' ' && props.multi && e.target === input.current) {
      e.preventDefault();
      toggle(shown[activeIndex]);
    } else if (e.key === 'Enter' && e.target === input.current) {
      e.preventDefault();
      if (props.multi) apply();
      else choose(shown[activeIndex]);
    } else if (e.key === 'Tab') {
      // Focus stays in the dialog: cycle through its own controls.
      const focusable = [...(dialog.current?.querySelectorAll<HTMLElement>('input, button:not([disabled])') ?? [])];
      const at = focusable.indexOf(document.activeElement as HTMLElement);
      e.preventDefault();
      focusable[(at + (e.shiftKey ? focusable.length - 1 : 1)) % focusable.length]?.focus();
    }
  };

  const listId = `${uid}-options`;
  const optionId = (i: number) => `${uid}-option-${i}`;
  return (
    <div className="overlay" onMouseDown={onClose}>
      <div ref={dialog} role="dialog" aria-modal="true" aria-labelledby={`${uid}-title`} className="palette picker" onMouseDown={(e) => e.stopPropagation()} onKeyDown={onKeyDown}>
        <h2 id={`${uid}-title`} className="picker-title">
          {props.title}
        </h2>
        <input
          ref={input}
          role="combobox"
          aria-label={props.inputLabel}
          aria-controls={listId}
          aria-expanded="true"
          aria-autocomplete="list"
          aria-activedescendant={shown.length ? optionId(activeIndex) : undefined}
          aria-describedby={`${uid}-keys`}
          placeholder="Type to filter…"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
        />
        <ul id={listId} role="listbox" aria-label={props.title} aria-multiselectable={props.multi ? true : undefined}>
          {shown.map((o, i) => {
            const tick = props.multi ? (ticks[o.id] ?? false) : undefined;
            return (
              <li
                key={o.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === activeIndex}
                aria-checked={tick}
                data-option-id={o.id}
                className={i === activeIndex ? 'active' : undefined}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => {
                  setActive(i);
                  choose(o);
                }}
              >
                {props.multi && (
                  <span className="tick" aria-hidden="true">
                    {tick === true ? '☑' : tick === 'mixed' ? '◩' : '☐'}
                  </span>
                )}
                <span className="command-title">
                  <UntrustedText text={o.label} />
                </span>
                {o.badge && <span className={o.badge.className}>{o.badge.text}</span>}
                {o.detail && (
                  <span className="muted option-detail">
                    <UntrustedText text={o.detail} />
                  </span>
                )}
                {o.current && <span className="chip">current</span>}
              </li>
            );
          })}
          {shown.length === 0 && (
            <li role="option" aria-selected="false" aria-disabled="true" className="muted">
              Nothing matches “{query}”
            </li>
          )}
        </ul>
        <footer className="picker-footer">
          <span id={`${uid}-keys`} className="muted">
            {props.multi ? 'Space ticks, Enter applies, Esc cancels.' : 'Enter chooses, Esc cancels.'}
          </span>
          {props.note}
          {props.multi && (
            <button type="button" className="send" onClick={apply}>
              Apply
            </button>
          )}
          <button type="button" className="link-button" onClick={onClose}>
            Cancel
          </button>
        </footer>
      </div>
    </div>
  );
}
