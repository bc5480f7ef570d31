// The cold open's early read (conversations/early-rows.ts): the last session's first rows are read
// from its cache before main has said who is signed in, and the list's first render shows them;
// only for that cache, agent and view; a signed-out session's cache is not read (or re-created).
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { earlyRows, forgetSession, rememberSession, startEarlyRead, takeEarlyDb } from '../../renderer/src/conversations/early-rows';
import { defaultView, viewKey } from '../../renderer/src/conversations/view';
import { deleteSessionCache } from '../../renderer/src/platform/cache-purge';
import { ConversationList } from '../../renderer/src/screens/ConversationList';
import { useUi } from '../../renderer/src/state/ui';
import { renderWithSession, silentBridge } from './support/render';
import { seededCache } from './support/seeded-cache';
import { ListOrder } from '../../renderer/src/conversations/list-order';

const key = viewKey(defaultView);
const order = new ListOrder();

beforeEach(() => {
  localStorage.clear();
  useUi.setState({ view: defaultView, activeConversationId: undefined, selectedConversationId: undefined });
});

describe('early first rows', () => {
  it('reads the remembered session’s first rows, for that cache, agent and view only', async () => {
    const { name } = await seededCache();
    rememberSession(name, 2);
    startEarlyRead();
    await vi.waitFor(() => expect(earlyRows(name, 2, key)).toBeDefined());
    expect(earlyRows(name, 2, key)!.map((r) => r.id).slice(0, 3)).toEqual([80, 79, 78]);
    expect(earlyRows(name, 2, key)).toHaveLength(60);
    expect(earlyRows(name, 3, key)).toBeUndefined();
    expect(earlyRows('inbox:another', 2, key)).toBeUndefined();
    expect(earlyRows(name, 2, viewKey({ ...defaultView, status: 'resolved' }))).toBeUndefined();
    takeEarlyDb(name)?.close();
  });

  it('the list’s first render shows them (no wait for its own read)', async () => {
    const { session, name } = await seededCache();
    rememberSession(name, 2);
    startEarlyRead();
    await vi.waitFor(() => expect(earlyRows(name, 2, key)).toBeDefined());
    renderWithSession(<ConversationList order={order} />, { bridge: silentBridge, session });
    // Synchronously after the first render: no waitFor.
    const options = within(screen.getByRole('listbox', { name: /conversations/ })).queryAllByRole('option');
    expect(options.length).toBeGreaterThan(0);
    expect(options[0]!.getAttribute('data-conversation-id')).toBe('80');
    takeEarlyDb(name)?.close();
  });

  it('hands its database to that session’s client and closes it for another', async () => {
    const { name } = await seededCache();
    rememberSession(name, 2);
    startEarlyRead();
    const db = takeEarlyDb(name);
    expect(db?.name).toBe(name);
    expect(takeEarlyDb(name)).toBeUndefined();
    db!.close();

    startEarlyRead();
    expect(takeEarlyDb('inbox:another')).toBeUndefined();
  });

  it('forgets a session whose cache was deleted at sign-out, so nothing re-creates it', async () => {
    const { name, session } = await seededCache();
    rememberSession(name, 2);
    await deleteSessionCache(session.id);
    startEarlyRead();
    expect(takeEarlyDb(name)).toBeUndefined();
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(name);
    forgetSession(name);
  });
});
