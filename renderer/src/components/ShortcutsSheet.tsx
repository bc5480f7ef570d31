// `?`: every shortcut, generated from the command registry, so the sheet can never disagree with
// what the keys do.
import type { InboxCommandContext } from '../commands/inbox-commands';
import { displayChord } from '../commands/keys';
import type { Command, CommandRegistry } from '../commands/registry';
import { ModalSheet } from './ModalSheet';

export function ShortcutsSheet(props: { registry: CommandRegistry<InboxCommandContext>; onClose(): void }) {
  const groups = new Map<string, Command<InboxCommandContext>[]>();
  for (const c of props.registry.all()) {
    if (!c.keys?.length) continue;
    groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  }
  return (
    <ModalSheet titleId="shortcuts-title" title="Keyboard shortcuts" onClose={props.onClose}>
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
    </ModalSheet>
  );
}
