// The message list carrying out the follow rules (conversation/follow.ts) in a component: at the
// bottom it follows what arrives; scrolled up it counts it on a pill that goes to the newest.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/api/records';
import { MessageList } from '../../renderer/src/components/MessageList';
import { keepHeights, knownHeight } from '../../renderer/src/conversation/thread-heights';
import { msg } from './fixtures';
import { renderWithSession, silentBridge } from './support/render';

const history = (n: number, from = 1) => Array.from({ length: n }, (_, i) => msg(from + i, 1, { created_at: 1_700_000_000 + from + i }));
const list = (messages: Message[]) => <MessageList messages={messages} gaps={[]} hasOlder={false} loadingOlder={false} onLoadOlder={() => undefined} />;
const log = () => screen.getByRole('log', { name: 'Messages' });
const fromBottom = () => log().scrollHeight - log().scrollTop - log().clientHeight;

describe('MessageList follows the thread', () => {
  it('at the bottom, a new message keeps the view at the bottom', async () => {
    const start = history(30);
    const { rerenderWith } = renderWithSession(list(start), { bridge: silentBridge });
    await waitFor(() => expect(fromBottom()).toBeLessThanOrEqual(1));
    rerenderWith(list([...start, msg(31, 1, { created_at: 1_700_000_100 })]));
    await waitFor(() => expect(fromBottom()).toBeLessThanOrEqual(1));
    await waitFor(() => expect(log().querySelector('article[data-message-id="31"]')).toBeTruthy());
    expect(screen.queryByRole('button', { name: /new message/ })).toBeNull();
  });

  it('scrolled up, new messages wait on a pill; the pill goes to the newest and leaves', async () => {
    const start = history(30);
    const { rerenderWith } = renderWithSession(list(start), { bridge: silentBridge });
    await waitFor(() => expect(fromBottom()).toBeLessThanOrEqual(1));
    act(() => {
      log().scrollTop = 0;
      fireEvent.scroll(log());
    });
    await waitFor(() => expect(log().getAttribute('data-at-bottom')).toBe('false'));
    rerenderWith(list([...start, ...history(2, 31)]));
    const pill = await screen.findByRole('button', { name: /2 new messages/ });
    expect(log().scrollTop).toBe(0);
    act(() => pill.click());
    await waitFor(() => expect(fromBottom()).toBeLessThanOrEqual(1));
    await waitFor(() => expect(screen.queryByRole('button', { name: /new message/ })).toBeNull());
  });

  it('opened at the "New" separator of a short thread, it is at the bottom, so what arrives is followed, not put on the pill', async () => {
    const start = history(3);
    const short = (messages: Message[]) => <MessageList messages={messages} gaps={[]} hasOlder={false} loadingOlder={false} onLoadOlder={() => undefined} newFrom={2} />;
    const { rerenderWith } = renderWithSession(short(start), { bridge: silentBridge });
    await waitFor(() => expect(log().getAttribute('data-at-bottom')).toBe('true'));
    rerenderWith(short([...start, msg(4, 1, { created_at: 1_700_000_100 })]));
    await waitFor(() => expect(log().querySelector('article[data-message-id="4"]')).toBeTruthy());
    expect(screen.queryByRole('button', { name: /new message/ })).toBeNull();
  });

  it('closing keeps the heights its items were measured at, for the next time the thread opens (bounded)', async () => {
    const start = history(30, 5_001);
    const { unmount } = renderWithSession(list(start), { bridge: silentBridge });
    await waitFor(() => expect(fromBottom()).toBeLessThanOrEqual(1));
    expect(knownHeight('m5030')).toBeUndefined();
    unmount();
    // jsdom's measured items are 80 px (setup.ts); the guess is 96.
    expect(knownHeight('m5030')).toBe(80);
    keepHeights(new Map(Array.from({ length: 3_000 }, (_, i) => [`x${i}`, 1])), 600);
    expect(knownHeight('m5030')).toBeUndefined();
    expect(knownHeight('x2999')).toBe(1);
  });
});
