// What a switch lays out (issue 14). The thread is laid out once, in the width it keeps: a
// conversation read ahead shows its messages and contact in the switch's first commit; otherwise the
// contact panel's place is held while the conversation's first read is on its way (the panel came
// with the read and narrowed the thread a moment after it was measured wide), and an item laid out
// before at this width mounts at the height it had, without reading the layout in the switch's commit.
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../shared/api/records';
import { MessageList } from '../../renderer/src/components/MessageList';
import { heightAt, keepHeights } from '../../renderer/src/conversation/thread-heights';
import { saveConversations } from '../../renderer/src/db/save';
import { ConversationView } from '../../renderer/src/screens/ConversationView';
import { useUi } from '../../renderer/src/state/ui';
import { recordPage } from '../../renderer/src/sync/history';
import { conv, msg, range } from './fixtures';
import { renderWithSession, silentBridge } from './support/render';

const history = (from: number, n: number) => Array.from({ length: n }, (_, i) => msg(from + i, 1, { created_at: 1_700_000_000 + from + i }));
const list = (messages: Message[]) => <MessageList messages={messages} gaps={[]} hasOlder={false} loadingOlder={false} onLoadOlder={() => undefined} />;
const panel = () => document.querySelector('aside.contact-panel');
/** jsdom's thread is 400 px wide (setup.ts). */
const WIDTH = 400;

beforeEach(() => useUi.setState({ notice: undefined, contactPanelOpen: true, jump: undefined }));
afterEach(() => vi.restoreAllMocks());

describe('the contact panel while a conversation is read', () => {
  it('holds its place from the first render, before the cache answers, and is the contact once it has', async () => {
    const { db, rerenderWith } = renderWithSession(<></>, { bridge: silentBridge });
    await saveConversations(db, [conv(7)]);
    await recordPage(db, 7, { kind: 'latest' }, range(1, 20, 7));
    rerenderWith(<ConversationView conversationId={7} />);
    // The read has not answered yet: the place is there, empty and hidden from assistive technology.
    expect(panel()).not.toBeNull();
    expect(panel()!.getAttribute('aria-hidden')).toBe('true');
    await screen.findByRole('complementary', { name: 'Contact details' });
    expect(document.querySelectorAll('aside.contact-panel')).toHaveLength(1);
  });

  it('is the contact from the first render, with the messages, when the conversation was read ahead', async () => {
    const { db, inbox, rerenderWith } = renderWithSession(<></>, { bridge: silentBridge });
    await saveConversations(db, [conv(7)]);
    await recordPage(db, 7, { kind: 'latest' }, range(1, 20, 7));
    await inbox.conversations.readAhead.prepare(7);
    expect(inbox.conversations.readAhead.holds(7)).toBe(true);
    rerenderWith(<ConversationView conversationId={7} />);
    // One commit: nothing awaited since the render, and no empty place held.
    expect(screen.getByRole('complementary', { name: 'Contact details' })).toBeTruthy();
    expect(document.querySelectorAll('aside.contact-panel[aria-hidden="true"]')).toHaveLength(0);
    expect(document.querySelector('article[data-message-id="20"]')).not.toBeNull();
    // The view took the read it showed.
    expect(inbox.conversations.readAhead.holds(7)).toBe(false);
  });

  it('leaves no empty place when the conversation is not cached', async () => {
    const { rerenderWith } = renderWithSession(<></>, { bridge: silentBridge });
    rerenderWith(<ConversationView conversationId={8} />);
    expect(panel()).not.toBeNull();
    await waitFor(() => expect(panel()).toBeNull());
  });

  it('is not held when the agent closed it', async () => {
    useUi.setState({ contactPanelOpen: false });
    const { rerenderWith } = renderWithSession(<></>, { bridge: silentBridge });
    rerenderWith(<ConversationView conversationId={9} />);
    expect(panel()).toBeNull();
  });
});

describe('thread items laid out before', () => {
  it('mount at the height they had at this width, reading no layout; at another width they are measured', async () => {
    keepHeights(new Map(history(9_001, 20).map((m) => [`m${m.id}`, 50])), WIDTH);
    keepHeights(new Map(history(9_101, 20).map((m) => [`m${m.id}`, 50])), WIDTH + 100);
    expect(heightAt('m9001', WIDTH)).toBe(50);
    expect(heightAt('m9101', WIDTH)).toBeUndefined();
    const reads = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get');
    const itemReads = () => reads.mock.contexts.filter((el) => (el as HTMLElement).hasAttribute('data-index')).length;

    // As in the app: the list mounts while the read is on its way, then the messages come.
    const first = renderWithSession(list([]), { bridge: silentBridge });
    first.rerenderWith(list(history(9_001, 20)));
    await waitFor(() => expect(document.querySelector('article[data-message-id="9020"]')).not.toBeNull());
    expect(itemReads()).toBe(0);
    // Placed at the kept heights (the day divider and the start are measured: 80 px in jsdom).
    const spacer = screen.getByRole('log', { name: 'Messages' }).firstElementChild as HTMLElement;
    const placed = parseFloat(spacer.style.height);
    first.unmount();

    const second = renderWithSession(list([]), { bridge: silentBridge });
    second.rerenderWith(list(history(9_101, 20)));
    await waitFor(() => expect(document.querySelector('article[data-message-id="9120"]')).not.toBeNull());
    expect(itemReads()).toBeGreaterThan(0);
    // Measured at 80 px each, not placed at the 50 kept at another width.
    expect(parseFloat((screen.getByRole('log', { name: 'Messages' }).firstElementChild as HTMLElement).style.height)).toBeGreaterThan(placed);
  });
});
