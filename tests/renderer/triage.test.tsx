// Triage in the whole inbox, by keyboard, against the real bridge and the demo service: each action
// shows at once (the service has not answered yet: its call is held), goes out through the outbox,
// and afterwards the cache equals what the service has. Pickers are driven by keys alone.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultBackoff } from '../../renderer/src/actions/retry-policy';
import { defaultView } from '../../renderer/src/conversations/view';
import type { InboxDb } from '../../renderer/src/db/schema';
import { Inbox } from '../../renderer/src/screens/Inbox';
import { clientSettings } from '../../renderer/src/platform/session';
import { useUi } from '../../renderer/src/state/ui';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { demoBridge } from './support/demo-bridge';
import type { DemoBridge } from './support/demo-bridge';
import { fastBackoff, serviceConversation, steer } from './support/outbox-harness';
import type { Steering } from './support/outbox-harness';
import { renderWithSession, testSession } from './support/render';

let svc: DemoService;
let demo: DemoBridge;
beforeAll(async () => {
  svc = await demoService();
  demo = await demoBridge(svc);
  clientSettings.backoff = fastBackoff;
});
afterAll(() => {
  clientSettings.backoff = defaultBackoff;
  svc.close();
});
beforeEach(() => useUi.setState({ view: defaultView, selectedConversationId: undefined, activeConversationId: undefined, bulkSelection: [], overlay: undefined, searchQuery: '', notice: undefined, contactPanelOpen: false }));

const listbox = () => screen.getByRole('listbox', { name: /conversations,/ });
const rowIds = () => within(listbox()).queryAllByRole('option').map((o) => Number(o.getAttribute('data-conversation-id')));
const activeRow = () => within(listbox()).queryAllByRole('option').find((o) => o.getAttribute('aria-selected') === 'true');

/** A gate in front of the write calls: held writes wait until released. */
function gated(steering: Steering) {
  let open: () => void = () => undefined;
  let gate = new Promise<void>((r) => (open = r));
  steering.intercept((name, _input, through) => (/^(conversations\.(toggleStatus|togglePriority|assign|assignTeam|setLabels|markUnread)|messages\.create)$/.test(name) ? gate.then(through) : undefined));
  return {
    release: () => open(),
    hold: () => {
      gate = new Promise<void>((r) => (open = r));
    },
  };
}

let mounted: { db: InboxDb; steering: Steering; unmount(): void } | undefined;
async function renderInbox() {
  const steering = steer(demo);
  const r = renderWithSession(<Inbox />, { bridge: steering.bridge, session: { ...demo.session, id: testSession().id } });
  mounted = { db: r.db, steering, unmount: r.unmount };
  // The list has synced with the service (the Mine tab's count is in).
  await waitFor(() => expect(screen.getByTestId('count-me').textContent).toMatch(/^\d+$/), { timeout: 10_000 });
  await waitFor(() => expect(document.querySelector('.list-status')?.textContent).not.toMatch(/syncing|Loading/), { timeout: 10_000 });
  return { db: r.db, steering };
}
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

/** Cache and service agree on what triage changes. */
async function expectCacheEqualsService(db: InboxDb, id: number) {
  const c = await serviceConversation(demo, id);
  await waitFor(async () => {
    const row = await db.conversations.get(id);
    expect(row && { status: row.status, priority: row.priority, labels: row.labels, assigneeId: row.assigneeId, teamId: row.teamId, unread: row.unreadCount }).toEqual({
      status: c.status,
      priority: c.priority,
      labels: c.labels,
      assigneeId: c.meta.assignee?.id ?? 0,
      teamId: c.meta.team?.id ?? 0,
      unread: c.unread_count,
    });
  });
}

const focusList = () => act(() => listbox().focus());

