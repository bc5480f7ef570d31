// What a triage key renders in its own task (issue 14, triage p95 < one frame). Resolving a row moves
// every row under it and changes the list's size: each row's place re-renders, not what it shows
// (before, all the rows on screen rendered their avatars, chips and texts again). And the cursor
// moving, or a write coming back from the cache, re-renders neither the inbox nor its header.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as AvatarModule from '../../renderer/src/components/Avatar';
import type * as SearchFieldModule from '../../renderer/src/components/SearchField';
import type * as WaitingModule from '../../renderer/src/waiting/use-waiting';
import { defaultView } from '../../renderer/src/conversations/view';
import { saveConversations } from '../../renderer/src/db/save';
import { ConversationList } from '../../renderer/src/screens/ConversationList';
import { Inbox } from '../../renderer/src/screens/Inbox';
import { useUi } from '../../renderer/src/state/ui';
import { conv } from './fixtures';
import { demoForFile } from './support/demo-bridge';
import { renderWithSession, silentBridge, testSession } from './support/render';
import { ListOrder } from '../../renderer/src/conversations/list-order';

const renders = vi.hoisted(() => ({ avatar: 0, searchField: 0, inbox: 0 }));
/** A component that counts its renders under `key`, then renders as `render` does. */
const counted = vi.hoisted(
  () =>
    <P,>(key: 'avatar' | 'searchField' | 'inbox', render: (props: P) => unknown) =>
    (props: P) => {
      renders[key]++;
      return render(props);
    },
);
vi.mock('../../renderer/src/components/Avatar', async (importOriginal) => {
  const m = await importOriginal<typeof AvatarModule>();
  return { ...m, Avatar: counted('avatar', m.Avatar) };
});
// The inbox renders this provider afresh each time it renders, and nothing else renders it: its
// count is the inbox's.
vi.mock('../../renderer/src/waiting/use-waiting', async (importOriginal) => {
  const m = await importOriginal<typeof WaitingModule>();
  return { ...m, WaitingThresholdsProvider: counted('inbox', m.WaitingThresholdsProvider) };
});
vi.mock('../../renderer/src/components/SearchField', async (importOriginal) => {
  const m = await importOriginal<typeof SearchFieldModule>();
  return { ...m, SearchField: counted('searchField', m.SearchField) };
});

const started = demoForFile();
beforeEach(() => useUi.setState({ view: defaultView, selectedConversationId: undefined, activeConversationId: undefined, bulkSelection: [], overlay: undefined, searchQuery: '', notice: undefined }));

const listbox = () => screen.getByRole('listbox', { name: /conversations/ });
const rowIds = () => within(listbox()).queryAllByRole('option').map((o) => Number(o.getAttribute('data-conversation-id')));
/** Waits until the keyboard cursor is on the list's `index`th row. */
const cursorAt = (index: number) => waitFor(() => expect(within(listbox()).getAllByRole('option')[index]!.getAttribute('aria-selected')).toBe('true'));

/** The inbox on the demo's service, loaded, with more than `min` rows; its cache. `onCommit`: called at each of React's commits in it. */
async function inboxWithRows(min: number, onCommit?: () => void) {
  const { demo } = started;
  const inbox = onCommit ? (
    <Profiler id="inbox" onRender={onCommit}>
      <Inbox />
    </Profiler>
  ) : (
    <Inbox />
  );
  const { db } = renderWithSession(inbox, { bridge: demo.bridge, session: { ...demo.session, id: testSession().id } });
  await waitFor(() => expect(document.querySelector('.list-status')?.textContent).not.toMatch(/syncing|Loading/), { timeout: 10_000 });
  await waitFor(() => expect(rowIds().length).toBeGreaterThan(min));
  return db;
}

