// The list's first paint from a large cache: the first screenful (read in index order) shows
// before the whole view has been read, says it is still loading, and leaves the keyboard cursor
// alone; the whole view then takes over. The whole-view read is held at a gate here, so the
// in-between state can be looked at.
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as View from '../../renderer/src/conversations/view';
import { defaultView } from '../../renderer/src/conversations/view';
import { saveConversations } from '../../renderer/src/db/save';
import { ConversationList } from '../../renderer/src/screens/ConversationList';
import { ListOrder } from '../../renderer/src/conversations/list-order';
import { useUi } from '../../renderer/src/state/ui';
import { conv } from './fixtures';
import { renderWithSession, silentBridge, testSession } from './support/render';

const gate = vi.hoisted(() => {
  let release = () => {};
  let held = Promise.resolve();
  return {
    wait: () => held,
    close() {
      held = new Promise<void>((resolve) => (release = resolve));
    },
    open: () => release(),
  };
});

const wholeReads = vi.hoisted(() => ({ n: 0 }));

vi.mock('../../renderer/src/conversations/view', async (importOriginal) => {
  const original = await importOriginal<typeof View>();
  return {
    ...original,
    readView: async (...args: Parameters<typeof original.readView>) => {
      wholeReads.n++;
      await gate.wait();
      return original.readView(...args);
    },
  };
});

const order = new ListOrder();
const listbox = () => screen.getByRole('listbox', { name: /conversations/ });
const options = () => within(listbox()).queryAllByRole('option');
const setSize = () => Number(options()[0]?.getAttribute('aria-setsize') ?? 0);

beforeEach(() => useUi.setState({ view: defaultView, activeConversationId: undefined, selectedConversationId: undefined }));
// A test that fails while the gate is closed must not leave the next one waiting on it.
afterEach(() => gate.open());

// 100 open conversations of this agent (id 2) and 100 unassigned ones with later activity.
const mine = Array.from({ length: 100 }, (_, i) => conv(i + 1, { assignee: 2, lastActivityAt: 1_000 + i }));
const unassigned = Array.from({ length: 100 }, (_, i) => conv(201 + i, { lastActivityAt: 5_000 + i }));

describe('ConversationList first paint', () => {
  it('shows the first screenful before the whole view is read, then the whole view', async () => {
    gate.close();
    const { db } = renderWithSession(<ConversationList order={order} />, { bridge: silentBridge, session: testSession() });
    await saveConversations(db, mine);

    await waitFor(() => expect(setSize()).toBe(60));
    expect(Number(options()[0]!.getAttribute('data-conversation-id'))).toBe(100);
    expect(screen.getByRole('status').textContent).toContain('Loading…');
    // The keyboard order follows the rows in an effect, after the paint.
    await waitFor(() => expect(order.current.slice(0, 3)).toEqual([100, 99, 98]));

    gate.open();
    await waitFor(() => expect(setSize()).toBe(100));
    expect(screen.getByRole('status').textContent).toContain('100 conversations');
    await waitFor(() => expect(order.current).toHaveLength(100));
  }, 30_000);

  it('lays out only the rows in sight in the first frame with rows, and the rows around them after it', async () => {
    const { db } = renderWithSession(<ConversationList order={order} />, { bridge: silentBridge, session: testSession() });
    await saveConversations(db, mine);
    // The test scroller is 600 px tall (setup.ts): 9 rows of 67 px are in sight, 10 more below them.
    await waitFor(() => expect(options().length).toBeGreaterThan(0));
    expect(options()).toHaveLength(9);
    await waitFor(() => expect(options()).toHaveLength(19));
  }, 30_000);

  it('a row below the first screenful of the next view has not left it: the cursor stays on it', async () => {
    const { db } = renderWithSession(<ConversationList order={order} />, { bridge: silentBridge, session: testSession() });
    await saveConversations(db, [...mine, ...unassigned]);
    await waitFor(() => expect(setSize()).toBe(100));
    // The cursor on conversation 10: index 90 of Mine, index 190 of All.
    act(() => useUi.setState({ activeConversationId: 10 }));

    gate.close();
    act(() => useUi.getState().setView({ tab: 'all' }));
    await waitFor(() => expect(setSize()).toBe(60));
    expect(useUi.getState().activeConversationId).toBe(10);

    gate.open();
    await waitFor(() => expect(setSize()).toBe(200));
    expect(useUi.getState().activeConversationId).toBe(10);
  }, 30_000);

  it('asks for the whole view only once a frame has shown the first screenful', async () => {
    // Frames are held here: nothing has been painted until they run.
    const frames: FrameRequestCallback[] = [];
    const raf = vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => frames.push(cb));
    try {
      const session = testSession();
      const first = renderWithSession(<ConversationList order={order} />, { bridge: silentBridge, session });
      await saveConversations(first.db, mine);
      await waitFor(() => expect(setSize()).toBe(100));
      first.unmount();
      // Opened again over the cache that now holds them (the same session's database): the first screenful comes first.
      wholeReads.n = 0;
      renderWithSession(<ConversationList order={order} />, { bridge: silentBridge, session });
      await waitFor(() => expect(setSize()).toBe(60));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(wholeReads.n).toBe(0);

      // The frame that shows them; the whole view is asked for a frame after it (first-rows-gate.test.tsx says why).
      act(() => frames.splice(0).forEach((cb) => cb(performance.now())));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(wholeReads.n).toBe(0);
      act(() => frames.splice(0).forEach((cb) => cb(performance.now())));
      await waitFor(() => expect(wholeReads.n).toBe(1));
      await waitFor(() => expect(setSize()).toBe(100));
    } finally {
      raf.mockRestore();
    }
  }, 30_000);
});
