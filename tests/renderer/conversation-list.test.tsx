// The conversation list component: rows from the cache before the service answers, then the
// service's counts on the tabs, and tabs, status, inbox, team, label and sort driven through the
// real controls, against the in-process demo service.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListView } from '../../renderer/src/conversations/view';
import { INTENT_MS } from '../../renderer/src/conversation/use-read-intent';
import { defaultView, listInput } from '../../renderer/src/conversations/view';
import { saveConversations } from '../../renderer/src/db/save';
import { useDirectorySync } from '../../renderer/src/directory/use-directory';
import { ConversationList } from '../../renderer/src/screens/ConversationList';
import { useUi } from '../../renderer/src/state/ui';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { conv } from './fixtures';
import type { DemoBridge } from './support/demo-bridge';
import { demoBridge } from './support/demo-bridge';
import { renderWithSession, silentBridge, testSession } from './support/render';
import { ListOrder } from '../../renderer/src/conversations/list-order';

let svc: DemoService;
let demo: DemoBridge;

beforeAll(async () => {
  svc = await demoService();
  demo = await demoBridge(svc);
});
afterAll(() => svc.close());
beforeEach(() => useUi.setState({ view: defaultView, activeConversationId: undefined, selectedConversationId: undefined }));

const order = new ListOrder();

/** The list as the inbox mounts it: with the directory (inboxes, teams, labels) kept in sync. */
function ListWithDirectory() {
  useDirectorySync();
  return <ConversationList order={order} />;
}
const listbox = () => screen.getByRole('listbox', { name: /conversations/ });
const renderedIds = () => within(listbox()).queryAllByRole('option').map((o) => Number(o.getAttribute('data-conversation-id')));
const setSize = () => Number(within(listbox()).queryAllByRole('option')[0]?.getAttribute('aria-setsize') ?? 0);

async function service(view: ListView) {
  const ids: number[] = [];
  let meta;
  for (let page = 1; ; page++) {
    const r = await demo.bridge.call('conversations.list', listInput(view, page));
    if (!r.ok) throw new Error(r.error.message);
    meta ??= r.value.data.meta;
    if (!r.value.data.payload.length) return { ids, meta };
    ids.push(...r.value.data.payload.map((c) => c.id));
  }
}

/** Rendering settled: the list says it is not syncing and shows the service's list. */
async function settled(view: ListView) {
  const expected = await service(view);
  await waitFor(() => {
    expect(setSize()).toBe(expected.ids.length);
    expect(renderedIds()).toEqual(expected.ids.slice(0, renderedIds().length));
  }, { timeout: 5000 });
  return expected;
}

