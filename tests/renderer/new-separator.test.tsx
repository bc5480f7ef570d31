// The "New" separator of a conversation opened by number before the cache holds it (a deep link,
// "#N", a notification): what was unread comes from the service's record, read before opening's
// read mark goes (the mark would zero it: the journey missed the separator about 1 run in 3).
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Conversation, Message } from '../../shared/api/records';
import { ConversationView } from '../../renderer/src/screens/ConversationView';
import { useUi } from '../../renderer/src/state/ui';
import { recordPage } from '../../renderer/src/sync/history';
import { saveConversations } from '../../renderer/src/db/save';
import { fakeBridge } from './fake-bridge';
import { conv, msg } from './fixtures';
import { renderWithSession } from './support/render';

beforeEach(() => useUi.setState({ notice: undefined, contactPanelOpen: false }));

/**
 * A service whose conversation read answers only when the test says so, with the record as it is
 * then: unread until `conversations.updateLastSeen` arrives.
 */
function controlledService(record: Conversation, messages: Message[]) {
  let seen = false;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const fake = fakeBridge({
    'conversations.read': async () => {
      await held;
      return { ok: true, value: { conversation: seen ? { ...record, unread_count: 0, agent_last_seen_at: 2_000_000_000 } : record, etag: null } };
    },
    'messages.list': () => ({ ok: true, value: { payload: messages } }),
    'conversations.updateLastSeen': () => {
      seen = true;
      return { ok: true, value: { ...record, unread_count: 0 } };
    },
  });
  return { ...fake, release };
}

const log = () => screen.getByRole('log', { name: 'Messages' });

describe('the "New" separator of a conversation opened before it is cached', () => {
  // Five messages, the contact's last three unread.
  const thread = [msg(1, 7, { created_at: 100 }), msg(2, 7, { created_at: 110, message_type: 1 }), msg(3, 7, { created_at: 120 }), msg(4, 7, { created_at: 130 }), msg(5, 7, { created_at: 140 })];

  it("is placed from the service's unread count, and the read mark waits for that read", async () => {
    const svc = controlledService(conv(7, { unread: 3 }), thread);
    const { db } = renderWithSession(<ConversationView conversationId={7} />, { bridge: svc.bridge });
    // The history is shown while the record is still on its way: nothing is marked read yet (the
    // mark would make the service's answer say 0 unread).
    await waitFor(() => expect(within(log()).queryAllByRole('article')).toHaveLength(5));
    expect(await db.outbox.filter((e) => e.kind === 'read').count()).toBe(0);
    expect(within(log()).queryByTestId('new-divider')).toBeNull();

    svc.release();
    await waitFor(() => expect(within(log()).queryByTestId('new-divider')).not.toBeNull());
    expect(separatorAbove()).toBe(3);
    // Then it is marked read, as opening a cached one is.
    await waitFor(async () => expect(await db.outbox.filter((e) => e.kind === 'read').count()).toBe(1));
    // Still where it was put, though the row now says nothing is unread.
    await waitFor(async () => expect((await db.conversations.get(7))?.unreadCount).toBe(0));
    expect(within(log()).getAllByTestId('new-divider')).toHaveLength(1);
    expect(separatorAbove()).toBe(3);
  });

  it("at the service's cap, from the record's last-seen time", async () => {
    const many = Array.from({ length: 14 }, (_, i) => msg(i + 1, 8, { created_at: 1_000 + i }));
    const svc = controlledService({ ...conv(8, { unread: 10 }), agent_last_seen_at: 1_001 }, many);
    renderWithSession(<ConversationView conversationId={8} />, { bridge: svc.bridge });
    await waitFor(() => expect(within(log()).queryAllByRole('article').length).toBeGreaterThan(0));
    svc.release();
    await waitFor(() => expect(within(log()).queryByTestId('new-divider')).not.toBeNull());
    // Seen at 1,001 (message 2): the first unread is message 3, four further up than the cap says.
    expect(separatorAbove()).toBe(3);
  });

  it('left for another conversation before the record says what was unread: it is still marked read (chaos, seed 7)', async () => {
    // Not cached (opened by number), and cached at the service's cap without a record: both wait
    // for the service's record to place the separator; the agent leaves while it is held.
    for (const cached of [false, true]) {
      useUi.setState({ selectedConversationId: 7 });
      const svc = controlledService(conv(7, { unread: 10 }), thread);
      const { db, unmount, rerenderWith } = renderWithSession(<></>, { bridge: svc.bridge });
      if (cached) {
        // The row from the list, without the record (its last-seen time) that places the separator at the cap.
        await saveConversations(db, [conv(7, { unread: 10 })]);
        await db.conversationRecords.delete(7);
      }
      rerenderWith(<ConversationView conversationId={7} />);
      await waitFor(() => expect(within(log()).queryAllByRole('article')).toHaveLength(5));
      expect(await db.outbox.filter((e) => e.kind === 'read').count()).toBe(0);
      useUi.setState({ selectedConversationId: 8 });
      unmount();
      await waitFor(async () => expect(await db.outbox.filter((e) => e.kind === 'read' && e.conversationId === 7).count()).toBe(1));
      svc.release();
      await db.outbox.clear();
    }
  });

  it('closed to no conversation in that state ("mark unread" does so): not marked read behind it', async () => {
    useUi.setState({ selectedConversationId: 7 });
    const svc = controlledService(conv(7, { unread: 10 }), thread);
    const { db, unmount, rerenderWith } = renderWithSession(<></>, { bridge: svc.bridge });
    rerenderWith(<ConversationView conversationId={7} />);
    await waitFor(() => expect(within(log()).queryAllByRole('article')).toHaveLength(5));
    useUi.setState({ selectedConversationId: undefined });
    unmount();
    // A read would be queued at once if it were going to be; give it the same moments as above.
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
    expect(await db.outbox.filter((e) => e.kind === 'read').count()).toBe(0);
    svc.release();
  });

  it('none when the record cannot be read (offline): it is still marked read', async () => {
    const fake = fakeBridge({
      'conversations.read': () => ({ ok: false, error: { kind: 'network', message: 'The service could not be reached.' } }),
      'messages.list': () => ({ ok: true, value: { payload: thread } }),
    });
    const { db } = renderWithSession(<ConversationView conversationId={7} />, { bridge: fake.bridge });
    await waitFor(async () => expect(await db.outbox.filter((e) => e.kind === 'read').count()).toBe(1));
    await waitFor(() => expect(within(log()).queryAllByRole('article')).toHaveLength(5));
    expect(within(log()).queryByTestId('new-divider')).toBeNull();
  });
});