describe('triage by keyboard', () => {
  it('e resolves the highlighted row: it leaves the Open list at once, the cursor moves on, and the service resolves it', async () => {
    const user = userEvent.setup();
    const { db, steering } = await renderInbox();
    const gate = gated(steering);
    focusList();
    await user.keyboard('jj');
    const ids = rowIds();
    const target = Number(activeRow()!.getAttribute('data-conversation-id'));
    expect(target).toBe(ids[1]);
    await user.keyboard('e');
    // At once: gone from the list, the cursor on the row that took its place; the service still has it open.
    await waitFor(() => expect(rowIds()).not.toContain(target));
    await waitFor(() => expect(Number(activeRow()?.getAttribute('data-conversation-id'))).toBe(ids[2]));
    expect((await serviceConversation(demo, target)).status).toBe('open');
    gate.release();
    await waitFor(async () => expect((await serviceConversation(demo, target)).status).toBe('resolved'));
    await expectCacheEqualsService(db, target);
  }, 30_000);

  it('opens with Enter (marking it read), labels with l (Space ticks, Enter applies: the full set goes), assigns with a, sets team t and priority p', async () => {
    const user = userEvent.setup();
    const { db, steering } = await renderInbox();
    focusList();
    // The first row with something unread.
    const unreadAt = within(listbox()).getAllByRole('option').findIndex((o) => o.querySelector('.unread'));
    expect(unreadAt).toBeGreaterThanOrEqual(0);
    await user.keyboard('j'.repeat(unreadAt + 1));
    const id = Number(activeRow()!.getAttribute('data-conversation-id'));
    const before = await serviceConversation(demo, id);
    expect(before.unread_count).toBeGreaterThan(0);
    await user.keyboard('{Enter}');
    await screen.findByRole('region', { name: /^Conversation with/ });
    await waitFor(() => expect(within(listbox()).getByRole('option', { selected: true }).querySelector('.unread')).toBeNull());
    await waitFor(async () => expect((await serviceConversation(demo, id)).unread_count).toBe(0));

    // Labels: filter, tick with Space, apply with Enter.
    await user.keyboard('l');
    const labels = await screen.findByRole('dialog', { name: 'Labels' });
    const newLabel = ['vip', 'billing', 'bug', 'feature-request'].find((l) => !before.labels.includes(l))!;
    await user.keyboard(newLabel);
    expect(within(labels).getAllByRole('option')[0]!.getAttribute('data-option-id')).toBe(newLabel);
    await user.keyboard(' {Enter}');
    expect(screen.queryByRole('dialog', { name: 'Labels' })).toBeNull();
    expect((await db.conversations.get(id))!.labels).toContain(newLabel);
    await waitFor(() => expect(steering.log.some((l) => l.name === 'conversations.setLabels')).toBe(true));
    const sent = demo.calls.filter((c) => c.name === 'conversations.setLabels').at(-1)!.input as { labels: string[] };
    expect([...sent.labels].sort()).toEqual([...before.labels, newLabel].sort());

    // Assign to Priya: type, Enter.
    await user.keyboard('a');
    await screen.findByRole('dialog', { name: 'Assign to' });
    await user.keyboard('priya{Enter}');
    expect((await db.conversations.get(id))!.assigneeName).toBe('Priya Shah');

    // Team: arrows, Enter.
    await user.keyboard('t');
    const team = await screen.findByRole('dialog', { name: 'Move to team' });
    await user.keyboard('bill');
    expect(within(team).getAllByRole('option').map((o) => o.textContent)).toEqual([expect.stringContaining('billing')]);
    await user.keyboard('{Enter}');

    // Priority: ↓ to High, Enter.
    await user.keyboard('p');
    await screen.findByRole('dialog', { name: 'Priority' });
    await user.keyboard('{ArrowDown}{Enter}');

    await waitFor(async () => expect(await db.outbox.filter((e) => e.state !== 'confirmed').count()).toBe(0));
    const after = await serviceConversation(demo, id);
    expect(after.labels).toContain(newLabel);
    expect(after.meta.team?.name).toBe('billing');
    expect(after.priority).toBe('high');
    // The team change may move the assignee on the service (a non-member is cleared): the cache follows.
    await expectCacheEqualsService(db, id);
  }, 30_000);

  it('Esc closes a picker without changing anything, and focus returns to the list', async () => {
    const user = userEvent.setup();
    const { db } = await renderInbox();
    focusList();
    await user.keyboard('ja');
    const dialog = await screen.findByRole('dialog', { name: 'Assign to' });
    // The filter takes focus in an effect after the dialog shows; typed before that, the keys would
    // go to the list (under load this happened: j moved the cursor instead of filtering).
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('combobox')), { timeout: 5_000 });
    await user.keyboard('jor{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(listbox());
    expect(await db.outbox.count()).toBe(0);
  }, 30_000);

  it('a frame that comes late does not pull focus out of a picker opened after it (j then a, on a busy machine)', async () => {
    const user = userEvent.setup();
    const { db } = await renderInbox();
    focusList();
    // Frames wait until the test lets them run, as they do when the machine is busy.
    const frames: FrameRequestCallback[] = [];
    const realFrame = window.requestAnimationFrame;
    window.requestAnimationFrame = (cb) => (frames.push(cb), frames.length);
    try {
      await user.keyboard('ja');
      const dialog = await screen.findByRole('dialog', { name: 'Assign to' });
      const filter = within(dialog).getByRole('combobox');
      await waitFor(() => expect(document.activeElement).toBe(filter), { timeout: 5_000 });
      act(() => frames.splice(0).forEach((cb) => cb(performance.now())));
      expect(document.activeElement).toBe(filter);
      await user.keyboard('jor{Escape}');
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(await db.outbox.count()).toBe(0);
    } finally {
      window.requestAnimationFrame = realFrame;
    }
  }, 30_000);

  it('s snoozes with a preset, and the header says until when', async () => {
    const user = userEvent.setup();
    const { db } = await renderInbox();
    focusList();
    await user.keyboard('j{Enter}');
    const id = useUi.getState().selectedConversationId!;
    await user.keyboard('s');
    const dialog = await screen.findByRole('dialog', { name: 'Snooze' });
    expect(within(dialog).getAllByRole('option').map((o) => o.querySelector('.command-title')?.textContent)).toEqual(['Until next reply', 'For 1 hour', 'Until tomorrow', 'Until next week', 'Until a date and time…']);
    await user.keyboard('tomorrow{Enter}');
    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    tomorrow.setHours(9, 0, 0, 0);
    expect((await screen.findByTestId('snoozed-until')).textContent).toMatch(/^Snoozed until \w+ 9:00/);
    await waitFor(async () => expect((await serviceConversation(demo, id)).snoozed_until).toBe(tomorrow.toISOString()));
    expect((await serviceConversation(demo, id)).status).toBe('snoozed');
    await expectCacheEqualsService(db, id);

    // Until next reply: snoozed without a time.
    await user.keyboard('s');
    await screen.findByRole('dialog', { name: 'Snooze' });
    await user.keyboard('{Enter}');
    await waitFor(async () => expect(await serviceConversation(demo, id)).toMatchObject({ status: 'snoozed', snoozed_until: null }));
    // The screen follows once the service's answer is written back to the cache: a moment after the service holds it.
    await waitFor(() => expect(screen.getByTestId('snoozed-until').textContent).toBe('Snoozed until the next reply'));
  }, 30_000);

  it('Shift+E resolves the open conversation and opens the next one in the list as it was', async () => {
    const user = userEvent.setup();
    const { db } = await renderInbox();
    focusList();
    await user.keyboard('jj{Enter}');
    const order = rowIds();
    const first = useUi.getState().selectedConversationId!;
    expect(first).toBe(order[1]);
    await user.keyboard('{Shift>}E{/Shift}');
    expect(useUi.getState().selectedConversationId).toBe(order[2]);
    await waitFor(() => expect(rowIds()).not.toContain(first));
    // Again, from a row that moved up into the resolved one's place.
    await user.keyboard('{Shift>}E{/Shift}');
    expect(useUi.getState().selectedConversationId).toBe(order[3]);
    // Each conversation's changes go in order, conversations side by side: the first one's resolve
    // waits behind its mark as read (opening it read it), and may land after the second's.
    await waitFor(async () => expect((await serviceConversation(demo, order[2]!)).status).toBe('resolved'));
    await waitFor(async () => expect((await serviceConversation(demo, first)).status).toBe('resolved'));
    await expectCacheEqualsService(db, first);
    await expectCacheEqualsService(db, order[2]!);
  }, 30_000);

  it('acts on the open conversation, until the agent moves the cursor to another row', async () => {
    const user = userEvent.setup();
    const { db } = await renderInbox();
    focusList();
    await user.keyboard('j{Enter}');
    const order = rowIds();
    const open = useUi.getState().selectedConversationId!;
    // p on the open one; it stays in the list, so the cursor stays on it.
    await user.keyboard('p');
    await screen.findByRole('dialog', { name: 'Priority' });
    expect(within(screen.getByRole('dialog', { name: 'Priority' })).getByText(`For #${open}`)).toBeTruthy();
    await user.keyboard('{Escape}');
    // j: the agent moves on in the list; now the highlighted row is what e resolves.
    await user.keyboard('j');
    const highlighted = Number(activeRow()!.getAttribute('data-conversation-id'));
    expect(highlighted).toBe(order[1]);
    await user.keyboard('e');
    await waitFor(() => expect(rowIds()).not.toContain(highlighted));
    expect(rowIds()).toContain(open);
    expect(useUi.getState().selectedConversationId).toBe(open);
    await waitFor(async () => expect((await serviceConversation(demo, highlighted)).status).toBe('resolved'));
    expect((await db.conversations.get(open))!.status).toBe('open');
  }, 30_000);

  it('u marks unread and leaves the conversation for the list', async () => {
    const user = userEvent.setup();
    const { db } = await renderInbox();
    focusList();
    await user.keyboard('j{Enter}');
    const id = useUi.getState().selectedConversationId!;
    await waitFor(async () => expect((await db.conversations.get(id))!.unreadCount).toBe(0));
    await user.keyboard('u');
    expect(useUi.getState().selectedConversationId).toBeUndefined();
    await waitFor(async () => expect((await db.conversations.get(id))!.unreadCount).toBeGreaterThan(0));
    await waitFor(async () => expect((await serviceConversation(demo, id)).unread_count).toBeGreaterThan(0));
    await expectCacheEqualsService(db, id);
  }, 30_000);

  it('a refused action rolls back on screen and tells the agent why', async () => {
    const user = userEvent.setup();
    const { db, steering } = await renderInbox();
    steering.intercept((name) => (name === 'conversations.toggleStatus' ? Promise.resolve({ ok: false, error: { kind: 'forbidden', message: 'You are not authorized to do this action', status: 401 } }) : undefined));
    focusList();
    await user.keyboard('j');
    const id = Number(activeRow()!.getAttribute('data-conversation-id'));
    await user.keyboard('e');
    await waitFor(() => expect(useUi.getState().notice?.text).toBe(`Could not resolve #${id}: You are not authorized to do this action`));
    await waitFor(() => expect(rowIds()).toContain(id));
    expect((await db.conversations.get(id))!.status).toBe('open');
  }, 30_000);
});

