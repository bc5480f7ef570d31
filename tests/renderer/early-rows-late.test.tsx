// The cold open's early read still on its way when the list first renders (main answered who is
// signed in before the cache did): its rows show as soon as they come, not only once the list's own
// read, asked later and queued behind it, answers. Both reads are held at gates here.
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { rememberSession, startEarlyRead, takeEarlyDb } from '../../renderer/src/conversations/early-rows';
import type * as View from '../../renderer/src/conversations/view';
import { defaultView } from '../../renderer/src/conversations/view';
import { ConversationList } from '../../renderer/src/screens/ConversationList';
import { ListOrder } from '../../renderer/src/conversations/list-order';
import { useUi } from '../../renderer/src/state/ui';
import { renderWithSession, silentBridge } from './support/render';
import { seededCache } from './support/seeded-cache';

const gates = vi.hoisted(() => {
  const gate = () => {
    let open = () => {};
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { opened, open: () => open() };
  };
  return { early: gate(), own: gate(), calls: 0 };
});

// The first read of the first rows is the early one (startEarlyRead); any later one is the list's own.
vi.mock('../../renderer/src/conversations/view', async (importOriginal) => {
  const original = await importOriginal<typeof View>();
  return {
    ...original,
    readFirstRows: async (...args: Parameters<typeof original.readFirstRows>) => {
      const gate = gates.calls++ === 0 ? gates.early : gates.own;
      const rows = await original.readFirstRows(...args);
      await gate.opened;
      return rows;
    },
  };
});

const order = new ListOrder();
const rowIds = () => within(screen.getByRole('listbox', { name: /conversations/ })).queryAllByRole('option').map((o) => o.getAttribute('data-conversation-id'));

beforeEach(() => {
  localStorage.clear();
  useUi.setState({ view: defaultView, activeConversationId: undefined, selectedConversationId: undefined });
});

describe('early first rows that come after the first render', () => {
  it('are shown when they come, while the list’s own read is still waiting', async () => {
    const { session, name } = await seededCache();
    rememberSession(name, 2);
    startEarlyRead();

    renderWithSession(<ConversationList order={order} />, { bridge: silentBridge, session });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rowIds()).toEqual([]);

    gates.early.open();
    await waitFor(() => expect(rowIds()[0]).toBe('80'));
    // The list's own read has not answered yet.
    expect(gates.calls).toBe(2);

    gates.own.open();
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('80 conversations'));
    takeEarlyDb(name)?.close();
  });
});
