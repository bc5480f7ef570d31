// The triage pickers by keyboard alone: type to filter, arrows (wrapping), Enter, Space to tick,
// Esc to cancel, Tab kept inside, focus back where it was. Labels over a bulk selection show
// "some of them" and send each conversation its own full set. Snooze's custom time checks input.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PickerDialog } from '../../renderer/src/components/PickerDialog';
import { SnoozeDialog } from '../../renderer/src/components/SnoozeDialog';
import { TriagePickers } from '../../renderer/src/components/TriagePickers';
import { saveConversations } from '../../renderer/src/db/save';
import { useUi } from '../../renderer/src/state/ui';
import { conv } from './fixtures';
import { renderWithSession, silentBridge, testSession } from './support/render';

const options = [
  { id: 'a', label: 'Alex Rivera', detail: 'alex@acme.example' },
  { id: 'j', label: 'Jordan Lee', detail: 'jordan@acme.example', current: true },
  { id: 'p', label: 'Priya Shah', detail: 'priya@acme.example' },
];
const active = () => screen.getAllByRole('option').find((o) => o.getAttribute('aria-selected') === 'true');

beforeEach(() => useUi.setState({ notice: undefined, overlay: undefined }));

describe('PickerDialog', () => {
  it('filters as the agent types, moves with wrapping arrows, chooses with Enter', async () => {
    const user = userEvent.setup();
    const onPick = vi.fn();
    const onClose = vi.fn();
    render(<PickerDialog title="Assign to" inputLabel="Filter agents" options={options} onPick={onPick} onClose={onClose} />);
    const input = screen.getByRole('combobox', { name: 'Filter agents' });
    expect(document.activeElement).toBe(input);
    expect(screen.getByRole('option', { name: /Jordan Lee/ }).textContent).toContain('current');
    await user.keyboard('{ArrowUp}');
    expect(active()?.textContent).toContain('Priya Shah');
    await user.keyboard('{ArrowDown}');
    expect(active()?.textContent).toContain('Alex Rivera');
    expect(input.getAttribute('aria-activedescendant')).toBe(active()!.id);
    await user.keyboard('jor');
    expect(screen.getAllByRole('option').map((o) => o.getAttribute('data-option-id'))).toEqual(['j']);
    await user.keyboard('{Enter}');
    expect(onPick).toHaveBeenCalledWith(options[1]);
    expect(onClose).toHaveBeenCalled();
  });

  it('Esc cancels without choosing; Tab stays inside; focus goes back where it was', async () => {
    const user = userEvent.setup();
    const onPick = vi.fn();
    function Host() {
      const [open, setOpen] = useState(true);
      return open ? <PickerDialog multi title="Labels" inputLabel="Filter labels" options={options} initial={{}} onApply={onPick} onClose={() => setOpen(false)} /> : null;
    }
    const before = document.createElement('button');
    document.body.append(before);
    before.focus();
    render(<Host />);
    const dialog = screen.getByRole('dialog', { name: 'Labels' });
    await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.tab();
    await user.tab();
    await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
    within(dialog).getByRole('combobox').focus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onPick).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(before);
    before.remove();
  });

  it('in a multi-pick, Space ticks and unticks, Enter applies every tick (a mixed one untouched stays mixed)', async () => {
    const user = userEvent.setup();
    const onApply = vi.fn();
    render(<PickerDialog multi title="Labels" inputLabel="Filter labels" options={options} initial={{ a: 'mixed', j: true }} onApply={onApply} onClose={() => undefined} />);
    expect(screen.getAllByRole('option').map((o) => o.getAttribute('aria-checked'))).toEqual(['mixed', 'true', 'false']);
    await user.keyboard('{ArrowDown} {ArrowDown}   ');
    expect(screen.getAllByRole('option').map((o) => o.getAttribute('aria-checked'))).toEqual(['mixed', 'false', 'true']);
    await user.keyboard('{Enter}');
    expect(onApply).toHaveBeenCalledWith({ a: 'mixed', j: false, p: true });
  });
});

