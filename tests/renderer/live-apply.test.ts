// Live events into the cache (jsdom + fake-indexeddb): each event kind lands where the screens read
// it, the open conversation's history stays whole, events of another account are ignored, and a
// push never undoes a change the agent queued (or saw confirmed a moment before).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../../shared/api/live-events';
import { parseLiveEvent } from '../../shared/api/live-events';
import type { Conversation, Message } from '../../shared/api/records';
import { setStatus } from '../../renderer/src/actions/agent-actions';
import { readView } from '../../renderer/src/conversations/view';
import { InboxDb } from '../../renderer/src/db/schema';
import { saveConversations } from '../../renderer/src/db/save';
import { createLiveHandler } from '../../renderer/src/live/live-handler';
import type { LiveHandlerDeps } from '../../renderer/src/live/live-handler';
import { TYPING_TIMEOUT_MS, typingLine, typingLines, useTyping } from '../../renderer/src/live/typing';
import { fakeBridge } from './fake-bridge';
import { conv, msg, uniqueDbName } from './fixtures';
import { readersFor } from './support/live-deps';

const ACCOUNT = 1;
const ME = 2;
const NOW = 1_800_000_000_000;

/** An event exactly as main forwards it: parsed from the service's push shape. */
function pushed(name: string, data: Record<string, unknown>): LiveEvent {
  const r = parseLiveEvent(name, { account_id: ACCOUNT, ...data });
  if (!r.ok) throw new Error(`${name}: ${r.reason} ${r.ok === false ? r.issue : ''}`);
  return r.event;
}
const messagePush = (m: Message, summary: Record<string, unknown> = {}, name = 'message.created') =>
  pushed(name, { ...m, updated_at: '2026-11-21T12:00:00.000Z', conversation: { assignee_id: null, ...summary } });
/** Conversation push data (§2.2): no uuid, muted or last_non_activity_message; ISO first_reply_created_at. */
const conversationPush = (c: Conversation, name = 'conversation.updated') => {
  const { uuid: _u, muted: _m, last_non_activity_message: _l, ...rest } = c;
  return pushed(name, { ...rest, first_reply_created_at: '2026-11-21T11:00:00.000Z', contact_inbox: { source_id: 'x' } });
};

function setup(opts: { open?: number; handlers?: Parameters<typeof fakeBridge>[0] } = {}) {
  const db = new InboxDb(uniqueDbName('live'));
  const fake = fakeBridge(opts.handlers ?? {});
  const changed = vi.fn();
  const deps: LiveHandlerDeps = {
    db,
    ...readersFor(fake.bridge, db),
    accountId: ACCOUNT,
    meId: ME,
    openConversationId: () => opts.open,
    conversationsChanged: changed,
  };
  return { db, fake, handler: createLiveHandler(deps), changed };
}
const history = (db: InboxDb, id: number) => db.messages.where('[conversation_id+id]').between([id, 0], [id, Infinity]).toArray();

afterEach(() => {
  useTyping.getState().clear();
  vi.useRealTimers();
});

