// The virtualized scrollers' sizes remembered (state/viewports.ts): with the size it had last time,
// a cold open's list renders its rows in sight in its first render, and an opened conversation its
// newest messages, and the virtualizer's measurement renders nothing again; without it, each
// renders again before its first frame. (The test setup's scrollers are 400 × 600.)
import { screen, within } from '@testing-library/react';
import type { ProfilerOnRenderCallback } from 'react';
import { Profiler } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../shared/api/records';
import { MessageList } from '../../renderer/src/components/MessageList';
import { earlyRows, rememberSession, startEarlyRead, takeEarlyDb } from '../../renderer/src/conversations/early-rows';
import { ListOrder } from '../../renderer/src/conversations/list-order';
import { defaultView, viewKey } from '../../renderer/src/conversations/view';
import { ConversationList } from '../../renderer/src/screens/ConversationList';
import { rememberedViewport, rememberViewport } from '../../renderer/src/state/viewports';
import { useUi } from '../../renderer/src/state/ui';
import { msg } from './fixtures';
import { renderWithSession, silentBridge } from './support/render';
import { seededCache } from './support/seeded-cache';

const KEY = 'inbox.viewport.list';

beforeEach(() => {
  localStorage.clear();
  useUi.setState({ view: defaultView, activeConversationId: undefined, selectedConversationId: undefined });
});

describe('a remembered viewport', () => {
  it('answers 0 × 0 (the virtualizer’s default) when nothing usable is stored', () => {
    expect(rememberedViewport('list')).toEqual({ width: 0, height: 0 });
    for (const text of ['not json', 'null', '[]', '{"width":400}', '{"width":400,"height":-1}', '{"width":400,"height":1e9}', '{"width":"400","height":"600"}', '{"width":400,"height":null}']) {
      localStorage.setItem(KEY, text);
      expect(rememberedViewport('list'), text).toEqual({ width: 0, height: 0 });
    }
  });

  it('remembers a measured size, writing only when it changed, and never a hidden list’s 0', () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    rememberViewport('list', { width: 400, height: 600 });
    rememberViewport('list', { width: 400, height: 600 });
    expect(setItem).toHaveBeenCalledTimes(1);
    rememberViewport('list', { width: 400, height: 0 });
    rememberViewport('list', { width: Number.NaN, height: 600 });
    expect(setItem).toHaveBeenCalledTimes(1);
    expect(rememberedViewport('list')).toEqual({ width: 400, height: 600 });
    rememberViewport('list', { width: 400, height: 720 });
    expect(setItem).toHaveBeenCalledTimes(2);
    expect(rememberedViewport('list')).toEqual({ width: 400, height: 720 });
    setItem.mockRestore();
  });
});

describe('a cold open’s list', () => {
  const order = new ListOrder();

  /** The list mounted with early rows of an 80-conversation cache; the commits it made before its first frame. */
  async function coldOpen() {
    const { session, name } = await seededCache();
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
    expect(rememberedViewport('list')).toEqual({ width: 400, height: 600 });
  });
});

describe('an opened conversation’s messages', () => {
  const history = (n: number) => Array.from({ length: n }, (_, i) => msg(i + 1, 1, { created_at: 1_700_000_000 + i }));
  const list = (messages: Message[]) => <MessageList messages={messages} gaps={[]} hasOlder={false} loadingOlder={false} onLoadOlder={() => undefined} />;

  /** Mounts the thread; the commits it made and the messages in the page synchronously after. */
  function open(messages: Message[]) {
    const commits: string[] = [];
    const onRender: ProfilerOnRenderCallback = (_id, phase) => commits.push(phase);
    const view = renderWithSession(
      <Profiler id="thread" onRender={onRender}>
        {list(messages)}
      </Profiler>,
      { bridge: silentBridge },
    );
    const shown = screen.getByRole('log', { name: 'Messages' }).querySelectorAll('article[data-message-id]').length;
    return { commits: [...commits], shown, view };
  }

  it('renders the newest messages in sight once, at the size the last conversation’s had; measures and renders again without it', async () => {
    const messages = history(40);
    // A first open measures the messages (kept when it closes) and the scroller (remembered).
    const first = open(messages);
    await vi.waitFor(() => expect(rememberedViewport('thread')).toEqual({ width: 400, height: 600 }));
    first.view.unmount();

    const again = open(messages);
    expect(again.commits[0]).toBe('mount');
    expect(again.commits).not.toContain('nested-update');
    // 600 px of 80 px messages and the overscan, from the newest.
    expect(again.shown).toBeGreaterThan(7);
    expect(again.view.container.querySelector('article[data-message-id="40"]')).toBeTruthy();
    again.view.unmount();

    localStorage.removeItem('inbox.viewport.thread');
    const unknown = open(messages);
    expect(unknown.commits).toContain('nested-update');
    unknown.view.unmount();
  });
});