describe('what a triage key renders', () => {
  it('a row resolved: the rows under it move, and only a row coming into the list renders what it shows', async () => {
    const order = new ListOrder();
    const { db, inbox } = renderWithSession(<ConversationList order={order} />, { bridge: silentBridge, session: testSession() });
    const ids = Array.from({ length: 40 }, (_, i) => i + 1);
    await saveConversations(db, ids.map((id) => conv(id, { assignee: 2, lastActivityAt: 1_000 - id })));
    await waitFor(() => expect(rowIds().length).toBeGreaterThan(15));
    const shown = rowIds();
    const before = renders.avatar;
    // The top row leaves: every row on screen moves up one place and the list is one shorter.
    await act(async () => {
      void inbox.actions.setStatus([1], 'resolved');
      await Promise.resolve();
    });
    expect(rowIds()).toEqual([...shown.slice(1), shown.at(-1)! + 1]);
    expect(within(listbox()).getAllByRole('option')[0]!.getAttribute('aria-posinset')).toBe('1');
    expect(within(listbox()).getAllByRole('option')[0]!.getAttribute('aria-setsize')).toBe('39');
    // The row that came in at the bottom; none of the rows that only moved.
    expect(renders.avatar - before).toBe(1);
  }, 30_000);

  it('the cursor moving and a write coming back re-render neither the inbox nor its header', async () => {
    const user = userEvent.setup();
    const db = await inboxWithRows(2);
    listbox().focus();
    const before = renders.searchField;
    await user.keyboard('jjj');
    await cursorAt(2);
    expect(renders.searchField).toBe(before);
    // Resolved from the keyboard: the row leaves, the cursor moves on, the write commits and the
    // cache's rows come back to the commands' state.
    const id = rowIds()[2]!;
    await user.keyboard('e');
    await waitFor(() => expect(rowIds()).not.toContain(id));
    await waitFor(async () => expect((await db.conversations.get(id))?.status).toBe('resolved'));
    await new Promise((r) => setTimeout(r, 300));
    expect(renders.searchField).toBe(before);
  }, 30_000);

  it('a row resolved from the keyboard and the cursor moving on to the next are one commit: none shows the list without its cursor', async () => {
    const user = userEvent.setup();
    // What each commit left in the page: the rows and the row the cursor is on.
    const commits: { ids: number[]; cursor: number | undefined }[] = [];
    let recording = false;
    const cursorRow = () => within(listbox()).queryAllByRole('option').find((o) => o.getAttribute('aria-selected') === 'true');
    await inboxWithRows(3, () => {
      if (recording) commits.push({ ids: rowIds(), cursor: Number(cursorRow()?.getAttribute('data-conversation-id')) || undefined });
    });
    listbox().focus();
    await user.keyboard('jj');
    await cursorAt(1);
    const [, id, next] = rowIds();
    await new Promise((r) => setTimeout(r, 300));
    recording = true;
    await user.keyboard('e');
    await waitFor(() => expect(rowIds()).not.toContain(id));
    await new Promise((r) => setTimeout(r, 300));
    recording = false;
    const gone = commits.findIndex((c) => !c.ids.includes(id!));
    expect(gone).toBeGreaterThanOrEqual(0);
    // The commit that took the row out put the cursor on the row that took its place.
    expect(commits[gone]!.cursor).toBe(next);
    expect(commits.slice(gone).every((c) => c.cursor === next)).toBe(true);
  }, 30_000);

  it('moving the cursor reads nothing from the cache, and the palette still offers to remove the labels of the row under it', async () => {
    const user = userEvent.setup();
    const db = await inboxWithRows(3);
    listbox().focus();
    await user.keyboard('j');
    await cursorAt(0);
    await new Promise((r) => setTimeout(r, 300));
    // Each cursor move read the row under it from the cache again, inside the key's task.
    const reads = vi.spyOn(db.conversations, 'bulkGet');
    await user.keyboard('jj');
    await cursorAt(2);
    await new Promise((r) => setTimeout(r, 300));
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
    // A row with labels under the cursor: the palette offers to remove each.
    const options = within(listbox()).getAllByRole('option');
    const at = options.findIndex((o) => o.querySelector('.chip.label'));
    expect(at).toBeGreaterThanOrEqual(0);
    await user.keyboard(at > 2 ? 'j'.repeat(at - 2) : 'k'.repeat(2 - at));
    await cursorAt(at);
    const label = options[at]!.querySelector('.chip.label')!.textContent!.trim();
    await user.keyboard('{Control>}k{/Control}');
    await user.type(await screen.findByRole('combobox', { name: /command/i }), `remove label ${label}`);
    expect(within(screen.getByRole('dialog')).getAllByRole('option')[0]!.textContent).toContain(`Remove label ${label}`);
  }, 30_000);

  it('a picker opened and its choice made (snooze) renders the inbox no more, however the cursor moves after it', async () => {
    const user = userEvent.setup();
    const db = await inboxWithRows(2);
    listbox().focus();
    await user.keyboard('jj');
    await cursorAt(1);
    const id = rowIds()[1]!;
    await new Promise((r) => setTimeout(r, 300));
    const before = { inbox: renders.inbox, header: renders.searchField };
    await user.keyboard('s');
    const dialog = await screen.findByRole('dialog', { name: 'Snooze' });
    // The first preset: until the contact writes. The row leaves the Open list and the cursor moves on.
    await user.keyboard('{Enter}');
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    await waitFor(() => expect(rowIds()).not.toContain(id));
    await waitFor(async () => expect((await db.conversations.get(id))?.status).toBe('snoozed'));
    await new Promise((r) => setTimeout(r, 300));
    expect(renders.inbox - before.inbox).toBe(0);
    expect(renders.searchField).toBe(before.header);
  }, 30_000);

  it('the cursor moving renders neither the tabs nor the filters again, and a row leaving not the filters', async () => {
    const user = userEvent.setup();
    await inboxWithRows(3);
    // React hands a host element new props each time the component holding it renders (its
    // handlers are made afresh): the same props object after the keys means it was not rendered.
    const propsOf = (el: Element) => (el as unknown as Record<string, unknown>)[Object.keys(el).find((k) => k.startsWith('__reactProps$'))!];
    const tab = screen.getByRole('tab', { name: /Mine/ });
    const status = within(screen.getByRole('group', { name: 'Filters' })).getByRole('combobox', { name: 'Status' });
    listbox().focus();
    await user.keyboard('j');
    await cursorAt(0);
    const before = { tab: propsOf(tab), status: propsOf(status) };
    expect(before.tab).toBeDefined();
    await user.keyboard('jj');
    const id = rowIds()[2]!;
    await cursorAt(2);
    expect(propsOf(tab)).toBe(before.tab);
    expect(propsOf(status)).toBe(before.status);
    // A row resolved changes the tabs' counts (they render for that), not the filters.
    await user.keyboard('e');
    await waitFor(() => expect(rowIds()).not.toContain(id));
    await new Promise((r) => setTimeout(r, 300));
    expect(propsOf(status)).toBe(before.status);
  }, 30_000);
});
