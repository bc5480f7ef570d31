// Ctrl/Cmd+K: every command of the registry (and data-driven ones: filters, "#123"), searchable,
// run with Enter. A modal dialog: focus stays inside until it closes.
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { InboxCommandContext } from '../commands/inbox-commands';
import { displayChord } from '../commands/keys';
import type { CommandRegistry } from '../commands/registry';
import { UntrustedText } from './UntrustedText';

export function CommandPalette(props: { registry: CommandRegistry<InboxCommandContext>; context: () => InboxCommandContext; onClose(): void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const { registry, context } = props;
  const results = useMemo(() => registry.search(context(), query).slice(0, 50), [registry, context, query]);
  const activeIndex = Math.min(active, Math.max(0, results.length - 1));

  // In the commit that shows it (as PickerDialog): keys typed right away reach the field.
  useLayoutEffect(() => {
    input.current?.focus();
  }, []);

  const run = (i: number) => {
    const command = results[i];
    if (!command) return;
    props.onClose();
    command.run(context());
  };

  return (
    <div className="overlay" onMouseDown={props.onClose}>
      <div role="dialog" aria-modal="true" aria-label="Command palette" className="palette" onMouseDown={(e) => e.stopPropagation()}>
        <input
          ref={input}
          role="combobox"
          aria-label="Type a command, a filter, or a conversation number"
          aria-controls="palette-results"
          aria-expanded="true"
          aria-activedescendant={results.length ? `palette-item-${activeIndex}` : undefined}
          aria-autocomplete="list"
          placeholder="Type a command, a filter, or #number…"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              if (results.length) setActive((activeIndex + (e.key === 'ArrowDown' ? 1 : results.length - 1)) % results.length);
            } else if (e.key === 'Enter') {
              e.preventDefault();
              run(activeIndex);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              props.onClose();
            } else if (e.key === 'Tab') {
              e.preventDefault(); // focus stays in the dialog
            }
          }}
        />
        <ul id="palette-results" role="listbox" aria-label="Commands">
          {results.map((c, i) => (
            <li
              key={c.id}
              id={`palette-item-${i}`}
              role="option"
              aria-selected={i === activeIndex}
              className={i === activeIndex ? 'active' : undefined}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => run(i)}
            >
              <span className="command-group">{c.group}</span>
              <span className="command-title">
                <UntrustedText text={c.title} />
              </span>
              {c.keys?.[0] && <kbd>{displayChord(c.keys[0])}</kbd>}
            </li>
          ))}
          {results.length === 0 && (
            <li role="option" aria-selected="false" aria-disabled="true" className="muted">
              No matching command
            </li>
          )}
        </ul>
      </div>
    </div>
  );
}