describe('messages', () => {
  it('message.created stores the message and moves its row: last activity, preview, unread count; the row goes to the top', async () => {
    const { db, handler } = setup();
    await saveConversations(db, [conv(1, { lastActivityAt: 5_000, preview: 'old words' }), conv(2, { lastActivityAt: 4_000 })]);
    const before = (await readView(db, { tab: 'all', status: 'open', sortBy: 'last_activity_at_desc' }, ME)).map((r) => r.id);
    expect(before).toEqual([1, 2]);
    await handler.handle(messagePush(msg(900, 2, { content: 'Is **anyone** there?', created_at: 6_000 }), { unread_count: 3, last_activity_at: 6_000 }));
    expect((await history(db, 2)).map((m) => m.content)).toEqual(['Is **anyone** there?']);
    expect(await db.conversations.get(2)).toMatchObject({ lastActivityAt: 6_000, preview: 'Is anyone there?', unreadCount: 3 });
    expect((await readView(db, { tab: 'all', status: 'open', sortBy: 'last_activity_at_desc' }, ME)).map((r) => r.id)).toEqual([2, 1]);
  });

  it('the same event twice is one message (stored by id)', async () => {
    const { db, handler } = setup();
    await saveConversations(db, [conv(1)]);
    const e = messagePush(msg(901, 1));
    await handler.handle(e);
    await handler.handle(e);
    expect(await history(db, 1)).toHaveLength(1);
  });

  it('message.updated replaces the message, and the preview when it is the one shown', async () => {
    const { db, handler } = setup();
    await saveConversations(db, [conv(1, { lastActivityAt: 5_000 })]);
    await handler.handle(messagePush(msg(902, 1, { content: 'first words', created_at: 5_100 })));
    await handler.handle(messagePush(msg(902, 1, { content: 'edited words', created_at: 5_100 }), {}, 'message.updated'));
    expect((await history(db, 1)).map((m) => m.content)).toEqual(['edited words']);
    expect((await db.conversations.get(1))?.preview).toBe('edited words');
    expect((await db.conversations.get(1))?.lastActivityAt).toBe(5_100);
  });

  it('an activity line is stored but does not become the preview', async () => {
    const { db, handler } = setup();
    await saveConversations(db, [conv(1, { preview: 'the customer wrote' })]);
    await handler.handle(messagePush(msg(903, 1, { content: 'Conversation was resolved', message_type: 2 })));
    expect((await db.conversations.get(1))?.preview).toBe('the customer wrote');
    expect(await history(db, 1)).toHaveLength(1);
  });

  it('a message of a conversation the cache does not hold reads that conversation, so its row appears', async () => {
    const { db, handler, fake } = setup({ handlers: { 'conversations.read': () => ({ ok: true, value: { conversation: conv(7, { preview: 'from the service' }), etag: null } }) } });
    await handler.handle(messagePush(msg(904, 7)));
    expect(fake.callsTo('conversations.read')).toEqual([{ conversationId: 7 }]);
    expect(await db.conversations.get(7)).toMatchObject({ id: 7 });
  });

  it('in a conversation whose history is held but not open, the ids in between become a gap (closed when opened)', async () => {
    const { db, handler, fake } = setup();
    await saveConversations(db, [conv(1)]);
    await db.cursors.put({ conversationId: 1, oldestId: 5, newestId: 10, hasOlder: false, gaps: [] });
    await handler.handle(messagePush(msg(15, 1)));
    expect(await db.cursors.get(1)).toEqual({ conversationId: 1, oldestId: 5, newestId: 15, hasOlder: false, gaps: [{ after: 10, before: 15 }] });
    expect(fake.callsTo('messages.list')).toEqual([]);
  });

  it('in the open conversation, one after page fills in what came before the live message: no gap', async () => {
    const { db, handler, fake } = setup({ open: 1, handlers: { 'messages.list': () => ({ ok: true, value: { payload: [msg(12, 1), msg(15, 1)] } }) } });
    await saveConversations(db, [conv(1)]);
    await db.cursors.put({ conversationId: 1, oldestId: 5, newestId: 10, hasOlder: false, gaps: [] });
    await handler.handle(messagePush(msg(15, 1)));
    expect(fake.callsTo('messages.list')).toEqual([{ conversationId: 1, after: 10 }]);
    expect(await db.cursors.get(1)).toMatchObject({ newestId: 15, gaps: [] });
    expect((await history(db, 1)).map((m) => m.id)).toEqual([12, 15]);
  });

  it('in the open conversation with the service unreachable, the gap is recorded instead', async () => {
    const { db, handler } = setup({ open: 1, handlers: { 'messages.list': () => ({ ok: false, error: { kind: 'network', message: 'down' } }) } });
    await saveConversations(db, [conv(1)]);
    await db.cursors.put({ conversationId: 1, oldestId: 5, newestId: 10, hasOlder: false, gaps: [] });
    await handler.handle(messagePush(msg(15, 1)));
    expect(await db.cursors.get(1)).toMatchObject({ newestId: 15, gaps: [{ after: 10, before: 15 }] });
  });
});

