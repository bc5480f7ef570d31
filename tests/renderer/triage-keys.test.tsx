// Every triage action has a key or a palette entry (most have both), acting on the bulk selection
// when there is one, else on the conversation in front of the agent; none fires while the agent
// types in a field. Bulk selection by keyboard: x toggles, Shift+J/K extend, Esc clears.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { InboxCommandContext } from '../../renderer/src/commands/inbox-commands';
import { createInboxCommands } from '../../renderer/src/commands/inbox-commands';
import { useShortcuts } from '../../renderer/src/commands/use-shortcuts';
import { CommandPalette } from '../../renderer/src/components/CommandPalette';
import { fakeInboxContext } from './support/fake-commands';

function Harness({ ctx }: { ctx: () => InboxCommandContext }) {
  useShortcuts(createInboxCommands(), ctx);
  return (
    <div>
      <input aria-label="Search" />
      <textarea aria-label="Reply" />
      <div data-shortcut-scope="list" tabIndex={0} aria-label="List" role="listbox" />
    </div>
  );
}

describe('triage keys', () => {
  it('e s a t l p u (and Shift+E) act on the open conversation', async () => {
    const user = userEvent.setup();
    const { state, ctx } = fakeInboxContext();
    state.opened.push(12);
    render(<Harness ctx={ctx} />);
    await user.keyboard('e');
    for (const key of ['s', 'a', 't', 'l', 'p']) {
      state.overlay = undefined;
      await user.keyboard(key);
    }
    // Each picker closed again (a key while one is up belongs to it: below).
    state.overlay = undefined;
    await user.keyboard('u');
    await user.keyboard('{Shift>}E{/Shift}');
    expect(state.triage).toEqual([
      { op: 'status', ids: [12], arg: 'resolved' },
      { op: 'picker:snooze', ids: [12] },
      { op: 'picker:assign', ids: [12] },
      { op: 'picker:team', ids: [12] },
      { op: 'picker:labels', ids: [12] },
      { op: 'picker:priority', ids: [12] },
      { op: 'unread', ids: [12] },
      { op: 'resolveAndNext' },
    ]);
  });

  it('typed right behind the key that opens a picker, before its field has focus, go to no command; Esc still closes it', async () => {
    // A picker shows once it has read its conversations, then focuses its field: an agent typing
    // "Sam" right after `a` had Snooze open (`s`); an `e` would have resolved the conversation.
    const user = userEvent.setup();
    const { state, ctx } = fakeInboxContext();
    state.opened.push(12);
    render(<Harness ctx={ctx} />);
    screen.getByRole('listbox', { name: 'List' }).focus();
    await user.keyboard('a');
    expect(state.overlay).toBe('assign');
    await user.keyboard('Sam e');
    expect(state.triage).toEqual([{ op: 'picker:assign', ids: [12] }]);
    expect(state.overlay).toBe('assign');
    await user.keyboard('{Escape}');
    expect(state.overlay).toBeUndefined();
    await user.keyboard('e');
    expect(state.triage).toEqual([{ op: 'picker:assign', ids: [12] }, { op: 'status', ids: [12], arg: 'resolved' }]);
  });

  it('act on the highlighted row when nothing is open, and do nothing with no target', async () => {
    const user = userEvent.setup();
    const { state, ctx } = fakeInboxContext();
    render(<Harness ctx={ctx} />);
    await user.keyboard('e');
    expect(state.triage).toEqual([]);
    await user.keyboard('jje');
    expect(state.triage).toEqual([{ op: 'status', ids: [12], arg: 'resolved' }]);
    // Resolve-and-next needs an open conversation.
    await user.keyboard('{Shift>}E{/Shift}');
    expect(state.triage).toHaveLength(1);
  });

  it('do not fire while typing in a field', async () => {
    const user = userEvent.setup();
    const { state, ctx } = fakeInboxContext();
    state.opened.push(12);
    render(<Harness ctx={ctx} />);
    await user.click(screen.getByLabelText('Reply'));
    await user.keyboard('esatlpux{Shift>}EJK{/Shift}');
    await user.click(screen.getByLabelText('Search'));
    await user.keyboard('esatlpux');
    expect(state.triage).toEqual([]);
    expect(state.bulk).toEqual([]);
    expect((screen.getByLabelText('Reply') as HTMLTextAreaElement).value).toBe('esatlpuxEJK');
  });

  it('x toggles the highlighted row, Shift+J/K extend, then actions apply to the selection; Esc clears it', async () => {
    const user = userEvent.setup();
    const { state, ctx } = fakeInboxContext({}, [11, 12, 13, 14]);
    state.opened.push(11);
    render(<Harness ctx={ctx} />);
    screen.getByRole('listbox', { name: 'List' }).focus();
    await user.keyboard('jx');
    expect(state.bulk).toEqual([11]);
    await user.keyboard('xx');
    expect(state.bulk).toEqual([11]);
    await user.keyboard('{Shift>}JJ{/Shift}');
    expect(state.bulk).toEqual([11, 12, 13]);
    expect(state.activeId).toBe(13);
    await user.keyboard('{Shift>}{ArrowUp}{/Shift}');
    expect(state.activeId).toBe(12);
    await user.keyboard('e');
    await user.keyboard('l');
    expect(state.triage).toEqual([
      { op: 'status', ids: [11, 12, 13], arg: 'resolved' },
      { op: 'picker:labels', ids: [11, 12, 13] },
    ]);
    state.overlay = undefined;
    await user.keyboard('{Escape}');
    expect(state.bulk).toEqual([]);
  });
});

