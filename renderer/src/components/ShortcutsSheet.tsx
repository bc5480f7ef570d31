// `?`: every shortcut, generated from the command registry, so the sheet can never disagree with
// what the keys do.
import { useEffect, useRef } from 'react';
import type { InboxCommandContext } from '../commands/inbox-commands';
import { displayChord } from '../commands/keys';
import type { Command, CommandRegistry } from '../commands/registry';

export function ShortcutsSheet(props: { registry: CommandRegistry<InboxCommandContext>; onClose(): void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  const groups = new Map<string, Command<InboxCommandContext>[]>();
  for (const c of props.registry.all()) {
    if (!c.keys?.length) continue;
    groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  }
  return (
    <div className="overlay" onMouseDown={props.onClose}>
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        className="sheet"
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            props.onClose();
          }
        }}
      >
        <header className="pane-header">
          <h2 id="shortcuts-title">Keyboard shortcuts</h2>
          <button ref={close} type="button" className="link-button" onClick={props.onClose}>
            Close
          </button>
        </header>
        <div className="sheet-groups" tabIndex={0} role="region" aria-label="All shortcuts">
          {[...groups].map(([group, commands]) => (
            <section key={group} aria-labelledby={`shortcuts-${group}`}>
              <h3 id={`shortcuts-${group}`}>{group}</h3>
              <dl>
                {commands.map((c) => (
                  <div key={c.id}>
                    <dt>
                      {c.keys!.map((k) => (
                        <kbd key={k}>{displayChord(k)}</kbd>
                      ))}
                    </dt>
                    <dd>{c.title}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
        <p className="muted">Shortcuts do not fire while you type in a field. Press Esc to leave it.</p>
      </div>
    </div>
  );
}