describe('bulk by keyboard', () => {
  it('x and Shift+J select three; the bar shows; l adds a label to each (its own full set); e resolves all; the selection clears as they leave', async () => {
    const user = userEvent.setup();
    const { db } = await renderInbox();
    focusList();
    await user.keyboard('jx{Shift>}JJ{/Shift}');
    const picked = useUi.getState().bulkSelection;
    expect(picked).toHaveLength(3);
    const bar = screen.getByRole('toolbar', { name: 'Bulk actions' });
    expect(within(bar).getByRole('status').textContent).toBe('3 selected');
    expect(within(listbox()).getAllByRole('option').filter((o) => o.getAttribute('aria-checked') === 'true').map((o) => Number(o.getAttribute('data-conversation-id')))).toEqual(picked);

    const before = await Promise.all(picked.map((id) => serviceConversation(demo, id)));
    await user.keyboard('l');
    await screen.findByRole('dialog', { name: 'Labels' });
    await user.keyboard('vip');
    await user.keyboard(' {Enter}');
    await waitFor(async () => {
      for (const b of before) expect((await serviceConversation(demo, b.id)).labels).toEqual([...new Set([...b.labels, 'vip'])].sort());
    });
    const labelCalls = demo.calls.filter((c) => c.name === 'conversations.setLabels').slice(-3).map((c) => c.input as { conversationId: number; labels: string[] });
    for (const b of before) {
      const sent = labelCalls.find((c) => c.conversationId === b.id);
      if (b.labels.includes('vip')) expect(sent).toBeUndefined();
      else expect([...sent!.labels].sort()).toEqual([...b.labels, 'vip'].sort());
    }

    await user.keyboard('e');
    await waitFor(() => expect(rowIds().filter((id) => picked.includes(id))).toEqual([]));
    await waitFor(() => expect(useUi.getState().bulkSelection).toEqual([]));
    expect(screen.queryByRole('toolbar', { name: 'Bulk actions' })).toBeNull();
    await waitFor(async () => {
      for (const id of picked) expect((await serviceConversation(demo, id)).status).toBe('resolved');
    });
    for (const id of picked) await expectCacheEqualsService(db, id);
  }, 30_000);
});