describe('the palette offers every triage action', () => {
  const run = async (ctx: () => InboxCommandContext, query: string, expectTitle: string) => {
    const user = userEvent.setup();
    const view = render(<CommandPalette registry={createInboxCommands()} context={ctx} onClose={() => undefined} />);
    await user.type(screen.getByRole('combobox'), query);
    expect(within(screen.getByRole('listbox')).getAllByRole('option')[0]!.textContent).toContain(expectTitle);
    await user.keyboard('{Enter}');
    view.unmount();
  };

  // Types some forty queries through user-event: a busy machine needs more than the default five seconds.
  it('status, snooze presets, people, team, labels, priority, read markers, selection, unsent messages', async () => {
    const { state, ctx } = fakeInboxContext();
    state.opened.push(12);
    state.labelsOnTargets = ['billing'];
    state.unsent = { waiting: 0, failed: 1 };
    state.conflict = 77;
    const cases: [string, string][] = [
      ['resolve', 'Resolve'],
      ['resolve and open', 'Resolve and open the next conversation'],
      ['reopen', 'Reopen'],
      ['mark as pending', 'Mark as pending'],
      ['snooze…', 'Snooze…'],
      ['snooze next reply', 'Snooze until next reply'],
      ['snooze 1 hour', 'Snooze for 1 hour'],
      ['snooze tomorrow', 'Snooze until tomorrow'],
      ['snooze next week', 'Snooze until next week'],
      ['assign…', 'Assign…'],
      ['assign to me', 'Assign to me'],
      ['assign to priya', 'Assign to Priya Shah'],
      ['unassign', 'Unassign'],
      ['change team', 'Change team…'],
      ['move to team billing', 'Move to team billing'],
      ['remove the team', 'Remove the team'],
      ['labels…', 'Labels…'],
      ['add label vip', 'Add label vip'],
      ['remove label billing', 'Remove label billing'],
      ['priority…', 'Priority…'],
      ['set priority urgent', 'Set priority: Urgent'],
      ['remove the priority', 'Remove the priority'],
      ['mark as unread', 'Mark as unread'],
      ['mark as read', 'Mark as read'],
      ['retry unsent', 'Retry unsent messages'],
      ['discard messages', 'Discard messages that were not sent'],
      ['select every', 'Select every conversation in the list'],
      ['apply my change', 'Apply my change anyway'],
      ['keep theirs', 'Drop my change (keep theirs)'],
    ];
    for (const [query, title] of cases) {
      state.overlay = undefined;
      await run(ctx, query, title);
    }
    expect(state.triage).toEqual([
      { op: 'status', ids: [12], arg: 'resolved' },
      { op: 'resolveAndNext' },
      { op: 'status', ids: [12], arg: 'open' },
      { op: 'status', ids: [12], arg: 'pending' },
      { op: 'picker:snooze', ids: [12] },
      { op: 'snooze', ids: [12], arg: 'next_reply' },
      { op: 'snooze', ids: [12], arg: 'hour' },
      { op: 'snooze', ids: [12], arg: 'tomorrow' },
      { op: 'snooze', ids: [12], arg: 'next_week' },
      { op: 'picker:assign', ids: [12] },
      { op: 'assign', ids: [12], arg: { id: 2, name: 'Sam Patel' } },
      { op: 'assign', ids: [12], arg: { id: 4, name: 'Priya Shah' } },
      { op: 'assign', ids: [12], arg: null },
      { op: 'picker:team', ids: [12] },
      { op: 'team', ids: [12], arg: { id: 1, name: 'billing' } },
      { op: 'team', ids: [12], arg: null },
      { op: 'picker:labels', ids: [12] },
      { op: 'labels', ids: [12], arg: { add: ['vip'] } },
      { op: 'labels', ids: [12], arg: { remove: ['billing'] } },
      { op: 'picker:priority', ids: [12] },
      { op: 'priority', ids: [12], arg: 'urgent' },
      { op: 'priority', ids: [12], arg: null },
      { op: 'unread', ids: [12] },
      { op: 'read', ids: [12] },
      { op: 'retryUnsent' },
      { op: 'discardFailed' },
      { op: 'conflict:apply', arg: 77 },
      { op: 'conflict:drop', arg: 77 },
    ]);
    expect(state.bulk).toEqual([11, 12, 13]);
  }, 30_000);

  it('offers no triage action without a target', async () => {
    const user = userEvent.setup();
    const { ctx } = fakeInboxContext();
    render(<CommandPalette registry={createInboxCommands()} context={ctx} onClose={() => undefined} />);
    const input = screen.getByRole('combobox');
    for (const query of ['resolve', 'snooze', 'assign', 'label', 'priority', 'unread']) {
      await user.clear(input);
      await user.type(input, query);
      const groups = within(screen.getByRole('listbox')).getAllByRole('option').map((o) => o.querySelector('.command-group')?.textContent);
      expect(groups, query).not.toContain('Triage');
    }
  });
});
