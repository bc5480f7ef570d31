// A cold open with this session's cache: the list's first rows were read before the inbox rendered,
// and the work they do not need (here the header's word on the outbox, the list's revalidation, the
// directory's refresh and the outbox's first send) begins only once a frame has shown them (client/first-rows-gate.ts):
// before, it began in the commit that showed the rows, ahead of that commit's frame. Frames are held here (no
// animation frame runs until the test lets it), so "before the frame" is a state to look at.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionDbName } from '../../renderer/src/client/inbox-client';
import { OutboxStatus } from '../../renderer/src/components/OutboxStatus';
import { rememberSession, startEarlyRead, takeEarlyDb } from '../../renderer/src/conversations/early-rows';
import type * as View from '../../renderer/src/conversations/view';
import { defaultView } from '../../renderer/src/conversations/view';
import { useDirectorySync } from '../../renderer/src/directory/use-directory';
import { InboxDb } from '../../renderer/src/db/schema';
import { saveConversations } from '../../renderer/src/db/save';
import { SessionProvider, useClientRunning } from '../../renderer/src/platform/session';
import { ConversationList } from '../../renderer/src/screens/ConversationList';
import { useUi } from '../../renderer/src/state/ui';
import { conv } from './fixtures';
import type { Bridge } from '../../shared/bridge/contract';
import { testSession } from './support/render';
import { ListOrder } from '../../renderer/src/conversations/list-order';

// The list's read of its whole view, counted.
const wholeReads = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../renderer/src/conversations/view', async (importOriginal) => {
  const original = await importOriginal<typeof View>();
  return {
    ...original,
    readView: (...args: Parameters<typeof original.readView>) => {
      wholeReads.n++;
      return original.readView(...args);
    },
  };
});

const order = new ListOrder();
const rowIds = () => within(screen.getByRole('listbox', { name: /conversations/ })).queryAllByRole('option').map((o) => o.getAttribute('data-conversation-id'));
const outboxWord = () => screen.getByTestId('outbox-status').textContent;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Animation frames wait for `runFrames` (jsdom's own would come every 16 ms).
let frames: FrameRequestCallback[] = [];
const runFrames = () =>
  act(() => {
    const due = frames;
    frames = [];
    for (const frame of due) frame(performance.now());
  });

beforeEach(() => {
  localStorage.clear();
  useUi.setState({ view: defaultView, activeConversationId: undefined, selectedConversationId: undefined });
  frames = [];
  asked = [];
  wholeReads.n = 0;
  vi.stubGlobal('requestAnimationFrame', (frame: FrameRequestCallback) => frames.push(frame));
  vi.stubGlobal('cancelAnimationFrame', () => undefined);
});
afterEach(() => vi.unstubAllGlobals());

// What the page asked main for, in order (no call is answered: the service is out of reach).
let asked: string[] = [];
const recordingBridge = { call: (name: string) => (asked.push(name), new Promise(() => undefined)), on: () => () => undefined } as unknown as Bridge;

/** The session's background work (outbox, catch-up) and the directory's refresh, as the inbox runs them. */
function Running() {
  useClientRunning();
  useDirectorySync();
  return null;
}

/** A cache of `rows` open conversations of agent 2 in inbox 1, and one change waiting to be sent, read early as a cold open does. */
async function coldOpen(rows: number) {
  const session = testSession();
  const name = sessionDbName(session.id);
  const db = new InboxDb(name);
  await saveConversations(db, Array.from({ length: rows }, (_, i) => conv(i + 1, { assignee: 2, lastActivityAt: 1_000 + i })));
  await db.inboxes.put({ id: 1, name: 'Website chat', channel_type: 'Channel::WebWidget' } as never);
  await db.outbox.add({ clientId: 'c1', conversationId: 1, kind: 'read', payload: { kind: 'read' }, state: 'queued', createdAt: 1, attempts: 0, nextAttemptAt: 0 });
  db.close();
  rememberSession(name, 2);
  startEarlyRead();
  // The early read is in before the inbox renders (main answered after the cache).
  await settle(50);
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false, networkMode: 'always' } } });
  const view = render(
    <QueryClientProvider client={queries}>
      <SessionProvider bridge={recordingBridge} session={session} expired={false}>
        <Running />
        <OutboxStatus />
        <ConversationList order={order} />
      </SessionProvider>
    </QueryClientProvider>,
  );
  return { view, name };
}

describe('reads held until the first rows are on screen', () => {
  it('begin once a frame has shown the rows read early, not in the commit that shows them', async () => {
    const { view, name } = await coldOpen(30);
    expect(rowIds()[0]).toBe('30');
    // Long enough for any read begun from a zero-delay timer to answer; no frame has run.
    await settle(100);
    expect(outboxWord()).toBe('');
    // Nor has the list's revalidation, the directory's refresh, the catch-up or the outbox asked main anything.
    expect(asked).toEqual([]);

    // The frame that shows the rows: the held reads are asked, and answered, before the whole
    // view's read (10,000 rows in a real cache) is asked a frame later.
    runFrames();
    for (let i = 0; i < 50 && outboxWord() === ''; i++) await settle(20);
    expect(outboxWord()).toBe('Saving 1 change…');
    expect(wholeReads.n).toBe(0);
    runFrames();
    await waitFor(() => expect(wholeReads.n).toBe(1));
    // Now they have: the view's first page, the directory, and the waiting change sent.
    await waitFor(() => expect(asked).toEqual(expect.arrayContaining(['conversations.list', 'inboxes.list', 'conversations.read'])));
    view.unmount();
    takeEarlyDb(name)?.close();
  });

  it('the directory the rows show (their inbox chip) is read beside them, in their first frame', async () => {
    const { view, name } = await coldOpen(30);
    const first = within(screen.getByRole('listbox', { name: /conversations/ })).getAllByRole('option')[0]!;
    expect(first.querySelector('.chip.inbox-name')?.textContent).toBe('Website chat');
    expect(frames.length).toBeGreaterThan(0);
    view.unmount();
    takeEarlyDb(name)?.close();
  });

  it('begin at once when the cache has no rows to show', async () => {
    const { view, name } = await coldOpen(0);
    // No frame is run here.
    await waitFor(() => expect(outboxWord()).toBe('Saving 1 change…'));
    view.unmount();
    takeEarlyDb(name)?.close();
  });
});
