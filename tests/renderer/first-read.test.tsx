// A view's first read takes only the newest messages (conversation-read.ts FIRST_READ_MESSAGES);
// the live read that follows takes them all. Meanwhile nothing is decided for want of an older
// message the cache holds: no older page is asked of the service, the "New" separator is not
// given up, a search hit held further back is not asked of the service.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../../shared/api/records';
import { FIRST_READ_MESSAGES, keepSameRead, readConversation } from '../../renderer/src/conversation/conversation-read';
import { liveReadSettings } from '../../renderer/src/db/live-read';
import { saveConversations } from '../../renderer/src/db/save';
import type { InboxDb } from '../../renderer/src/db/schema';
import { ConversationView } from '../../renderer/src/screens/ConversationView';
import { useUi } from '../../renderer/src/state/ui';
import { recordPage } from '../../renderer/src/sync/history';
import { fakeBridge } from './fake-bridge';
import { conv, range } from './fixtures';
import { renderWithSession } from './support/render';

const HELD = 80;
const never = () => new Promise<never>(() => undefined);
const unreachable = () => ({ ok: false as const, error: { kind: 'network' as const, message: 'The service could not be reached.' } });

/** Conversation 7 with messages 1..80 cached and its whole history known (nothing older). */
async function cache(db: InboxDb, row: Conversation = conv(7)) {
  await saveConversations(db, [row]);
  await recordPage(db, 7, { kind: 'latest' }, range(61, HELD, 7));
  await recordPage(db, 7, { kind: 'before', before: 61 }, range(1, 60, 7));
  await recordPage(db, 7, { kind: 'before', before: 1 }, []);
}

const log = () => screen.getByRole('log', { name: 'Messages' });
const listCalls = (calls: { name: string; input: unknown }[]) => calls.filter((c) => c.name === 'messages.list').map((c) => c.input as { before?: number; after?: number });

beforeEach(() => useUi.setState({ notice: undefined, contactPanelOpen: false, jump: undefined }));
afterEach(() => void (liveReadSettings.followAfterMs = 250));

describe("a view's first read", () => {
  it('takes the newest messages, oldest first, and says when older ones are held; the full read keeps their objects', async () => {
    const fake = fakeBridge({});
    const { db } = renderWithSession(<></>, { bridge: fake.bridge });
    await cache(db);
    const first = await readConversation(db, 7, FIRST_READ_MESSAGES);
    expect(first.messages.map((m) => m.id)).toEqual(range(HELD - FIRST_READ_MESSAGES + 1, HELD).map((m) => m.id));
    expect(first.olderHeld).toBe(true);
    expect((await readConversation(db, 7, HELD)).olderHeld).toBe(false);
    const all = await readConversation(db, 7);
    expect(all.messages).toHaveLength(HELD);
    expect(all.olderHeld).toBe(false);
    const kept = keepSameRead(first, all);
    expect(kept.olderHeld).toBe(false);
    expect(kept.messages).toHaveLength(HELD);
    expect(kept.messages.at(-1)).toBe(first.messages.at(-1));
  });

  it('asks the service for no older page and shows no hole older than what it read, while the rest is read', async () => {
    liveReadSettings.followAfterMs = 60_000;
    const fake = fakeBridge({ 'messages.list': never, 'conversations.read': never });
    const { db, rerenderWith } = renderWithSession(<></>, { bridge: fake.bridge });
    await cache(db);
    // The service has older messages than the cache, and the cache a hole between 5 and 9.
    await db.cursors.update(7, { hasOlder: true, gaps: [{ after: 5, before: 9 }] });
    rerenderWith(<ConversationView conversationId={7} />);
    await waitFor(() => expect(within(log()).queryAllByRole('article').length).toBeGreaterThan(0));
    const firstHeight = log().scrollHeight;
    // Scrolled to the top of the first read: the rest is on this computer, not asked of the
    // service, and the hole is not above message 21, where it is not.
    const el = log();
    el.scrollTop = 0;
    fireEvent.scroll(el);
    await new Promise((r) => setTimeout(r, 50));
    expect(el.querySelector('.history-gap')).toBeNull();
    expect(listCalls(fake.calls).filter((c) => c.before !== undefined || c.after !== undefined)).toEqual([]);
    // A write to it starts the live read at once (without one, 250 ms after): all 80 are in.
    await db.messages.update(HELD, { content: 'edited' });
    await waitFor(() => expect(log().scrollHeight).toBeGreaterThan(firstHeight + 10 * 80));
  });

  it('does not give up the "New" separator for want of an older message: it is placed once all are read', async () => {
    liveReadSettings.followAfterMs = 60_000;
    // At the service's cap, the row cached without the record that places it: the service's record
    // says the agent last looked at 14 (message 14), so the first unread is message 15, further
    // back than the first read reaches. The newest page cannot be fetched (that alone settles the
    // separator when nothing older is held).
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const record = { ...conv(7, { unread: 10 }), agent_last_seen_at: 14 };
    const fake = fakeBridge({
      'messages.list': unreachable,
      'conversations.read': async () => {
        await held;
        return { ok: true, value: { conversation: record, etag: null } };
      },
      'conversations.updateLastSeen': () => ({ ok: true, value: { ...record, unread_count: 0 } }),
    });
    const { db, rerenderWith } = renderWithSession(<></>, { bridge: fake.bridge });
    await cache(db, conv(7, { unread: 10 }));
    await db.conversationRecords.delete(7);
    rerenderWith(<ConversationView conversationId={7} />);
    await waitFor(() => expect(within(log()).queryAllByRole('article').length).toBeGreaterThan(0));
    await waitFor(() => expect(listCalls(fake.calls).length).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 50));
    release();
    await waitFor(() => expect(within(log()).queryByTestId('new-divider')).not.toBeNull());
    const all = [...log().querySelectorAll('[data-testid="new-divider"], article[data-message-id]')];
    const at = all.findIndex((el) => el.getAttribute('data-testid') === 'new-divider');
    expect(Number(all[at + 1]!.getAttribute('data-message-id'))).toBe(15);
  });

  it('a search hit further back than the first read is shown from the cache, not asked of the service', async () => {
    const fake = fakeBridge({ 'messages.list': never, 'conversations.read': never });
    const { db, rerenderWith } = renderWithSession(<></>, { bridge: fake.bridge });
    await cache(db);
    useUi.setState({ selectedConversationId: 7, jump: { conversationId: 7, messageId: 10, n: 1 } });
    rerenderWith(<ConversationView conversationId={7} />);
    await waitFor(() => expect(log().querySelector('article[data-message-id="10"]')?.getAttribute('data-highlighted')).toBe('true'));
    expect(listCalls(fake.calls).filter((c) => c.before !== undefined || c.after !== undefined)).toEqual([]);
  });
});