describe('the "New" separator when what is held cannot place it yet', () => {
  it('waits for the newest page: a few messages cached without their history (the feed, a live event) say nothing of where unread starts', async () => {
    const five = [1, 2, 3, 4, 5].map((id) => msg(id, 9, { created_at: 100 + id }));
    let releaseRead!: () => void;
    const readHeld = new Promise<void>((resolve) => (releaseRead = resolve));
    let releaseList!: () => void;
    const listHeld = new Promise<void>((resolve) => (releaseList = resolve));
    const fake = fakeBridge({
      'conversations.read': async () => {
        await readHeld;
        return { ok: true, value: { conversation: conv(9, { unread: 5 }), etag: null } };
      },
      'messages.list': async () => {
        await listHeld;
        return { ok: true, value: { payload: five } };
      },
      'conversations.updateLastSeen': () => ({ ok: true, value: conv(9, { unread: 0 }) }),
    });
    const { db } = renderWithSession(<ConversationView conversationId={9} />, { bridge: fake.bridge });
    // Held, with no cursor: nothing says whether older messages (unread too) come before them.
    await db.messages.bulkPut(five);
    await waitFor(() => expect(within(log()).queryAllByRole('article')).toHaveLength(5));
    releaseRead();
    await waitFor(async () => expect(await db.outbox.filter((e) => e.kind === 'read').count()).toBe(1));
    expect(within(log()).queryByTestId('new-divider')).toBeNull();
    // The newest page says these five are the whole history: all five were unread.
    releaseList();
    await waitFor(() => expect(within(log()).queryByTestId('new-divider')).not.toBeNull());
    expect(separatorAbove()).toBe(1);
  });
});

describe('the view waits for the separator before taking its start', () => {
  // Thirty messages, far more than the 600 px pane holds; the contact's last twenty unread (the
  // count at the service's cap, the last-seen time at message 10).
  const long = Array.from({ length: 30 }, (_, i) => msg(i + 1, 11, { created_at: 1_000 + i }));
  const fromBottom = () => log().scrollHeight - log().scrollTop - log().clientHeight;

  it('opened before the record says what was unread, with the history already held, it opens at the separator, not the bottom', async () => {
    // The journey's race: the newest page lands (and shows) before the record's read answers. The
    // view used to settle at the bottom then, and the separator came in above it, out of view.
    const svc = controlledService({ ...conv(11, { unread: 10 }), agent_last_seen_at: 1_009 }, long);
    renderWithSession(<ConversationView conversationId={11} />, { bridge: svc.bridge });
    await waitFor(() => expect(within(log()).queryAllByRole('article').length).toBeGreaterThan(0));
    svc.release();
    await waitFor(() => expect(within(log()).queryByTestId('new-divider')).not.toBeNull());
    expect(separatorAbove()).toBe(11);
    // Twenty messages of 80 px below it: the view is near the top, far from the bottom.
    await waitFor(() => expect(fromBottom()).toBeGreaterThan(1_000));
  });

  it('a read conversation is not held back: it opens at the bottom while the service has not answered', async () => {
    const never = () => new Promise<never>(() => undefined);
    const fake = fakeBridge({ 'conversations.read': never, 'messages.list': never });
    const { db, rerenderWith } = renderWithSession(<></>, { bridge: fake.bridge });
    await saveConversations(db, [conv(12, { unread: 0 })]);
    await recordPage(db, 12, { kind: 'latest' }, long.map((m) => ({ ...m, conversation_id: 12 })));
    rerenderWith(<ConversationView conversationId={12} />);
    await waitFor(() => expect(within(log()).queryAllByRole('article').length).toBeGreaterThan(0));
    await waitFor(() => expect(fromBottom()).toBeLessThanOrEqual(1));
    expect(within(log()).queryByTestId('new-divider')).toBeNull();
  });
});

/** The id of the message the separator sits above (the next message in the log's order). */
function separatorAbove(): number | undefined {
  const all = [...log().querySelectorAll('[data-testid="new-divider"], article[data-message-id]')];
  const at = all.findIndex((el) => el.getAttribute('data-testid') === 'new-divider');
  const next = all[at + 1];
  return next ? Number(next.getAttribute('data-message-id')) : undefined;
}