describe('ConversationList', () => {
  it('renders rows from the cache before the service answers', async () => {
    const session = testSession();
    const { db } = renderWithSession(<ConversationList order={order} />, { bridge: silentBridge, session });
    await saveConversations(db, [conv(1, { assignee: 2, lastActivityAt: 10 }), conv(2, { assignee: 2, lastActivityAt: 20, unread: 3, preview: 'Where is my **refund**?' }), conv(3, { assignee: 9 })]);
    await waitFor(() => expect(renderedIds()).toEqual([2, 1]));
    const row = within(listbox()).getAllByRole('option')[0]!;
    expect(row.textContent).toContain('Where is my refund?');
    expect(within(row).getByLabelText('3 unread')).toBeTruthy();
    await waitFor(() => expect(order.current).toEqual([2, 1]));
  }, 30_000);

  it('a press on a row starts reading that conversation, before the click opens it', async () => {
    const { db, inbox } = renderWithSession(<ConversationList order={order} />, { bridge: silentBridge, session: testSession() });
    await saveConversations(db, [conv(1, { assignee: 2, lastActivityAt: 10 }), conv(2, { assignee: 2, lastActivityAt: 20 })]);
    await waitFor(() => expect(renderedIds()).toEqual([2, 1]));
    const ahead = vi.spyOn(inbox.conversations.readAhead, 'ahead');
    const row = within(listbox()).getAllByRole('option')[1]!;
    fireEvent.pointerDown(row, { button: 2 });
    expect(ahead).not.toHaveBeenCalled();
    fireEvent.pointerDown(row, { button: 0 });
    expect(ahead).toHaveBeenCalledWith(1);
    expect(useUi.getState().selectedConversationId).toBeUndefined();
  }, 30_000);

  it('reads the conversation whose row the pointer or the keyboard\'s highlight rests on, once it rests', async () => {
    const { db, inbox } = renderWithSession(<ConversationList order={order} />, { bridge: silentBridge, session: testSession() });
    await saveConversations(db, [conv(1, { assignee: 2, lastActivityAt: 10 }), conv(2, { assignee: 2, lastActivityAt: 20 }), conv(3, { assignee: 2, lastActivityAt: 5 })]);
    await waitFor(() => expect(renderedIds()).toEqual([2, 1, 3]));
    // The rows in sight are read ahead when the page is idle (the test below): done first.
    await waitFor(() => expect([2, 1, 3].every((id) => inbox.conversations.readAhead.holds(id))).toBe(true));
    const prepare = vi.spyOn(inbox.conversations.readAhead, 'prepare');
    const rested = () => new Promise((done) => setTimeout(done, INTENT_MS + 60));
    const row = (id: number) => listbox().querySelector(`[data-conversation-id="${id}"] .contact`)!;

    // Passing over a row on the way to another reads only the one it stops on.
    fireEvent.pointerOver(row(2));
    fireEvent.pointerOver(row(1));
    expect(prepare).not.toHaveBeenCalled();
    await rested();
    expect(prepare.mock.calls).toEqual([[1]]);
    // Leaving the list before it rests reads nothing.
    fireEvent.pointerOver(row(3));
    fireEvent.pointerLeave(listbox());
    await rested();
    expect(prepare.mock.calls).toEqual([[1]]);
    // The open conversation is not read again.
    useUi.setState({ selectedConversationId: 2 });
    fireEvent.pointerOver(row(2));
    await rested();
    expect(prepare.mock.calls).toEqual([[1]]);

    // The highlight, moved by keys: the row it stops on.
    act(() => useUi.getState().setActive(1));
    act(() => useUi.getState().setActive(3));
    await rested();
    expect(prepare.mock.calls).toEqual([[1], [3]]);
  }, 30_000);

  it('reads the conversations in sight ahead while the page is idle, and again one whose read went', async () => {
    useUi.setState({ selectedConversationId: 3 });
    const { db, inbox } = renderWithSession(<ConversationList order={order} />, { bridge: silentBridge, session: testSession() });
    const readAhead = inbox.conversations.readAhead;
    // The first read is not kept (as when a write is heard while it is under way): read again.
    const prepare = vi.spyOn(readAhead, 'prepare').mockImplementationOnce(() => Promise.resolve());
    const ids = Array.from({ length: 30 }, (_, i) => i + 1);
    await saveConversations(db, ids.map((id) => conv(id, { assignee: 2, lastActivityAt: 1_000 - id })));
    // 600 px of list, rows of 67 px: the first nine are in sight. Top to bottom, not the open one,
    // none of the overscan's rows below.
    const inSight = [1, 2, 4, 5, 6, 7, 8, 9];
    await waitFor(() => expect(prepare.mock.calls.map(([id]) => id)).toEqual([1, ...inSight]));
    await waitFor(() => expect(inSight.every((id) => readAhead.holds(id))).toBe(true));
    expect(renderedIds().length).toBeGreaterThan(9);
    expect(readAhead.holds(10)).toBe(false);

    // A write to what one rests on (a message arriving, here its count): that one is read again.
    await db.conversations.update(5, { unreadCount: 2 });
    await waitFor(() => expect(prepare.mock.calls.map(([id]) => id)).toEqual([1, ...inSight, 5]));
    await waitFor(() => expect(readAhead.holds(5)).toBe(true));

    // Rows scrolled into sight are read too.
    const list = listbox();
    list.scrollTop = 67 * 20;
    fireEvent.scroll(list);
    await waitFor(() => expect(readAhead.holds(25)).toBe(true));
    expect(prepare.mock.calls.map(([id]) => id)).not.toContain(30);
  }, 30_000);

  it('shows the service\'s counts on the tabs and switches tabs', async () => {
    const user = userEvent.setup();
    renderWithSession(<ConversationList order={order} />, { bridge: demo.bridge, session: { ...demo.session, id: testSession().id } });
    const mine = await settled({ ...defaultView, tab: 'me' });
    const tab = (name: RegExp) => screen.getByRole('tab', { name });
    await waitFor(() => {
      expect(tab(/Mine/).textContent).toContain(String(mine.meta!.mine_count));
      expect(tab(/Unassigned/).textContent).toContain(String(mine.meta!.unassigned_count));
      expect(tab(/All/).textContent).toContain(String(mine.meta!.all_count));
    });
    expect(tab(/Mine/).getAttribute('aria-selected')).toBe('true');

    await user.click(tab(/Unassigned/));
    const unassigned = await settled({ ...defaultView, tab: 'unassigned' });
    expect(unassigned.ids.length).toBe(mine.meta!.unassigned_count);
    for (const row of within(listbox()).getAllByRole('option')) expect(row.textContent).toContain('Unassigned');

    // Arrow keys move between tabs, as a tablist should.
    tab(/Unassigned/).focus();
    await user.keyboard('{ArrowRight}');
    expect(tab(/All/).getAttribute('aria-selected')).toBe('true');
    await settled({ ...defaultView, tab: 'all' });
  }, 30_000);

  it('filters by status, inbox, team and label, and sorts, through the controls', async () => {
    const user = userEvent.setup();
    renderWithSession(<ListWithDirectory />, { bridge: demo.bridge, session: { ...demo.session, id: testSession().id } });
    await user.click(screen.getByRole('tab', { name: /All/ }));
    await settled({ ...defaultView, tab: 'all' });

    await user.selectOptions(screen.getByLabelText('Status'), 'pending');
    let view: ListView = { ...defaultView, tab: 'all', status: 'pending' };
    await settled(view);

    await user.selectOptions(screen.getByLabelText('Status'), 'all');
    await waitFor(() => expect(within(screen.getByLabelText('Inbox')).getAllByRole('option').length).toBeGreaterThan(1));
    await user.selectOptions(screen.getByLabelText('Inbox'), 'Email support');
    const inboxId = Number((screen.getByLabelText('Inbox') as HTMLSelectElement).value);
    view = { ...view, status: 'all', inboxId };
    await settled(view);
    for (const row of within(listbox()).getAllByRole('option')) expect(row.textContent).toContain('Email support');

    await user.selectOptions(screen.getByLabelText('Team'), 'billing');
    view = { ...view, teamId: Number((screen.getByLabelText('Team') as HTMLSelectElement).value) };
    await settled(view);

    await user.selectOptions(screen.getByLabelText('Team'), 'All teams');
    await user.selectOptions(screen.getByLabelText('Label'), 'vip');
    view = { ...view, teamId: undefined, label: 'vip' };
    const vip = await settled(view);
    expect(vip.ids.length).toBeGreaterThan(0);
    for (const row of within(listbox()).getAllByRole('option')) expect(row.textContent).toContain('vip');

    await user.selectOptions(screen.getByLabelText('Sort'), 'priority_desc');
    await settled({ ...view, sortBy: 'priority_desc' });
    await user.selectOptions(screen.getByLabelText('Sort'), 'waiting_since_asc');
    await settled({ ...view, sortBy: 'waiting_since_asc' });
  }, 30_000);
});