describe('conversations and contacts', () => {
  it('conversation.created adds the row and record through the list normalisation', async () => {
    const { db, handler } = setup();
    const c = conv(30, { contact: { id: 77, name: 'Dana Lee' }, assignee: ME, lastActivityAt: 9_000 });
    await handler.handle(conversationPush({ ...c, messages: [msg(950, 30, { content: 'hello there' })] }, 'conversation.created'));
    expect(await db.conversations.get(30)).toMatchObject({ id: 30, contactName: 'Dana Lee', assigneeId: ME, lastActivityAt: 9_000, preview: 'hello there', status: 'open' });
    expect((await readView(db, { tab: 'me', status: 'open', sortBy: 'last_activity_at_desc' }, ME)).map((r) => r.id)).toEqual([30]);
  });

  it('assignee.changed moves the row under Mine; the REST-only fields the push lacks keep their cached values', async () => {
    const { db, handler } = setup();
    const cached = { ...conv(31, { preview: 'cached preview' }), uuid: 'uuid-31', muted: true };
    await saveConversations(db, [cached]);
    expect(await readView(db, { tab: 'me', status: 'open', sortBy: 'last_activity_at_desc' }, ME)).toEqual([]);
    await handler.handle(conversationPush({ ...conv(31, { assignee: ME }), messages: [] }, 'assignee.changed'));
    expect((await readView(db, { tab: 'me', status: 'open', sortBy: 'last_activity_at_desc' }, ME)).map((r) => r.id)).toEqual([31]);
    const record = (await db.conversationRecords.get(31))!.record;
    expect(record).toMatchObject({ uuid: 'uuid-31', muted: true, meta: { assignee: { id: ME } } });
    expect((await db.conversations.get(31))?.preview).toBe('cached preview');
  });

  it('conversation.status_changed and conversation.read update status and unread count (and ask for the tab counts)', async () => {
    const { db, handler, changed } = setup();
    await saveConversations(db, [conv(32, { unread: 4 })]);
    await handler.handle(conversationPush(conv(32, { status: 'resolved', unread: 4 }), 'conversation.status_changed'));
    expect((await db.conversations.get(32))?.status).toBe('resolved');
    await handler.handle(conversationPush(conv(32, { status: 'resolved', unread: 0 }), 'conversation.read'));
    expect((await db.conversations.get(32))?.unreadCount).toBe(0);
    expect(changed).toHaveBeenCalledTimes(2);
    await handler.handle(messagePush(msg(990, 32)));
    expect(changed).toHaveBeenCalledTimes(2);
  });

  it('contact.updated updates the contacts table and the name on the contact\'s rows', async () => {
    const { db, handler } = setup();
    await saveConversations(db, [conv(33, { contact: { id: 88, name: 'Old Name' } })]);
    await handler.handle(pushed('contact.updated', { id: 88, name: 'New Name', email: 'new@example.com', type: 'contact', additional_attributes: {}, custom_attributes: {} }));
    expect(await db.contacts.get(88)).toMatchObject({ name: 'New Name', email: 'new@example.com' });
    expect(await db.conversations.get(33)).toMatchObject({ contactName: 'New Name', contactEmail: 'new@example.com' });
    expect((await db.conversationRecords.get(33))!.record.meta.sender).toMatchObject({ name: 'New Name' });
    // A contact the cache knows nothing of is not stored.
    await handler.handle(pushed('contact.created', { id: 89, name: 'Stranger', type: 'contact' }));
    expect(await db.contacts.get(89)).toBeUndefined();
  });

  it('events of another account are ignored', async () => {
    const { db, handler } = setup();
    await saveConversations(db, [conv(34)]);
    const other = parseLiveEvent('conversation.updated', { ...conv(34, { status: 'resolved' }), account_id: ACCOUNT + 1 });
    if (!other.ok) throw new Error('bad fixture');
    await handler.handle(other.event);
    const otherMessage = parseLiveEvent('message.created', { ...msg(960, 34), account_id: ACCOUNT + 1 });
    if (!otherMessage.ok) throw new Error('bad fixture');
    await handler.handle(otherMessage.event);
    expect((await db.conversations.get(34))?.status).toBe('open');
    expect(await history(db, 34)).toEqual([]);
  });
});