describe('labels over a bulk selection', () => {
  it('marks labels all / some / none of them have, and sends each conversation its own full set', async () => {
    const user = userEvent.setup();
    const session = testSession();
    const { db } = renderWithSession(<div />, { bridge: silentBridge, session });
    await saveConversations(db, [conv(1, { labels: ['billing', 'vip'] }), conv(2, { labels: ['vip'] })]);
    await db.labels.bulkPut([
      { id: 1, title: 'billing', description: '', color: '', show_on_sidebar: true },
      { id: 2, title: 'bug', description: 'Something broke', color: '', show_on_sidebar: true },
      { id: 3, title: 'vip', description: '', color: '', show_on_sidebar: true },
    ]);
    const directory = { inboxes: [], agents: [], teams: [], cannedResponses: [], labels: await db.labels.toArray() };
    const onClose = vi.fn();
    renderWithSession(<TriagePickers kind="labels" targets={[1, 2]} directory={directory} onClose={onClose} />, { bridge: silentBridge, session });
    const dialog = await screen.findByRole('dialog', { name: 'Labels' });
    expect(within(dialog).getByText('For 2 conversations')).toBeTruthy();
    const ticks = () => Object.fromEntries(within(dialog).getAllByRole('option').map((o) => [o.getAttribute('data-option-id'), o.getAttribute('aria-checked')]));
    expect(ticks()).toEqual({ billing: 'mixed', bug: 'false', vip: 'true' });
    // Tick "bug" for both, untick "vip" from both; "billing" stays as each has it.
    await user.keyboard('{ArrowDown} {ArrowDown} {Enter}');
    expect(onClose).toHaveBeenCalled();
    await waitFor(async () => expect(await db.outbox.count()).toBe(2));
    const sent = (await db.outbox.toArray()).map((e) => [e.conversationId, e.payload]);
    expect(sent).toEqual([
      [1, { kind: 'labels', labels: ['billing', 'bug'] }],
      [2, { kind: 'labels', labels: ['bug'] }],
    ]);
    expect((await db.conversations.get(1))!.labels).toEqual(['billing', 'bug']);
  });
});

describe('SnoozeDialog', () => {
  const now = () => new Date(2026, 10, 21, 15, 40);

  it('shows what each preset means, and snoozes until next reply without a time', async () => {
    const user = userEvent.setup();
    const onSnooze = vi.fn();
    render(<SnoozeDialog targets={[7]} now={now} onClose={() => undefined} onSnooze={onSnooze} />);
    const details = screen.getAllByRole('option').map((o) => o.querySelector('.option-detail')?.textContent);
    expect(details[0]).toBe('Reopens when the contact writes');
    expect(details[2]).toMatch(/^Sun 9:00/);
    expect(details[3]).toMatch(/^Mon 9:00/);
    await user.keyboard('{Enter}');
    expect(onSnooze).toHaveBeenCalledWith(null);
  });

  it('a custom time: the date-time field takes focus, a past time is refused with the reason, a good one is used', async () => {
    const user = userEvent.setup();
    const onSnooze = vi.fn();
    render(<SnoozeDialog targets={[7, 8]} now={now} onClose={() => undefined} onSnooze={onSnooze} />);
    await user.keyboard('date{Enter}');
    const field = screen.getByLabelText('Date and time (your time zone)') as HTMLInputElement;
    expect(document.activeElement).toBe(field);
    expect(screen.getByRole('dialog', { name: 'Snooze until a date and time' })).toBeTruthy();
    fireEvent.change(field, { target: { value: '2026-11-20T10:00' } });
    await user.click(screen.getByRole('button', { name: 'Snooze' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose a time in the future.');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(onSnooze).not.toHaveBeenCalled();
    fireEvent.change(field, { target: { value: '2026-11-25T14:30' } });
    expect(screen.getByText(/^Snoozed until Wed/)).toBeTruthy();
    field.focus();
    await user.keyboard('{Enter}');
    expect(onSnooze).toHaveBeenCalledWith(new Date(2026, 10, 25, 14, 30).getTime() / 1000);
  });
});
