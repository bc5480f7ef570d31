// One command registry feeds the shortcuts, the palette and the shortcuts sheet. Shortcuts never
// fire while the agent types in a field; the palette finds commands, filters and "#number".
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { InboxCommandContext } from '../../renderer/src/commands/inbox-commands';
import { createInboxCommands } from '../../renderer/src/commands/inbox-commands';
import { chordOf } from '../../renderer/src/commands/keys';
import { CommandRegistry } from '../../renderer/src/commands/registry';
import { useShortcuts } from '../../renderer/src/commands/use-shortcuts';
import { CommandPalette } from '../../renderer/src/components/CommandPalette';
import { ShortcutsSheet } from '../../renderer/src/components/ShortcutsSheet';
import { fakeInboxContext } from './support/fake-commands';

const fakeContext = fakeInboxContext;

function Harness({ ctx }: { ctx: () => InboxCommandContext }) {
  const registry = createInboxCommands();
  useShortcuts(registry, ctx);
  return (
    <div>
      <input aria-label="Search" />
      <textarea aria-label="Reply" />
      <button type="button">A button</button>
      <div data-shortcut-scope="list" tabIndex={0} aria-label="List" role="listbox" />
    </div>
  );
}

describe('shortcuts', () => {
  it('move, open and focus from the keyboard', async () => {
    const user = userEvent.setup();
    const { state, ctx } = fakeContext();
    render(<Harness ctx={ctx} />);
    await user.keyboard('jj');
    expect(state.activeId).toBe(12);
    await user.keyboard('k{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(state.activeId).toBe(13);
    await user.keyboard('{Enter}');
    expect(state.opened).toEqual([13]);
    await user.keyboard('rn/');
    expect(state.composer).toEqual(['reply', 'note']);
    expect(state.searchFocused).toBe(1);
    await user.keyboard('3');
    expect(state.view.tab).toBe('all');
    await user.keyboard('?');
    expect(state.overlay).toBe('shortcuts');
  });

  it('do not fire while typing in a field, except the palette chord', async () => {
    const user = userEvent.setup();
    const { state, ctx } = fakeContext();
    render(<Harness ctx={ctx} />);
    await user.click(screen.getByLabelText('Reply'));
    await user.keyboard('jkrn/3?');
    await user.click(screen.getByLabelText('Search'));
    await user.keyboard('jj{Enter}');
    expect(state).toMatchObject({ activeId: undefined, opened: [], composer: [], searchFocused: 0 });
    expect(state.view.tab).toBe('me');
    expect((screen.getByLabelText('Reply') as HTMLTextAreaElement).value).toBe('jkrn/3?');
    await user.keyboard('{Control>}k{/Control}');
    expect(state.overlay).toBe('palette');
  });

  it('leave Enter and arrows to buttons, but take them in the list', async () => {
    const user = userEvent.setup();
    const { state, ctx } = fakeContext({ open: vi.fn() });
    render(<Harness ctx={ctx} />);
    screen.getByRole('button', { name: 'A button' }).focus();
    await user.keyboard('{ArrowDown}');
    expect(state.activeId).toBeUndefined();
    await user.keyboard('j');
    expect(state.activeId).toBe(11); // letters still work on a button
    screen.getByRole('listbox', { name: 'List' }).focus();
    await user.keyboard('{ArrowDown}');
    expect(state.activeId).toBe(12);
  });

  it('write chords the same way the registry does', () => {
    const ev = (key: string, mods: Partial<KeyboardEvent> = {}) => chordOf({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });
    expect(ev('j')).toBe('j');
    expect(ev('J', { shiftKey: true })).toBe('shift+j');
    expect(ev('?', { shiftKey: true })).toBe('?');
    expect(ev('k', { ctrlKey: true })).toBe('mod+k');
    expect(ev('ArrowDown', { shiftKey: true })).toBe('shift+ArrowDown');
  });

  it('refuses two commands on one key', () => {
    const run = () => undefined;
    expect(() => new CommandRegistry().register({ id: 'a', title: 'A', group: 'List', keys: ['x'], run }, { id: 'b', title: 'B', group: 'List', keys: ['x'], run })).toThrow(/already taken/);
  });
});

describe('command palette', () => {
  it('finds commands, data-driven filters and conversations by number, and runs them', async () => {
    const user = userEvent.setup();
    const { state, ctx } = fakeContext();
    const onClose = vi.fn();
    render(<CommandPalette registry={createInboxCommands()} context={ctx} onClose={onClose} />);
    const input = screen.getByRole('combobox');
    expect(document.activeElement).toBe(input);
    await user.type(input, 'email');
    expect(within(screen.getByRole('listbox')).getAllByRole('option')[0]!.textContent).toContain('Inbox: Email support');
    await user.keyboard('{Enter}');
    expect(state.view.inboxId).toBe(4);
    expect(onClose).toHaveBeenCalled();

    await user.clear(input);
    await user.type(input, 'status pend');
    await user.keyboard('{Enter}');
    expect(state.view.status).toBe('pending');

    await user.clear(input);
    await user.type(input, '#123');
    expect(within(screen.getByRole('listbox')).getAllByRole('option')[0]!.textContent).toContain('Open conversation #123');
    await user.keyboard('{Enter}');
    expect(state.opened).toEqual([123]);

    await user.clear(input);
    await user.type(input, 'zzzz');
    expect(screen.getByText('No matching command')).toBeTruthy();
  });
});

describe('shortcuts sheet', () => {
  it('lists every command that has a key, from the registry', () => {
    const registry = createInboxCommands();
    render(<ShortcutsSheet registry={registry} onClose={() => undefined} />);
    const sheet = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    const withKeys = registry.all().filter((c) => c.keys?.length);
    expect(withKeys.length).toBeGreaterThan(10);
    const listed = Array.from(sheet.querySelectorAll('dd')).map((dd) => dd.textContent);
    expect(listed.sort()).toEqual(withKeys.map((c) => c.title).sort());
  });
});