describe('the agent\'s own changes win over pushes', () => {
  it('a queued resolve stays while a push says open; the push\'s other fields (labels) still land', async () => {
    const { db, handler } = setup();
    await saveConversations(db, [conv(40)]);
    await setStatus({ db, me: { id: ME, name: 'Sam' } }, [40], 'resolved');
    expect((await db.outbox.toArray()).map((e) => e.state)).toEqual(['queued']);
    await handler.handle(conversationPush(conv(40, { status: 'open', labels: ['vip'] })));
    expect(await db.conversations.get(40)).toMatchObject({ status: 'resolved', labels: ['vip'] });
    expect((await db.conversationRecords.get(40))!.record.status).toBe('resolved');
  });

  it('a confirmed resolve is kept over a push until a read asked after it proved it; then the push shows (someone reopened it)', async () => {
    const { db, handler } = setup();
    await saveConversations(db, [conv(41), conv(42)], NOW - 60_000);
    await setStatus({ db, me: { id: ME, name: 'Sam' } }, [41, 42], 'resolved');
    const [a, b] = await db.outbox.toArray();
    await db.outbox.update(a!.seq!, { state: 'confirmed', confirmedAt: NOW - 1_000 });
    await db.outbox.update(b!.seq!, { state: 'confirmed', confirmedAt: NOW - 1_000 });
    // The read-back after 42's confirmation: asked after it, so it proves it.
    await saveConversations(db, [conv(42, { status: 'resolved' })], NOW - 500);
    expect((await db.outbox.get(b!.seq!))?.provenAt).toBeDefined();
    expect((await db.outbox.get(a!.seq!))?.provenAt).toBeUndefined();
    await handler.handle(conversationPush(conv(41, { status: 'open' })));
    await handler.handle(conversationPush(conv(42, { status: 'open' })));
    // Unproven: the push may have left the service before the resolve landed.
    expect((await db.conversations.get(41))?.status).toBe('resolved');
    // Proven: this push is the service's own later state, so it shows.
    expect((await db.conversations.get(42))?.status).toBe('open');
  });

  it('a queued read keeps the unread count at 0 when a message push says 3', async () => {
    const { db, handler } = setup();
    await saveConversations(db, [conv(43, { unread: 2 })]);
    const { markRead } = await import('../../renderer/src/actions/agent-actions');
    await markRead({ db, me: { id: ME, name: 'Sam' } }, [43]);
    await handler.handle(messagePush(msg(970, 43), { unread_count: 3 }));
    expect((await db.conversations.get(43))?.unreadCount).toBe(0);
  });
});

describe('typing', () => {
  it('shows who is typing, the contact apart from colleagues, clears on typing_off, and on its own after 30 s', async () => {
    vi.useFakeTimers();
    const { handler } = setup();
    const typing = (name: string, on: boolean, user: Record<string, unknown>, isPrivate = false) =>
      handler.handle(pushed(on ? 'conversation.typing_on' : 'conversation.typing_off', { conversation: { id: 50 }, user: { ...user, name }, is_private: isPrivate }));
    const typists = () => Object.values(useTyping.getState().byConversation[50] ?? {});
    const line = () => typingLine(typists());
    await typing('Dana Lee', true, { id: 9, type: 'contact' });
    expect(line()).toBe('Dana Lee is typing…');
    expect(typingLines(typists())).toEqual({ contact: 'Dana Lee is typing…' });
    await typing('Priya', true, { id: 3, type: 'user' });
    // Two lines in the thread; the row's one line names the colleague (the one the agent might collide with).
    expect(typingLines(typists())).toEqual({ contact: 'Dana Lee is typing…', colleagues: 'Priya is replying…' });
    expect(line()).toBe('Priya is replying…');
    await typing('Priya', false, { id: 3, type: 'user' });
    expect(line()).toBe('Dana Lee is typing…');
    vi.advanceTimersByTime(TYPING_TIMEOUT_MS - 1);
    expect(line()).toBe('Dana Lee is typing…');
    // typing_on again restarts the 30 s.
    await typing('Dana Lee', true, { id: 9, type: 'contact' });
    vi.advanceTimersByTime(TYPING_TIMEOUT_MS - 1);
    expect(line()).toBe('Dana Lee is typing…');
    vi.advanceTimersByTime(1);
    expect(line()).toBeUndefined();
    expect(useTyping.getState().byConversation[50]).toBeUndefined();
  });

  it('a private note in progress reads as a note; the agent\'s own typing is not shown', async () => {
    const { handler } = setup();
    await handler.handle(pushed('conversation.typing_on', { conversation: { id: 51 }, user: { id: 3, name: 'Priya', type: 'user' }, is_private: true }));
    expect(typingLine(Object.values(useTyping.getState().byConversation[51] ?? {}))).toBe('Priya is writing a note…');
    await handler.handle(pushed('conversation.typing_on', { conversation: { id: 52 }, user: { id: ME, name: 'Me', type: 'user' }, is_private: false }));
    expect(useTyping.getState().byConversation[52]).toBeUndefined();
  });
});
