// The list's viewport remembered across opens (state/list-viewport.ts): with the size it had last
// time, a cold open's list renders its rows in sight in its first render and the virtualizer's
// measurement renders nothing again; without it, the list renders again before its first frame.
// (The test setup's scrollers are 400 × 600.)
import { screen, within } from '@testing-library/react';
import type { ProfilerOnRenderCallback } from 'react';
import { Profiler } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionDbName } from '../../renderer/src/client/inbox-client';
import { earlyRows, rememberSession, startEarlyRead, takeEarlyDb } from '../../renderer/src/conversations/early-rows';
import { ListOrder } from '../../renderer/src/conversations/list-order';
import { defaultView, viewKey } from '../../renderer/src/conversations/view';
import { saveConversations } from '../../renderer/src/db/save';
import { InboxDb } from '../../renderer/src/db/schema';
import { ConversationList } from '../../renderer/src/screens/ConversationList';
import { rememberedListViewport, rememberListViewport } from '../../renderer/src/state/list-viewport';
import { useUi } from '../../renderer/src/state/ui';
import { conv } from './fixtures';
import { renderWithSession, silentBridge, testSession } from './support/render';

const KEY = 'inbox.listViewport';

beforeEach(() => {
  localStorage.clear();
  useUi.setState({ view: defaultView, activeConversationId: undefined, selectedConversationId: undefined });
});

describe('the remembered list viewport', () => {
  it('answers 0 × 0 (the virtualizer’s default) when nothing usable is stored', () => {
    expect(rememberedListViewport()).toEqual({ width: 0, height: 0 });
    for (const text of ['not json', 'null', '[]', '{"width":400}', '{"width":400,"height":-1}', '{"width":400,"height":1e9}', '{"width":"400","height":"600"}', '{"width":400,"height":null}']) {
      localStorage.setItem(KEY, text);
      expect(rememberedListViewport(), text).toEqual({ width: 0, height: 0 });
    }
  });

  it('remembers a measured size, writing only when it changed, and never a hidden list’s 0', () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    rememberListViewport({ width: 400, height: 600 });
    rememberListViewport({ width: 400, height: 600 });
    expect(setItem).toHaveBeenCalledTimes(1);
    rememberListViewport({ width: 400, height: 0 });
    rememberListViewport({ width: Number.NaN, height: 600 });
    expect(setItem).toHaveBeenCalledTimes(1);
    expect(rememberedListViewport()).toEqual({ width: 400, height: 600 });
    rememberListViewport({ width: 400, height: 720 });
    expect(setItem).toHaveBeenCalledTimes(2);
    expect(rememberedListViewport()).toEqual({ width: 400, height: 720 });
    setItem.mockRestore();
  });
});

describe('a cold open’s list', () => {
  const order = new ListOrder();

  /** The list mounted with early rows of an 80-conversation cache; the commits it made before its first frame. */
  async function coldOpen() {
    const session = testSession();
    const name = sessionDbName(session.id);
    const db = new InboxDb(name);
    await saveConversations(db, Array.from({ length: 80 }, (_, i) => conv(i + 1, { assignee: 2, lastActivityAt: 1_000 + i })));
    db.close();
    rememberSession(name, 2);
    startEarlyRead();
    await vi.waitFor(() => expect(earlyRows(name, 2, viewKey(defaultView))).toBeDefined());
    const commits: string[] = [];
    const onRender: ProfilerOnRenderCallback = (_id, phase) => commits.push(phase);
    renderWithSession(
      <Profiler id="list" onRender={onRender}>
        <ConversationList order={order} />
      </Profiler>,
      { bridge: silentBridge, session },
    );
    // Synchronously after the render: what the first frame would show.
    const rows = within(screen.getByRole('listbox', { name: /conversations/ })).queryAllByRole('option').length;
    takeEarlyDb(name)?.close();
    return { commits: [...commits], rows };
  }

  it('renders the rows in sight once, in its first render, at the size it had last time', async () => {
    localStorage.setItem(KEY, JSON.stringify({ width: 400, height: 600 }));
    const { commits, rows } = await coldOpen();
    // A "nested update" is React's name for a render asked for in a layout effect: done at once, before the frame.
    expect(commits[0]).toBe('mount');
    expect(commits).not.toContain('nested-update');
    // 600 px of comfortable rows, no overscan before the first frame.
    expect(rows).toBeGreaterThan(5);
  });

  it('without a remembered size, measures, then renders again with the rows, and remembers the size', async () => {
    const { commits, rows } = await coldOpen();
    expect(commits[0]).toBe('mount');
    expect(commits).toContain('nested-update');
    expect(rows).toBeGreaterThan(5);
    expect(rememberedListViewport()).toEqual({ width: 400, height: 600 });
  });
});
