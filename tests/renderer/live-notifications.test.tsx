// Notifications at run time (the rules themselves: notification-rules.test.ts): live events reach
// the session's notification center with the conversation as cached before them; raising one
// through main or, in web mode, through the browser only with permission, replaced by tag and
// closed; started, it keeps what a conversation's history said between its messages; the toggle
// asks for permission only when ticked and keeps its choice per session; and the unread count
// follows live changes on the badge, in the title and on the favicon.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../../shared/api/live-events';
import { parseLiveEvent } from '../../shared/api/live-events';
import type { Message } from '../../shared/api/records';
import { NotificationsToggle } from '../../renderer/src/components/NotificationsToggle';
import { saveConversations } from '../../renderer/src/db/save';
import type { InboxDb } from '../../renderer/src/db/schema';
import { createLiveHandler } from '../../renderer/src/live/live-handler';
import type { Effect } from '../../renderer/src/notifications/decide';
import { createNotificationCenter } from '../../renderer/src/notifications/notification-center';
import { createRaiser } from '../../renderer/src/notifications/raise';
import { faviconFor, useUnreadBadge } from '../../renderer/src/platform/unread-badge';
import { usePreferences } from '../../renderer/src/state/preferences';
import { fakeBridge } from './fake-bridge';
import { conv, msg } from './fixtures';
import { renderWithSession } from './support/render';
import { readersFor } from './support/live-deps';

const ME = 2;
const event = (name: string, data: Record<string, unknown>): LiveEvent => {
  const r = parseLiveEvent(name, { account_id: 1, ...data });
  if (!r.ok) throw new Error(`fixture: ${r.reason}`);
  return r.event;
};
const incoming = (extra: Partial<Message> = {}, assignee: number | null = ME) =>
  event('message.created', { ...msg(500, 7, { content: 'Where is my **order**?', sender: { id: 40, name: 'Dana Lee', type: 'contact' }, inbox_id: 3, ...extra }), conversation: { assignee_id: assignee } });

/** A center that records what it would show, for the handler tests. */
function recordingCenter(db: InboxDb, attention = { focused: false, openConversationId: undefined as number | undefined }) {
  const shown: Extract<Effect, { kind: 'show' }>[] = [];
  const center = createNotificationCenter({ db, me: { id: ME, name: 'Sam' }, attention: () => attention, show: (e) => shown.push(e), sound: () => undefined, close: () => undefined, now: () => 500_000 * 1000 });
  return { center, shown };
}

describe('raising it', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('the handler hands each event to the center once, which names the cached contact and inbox when the event does not', async () => {
    const { bridge } = fakeBridge({});
    const { InboxDb } = await import('../../renderer/src/db/schema');
    const db = new InboxDb(`notify-${Date.now()}`);
    await saveConversations(db, [conv(7, { contact: { id: 40, name: 'Dana Cached' }, assignee: ME, inbox: 3 })]);
    await db.inboxes.put({ id: 3, name: 'Website chat', channel_type: 'Channel::WebWidget' } as never);
    const { center, shown } = recordingCenter(db);
    const handler = createLiveHandler({ db, ...readersFor(bridge, db), accountId: 1, meId: ME, openConversationId: () => undefined, notifications: center });
    const e = incoming({ sender: null, created_at: 500_000 });
    await handler.handle(e);
    await handler.handle(e);
    expect(shown).toEqual([{ kind: 'show', via: 'os', tag: 'conversation-7', title: 'Dana Cached (#7 · Website chat)', body: 'Where is my order?', conversationId: 7, silent: false }]);
  });

  it('a reminder follows an unanswered message; a reply by anyone answers the contact and drops it', async () => {
    const { InboxDb } = await import('../../renderer/src/db/schema');
    for (const reply of [false, true]) {
      const db = new InboxDb(`notify-${Date.now()}-${reply}`);
      await saveConversations(db, [conv(7, { assignee: ME })]);
      await db.settings.put({ key: 'notifications', value: { reminderMinutes: 5 } });
      let clock = 500_000 * 1000;
      const shown: string[] = [];
      const center = createNotificationCenter({ db, me: { id: ME, name: 'Sam' }, attention: () => ({ focused: false, openConversationId: undefined }), show: (x) => shown.push(x.title), sound: () => undefined, close: () => undefined, now: () => clock });
      const handler = createLiveHandler({ db, ...readersFor(fakeBridge({}).bridge, db), accountId: 1, meId: ME, openConversationId: () => undefined, notifications: center });
      await handler.handle(incoming({ created_at: 500_000 }));
      if (reply) await handler.handle(event('message.created', { ...msg(501, 7, { message_type: 1, sender: { id: 9, name: 'Priya', type: 'user' }, created_at: 500_001 }), conversation: { assignee_id: ME } }));
      clock += 6 * 60_000;
      await center.tick();
      expect(shown, reply ? 'answered' : 'unanswered').toEqual(reply ? ['Dana Lee (#7)'] : ['Dana Lee (#7)', 'Still unanswered: Dana Lee (#7)']);
    }
  });

  it("started, the center keeps what a conversation's history said between its messages: the agent's reply counts, a deleted one no longer does", async () => {
    const { InboxDb } = await import('../../renderer/src/db/schema');
    const db = new InboxDb(`notify-kept-${Date.now()}`);
    // Another agent's conversation: the contact's messages notify only where the agent took part.
    await saveConversations(db, [conv(7, { assignee: 9 })]);
    const { center, shown } = recordingCenter(db);
    const stop = center.start();
    try {
      const handler = createLiveHandler({ db, ...readersFor(fakeBridge({}).bridge, db), accountId: 1, meId: ME, openConversationId: () => undefined, notifications: center });
      const fromContact = (id: number) => incoming({ id, created_at: 500_000 + id }, 9);
      await handler.handle(fromContact(500));
      expect(shown).toEqual([]);
      await handler.handle(event('message.created', { ...msg(501, 7, { message_type: 1, sender: { id: ME, name: 'Sam', type: 'user' }, created_at: 500_501 }), conversation: { assignee_id: 9 } }));
      await handler.handle(fromContact(502));
      expect(shown.map((e) => e.tag)).toEqual(['conversation-7']);
      await db.messages.delete(501);
      await handler.handle(fromContact(503));
      expect(shown).toHaveLength(1);
    } finally {
      stop();
    }
  });

  it('desktop: main shows it, by tag and silent (the app plays its own sound); the browser API is not used', async () => {
    const ctor = vi.fn();
    vi.stubGlobal('Notification', Object.assign(ctor, { permission: 'granted' }));
    const { bridge, callsTo } = fakeBridge({ 'app.notify': () => ({ ok: true, value: { shown: true } }), 'app.closeNotification': () => ({ ok: true, value: { closed: true } }) });
    const raiser = createRaiser(bridge, () => undefined);
    expect(await raiser.raise({ tag: 'conversation-7', title: 'Dana', body: 'hi', conversationId: 7 })).toBe('os');
    expect(callsTo('app.notify')).toEqual([{ title: 'Dana', body: 'hi', tag: 'conversation-7', silent: true, conversationId: 7 }]);
    raiser.close('conversation-7');
    expect(callsTo('app.closeNotification')).toEqual([{ tag: 'conversation-7' }]);
    expect(ctor).not.toHaveBeenCalled();
  });

  it('web mode: the browser\'s notification with permission (click opens the conversation), nothing without it', async () => {
    const made: { title: string; options: NotificationOptions; onclick?: () => void; close: () => void }[] = [];
    class FakeNotification {
      static permission: NotificationPermission = 'default';
      onclick?: () => void;
      close = vi.fn();
      constructor(readonly title: string, readonly options: NotificationOptions) {
        made.push(this);
      }
    }
    vi.stubGlobal('Notification', FakeNotification);
    const { bridge } = fakeBridge({ 'app.notify': () => ({ ok: true, value: { shown: false } }), 'app.closeNotification': () => ({ ok: true, value: { closed: false } }) });
    const opened: (number | undefined)[] = [];
    const raiser = createRaiser(bridge, (id) => opened.push(id));
    const content = { title: 'Dana', body: 'hi', conversationId: 7, tag: 'conversation-7' };
    expect(await raiser.raise(content)).toBe('none');
    FakeNotification.permission = 'denied';
    expect(await raiser.raise(content)).toBe('none');
    expect(made).toEqual([]);
    FakeNotification.permission = 'granted';
    expect(await raiser.raise(content)).toBe('browser');
    expect(made[0]).toMatchObject({ title: 'Dana', options: { body: 'hi', tag: 'conversation-7', silent: true } });
    made[0]!.onclick!();
    expect(opened).toEqual([7]);
    // Opened in the app: the browser's notification of it goes.
    await raiser.raise(content);
    raiser.close('conversation-7');
    expect(made[1]!.close).toHaveBeenCalled();
  });
});

/** The browser's Notification constructor as far as the toggle uses it. */
const browserApi = (permission: NotificationPermission, requestPermission: () => Promise<NotificationPermission>) =>
  Object.assign(function Notification() {}, { permission, requestPermission });

describe('the Desktop notifications toggle', () => {
  beforeEach(() => usePreferences.setState({ notifications: true }));
  const storedEnabled = async (db: { settings: { get(k: string): Promise<{ value: unknown } | undefined> } }) => ((await db.settings.get('notifications'))?.value as { enabled?: boolean } | undefined)?.enabled;
  afterEach(() => vi.unstubAllGlobals());

  it('web mode: nothing is asked on render; ticking it asks the browser, and a refusal leaves it off with a hint', async () => {
    const requestPermission = vi.fn(async () => 'denied' as NotificationPermission);
    vi.stubGlobal('Notification', browserApi('default', requestPermission));
    const { db } = renderWithSession(<NotificationsToggle osNotifications={false} />, { bridge: fakeBridge({}).bridge });
    const box = (await screen.findByRole('checkbox', { name: 'Desktop notifications' })) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    expect(box.checked).toBe(false);
    expect(requestPermission).not.toHaveBeenCalled();
    fireEvent.click(box);
    await waitFor(() => expect(requestPermission).toHaveBeenCalledTimes(1));
    await screen.findByText(/blocks notifications for this page/);
    expect(box.checked).toBe(false);
    await waitFor(async () => expect(await storedEnabled(db)).toBe(false));
  });

  it('web mode: granted, it is on; unticking turns notifications off and keeps it (persisted)', async () => {
    const requestPermission = vi.fn(async () => 'granted' as NotificationPermission);
    const api = browserApi('default', requestPermission);
    requestPermission.mockImplementation(async () => (api.permission = 'granted'));
    vi.stubGlobal('Notification', api);
    // Turned off app-wide before settings were per session: a session without its own starts off.
    usePreferences.setState({ notifications: false });
    const { db } = renderWithSession(<NotificationsToggle osNotifications={false} />, { bridge: fakeBridge({}).bridge });
    const box = (await screen.findByRole('checkbox', { name: 'Desktop notifications' })) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    await waitFor(() => expect(box.checked).toBe(true));
    expect(await storedEnabled(db)).toBe(true);
    fireEvent.click(box);
    await waitFor(() => expect(box.checked).toBe(false));
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(await storedEnabled(db)).toBe(false);
  });

  it('desktop: no browser permission is involved', async () => {
    const requestPermission = vi.fn();
    vi.stubGlobal('Notification', browserApi('default', requestPermission));
    renderWithSession(<NotificationsToggle osNotifications />, { bridge: fakeBridge({}).bridge });
    const box = (await screen.findByRole('checkbox', { name: 'Desktop notifications' })) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    expect(box.checked).toBe(true);
    fireEvent.click(box);
    await waitFor(() => expect(box.checked).toBe(false));
    fireEvent.click(box);
    await waitFor(() => expect(box.checked).toBe(true));
    expect(requestPermission).not.toHaveBeenCalled();
  });
});

describe('the unread count: badge, title, favicon', () => {
  function Badge() {
    useUnreadBadge();
    return null;
  }
  // The page's icon as index.html has it (a PNG data: URL).
  const pageIcon = /<link rel="icon" type="image\/png" href="([^"]+)"/.exec(readFileSync(resolve(import.meta.dirname, '../../renderer/index.html'), 'utf8'))![1]!;
  it('follows a live message and a live read, on the page\'s own icon, and gives that icon back at 0', async () => {
    const link = Object.assign(document.createElement('link'), { rel: 'icon', type: 'image/png', href: pageIcon });
    document.head.append(link);
    const fake = fakeBridge({ 'app.setUnreadCount': () => ({ ok: true, value: { shown: true } }) });
    const { db, session } = renderWithSession(<Badge />, { bridge: fake.bridge });
    await act(() => saveConversations(db, [conv(7, { unread: 1 }), conv(8, { unread: 2 })]));
    await waitFor(() => expect(fake.callsTo('app.setUnreadCount').at(-1)).toEqual({ count: 3 }));
    expect(document.title).toBe('(3) Agent Inbox');
    expect(link.getAttribute('href')).toBe(faviconFor(3, pageIcon));
    expect(link.type).toBe('image/svg+xml');
    const handler = createLiveHandler({ db, ...readersFor(fake.bridge, db), accountId: session.accountId, meId: ME, openConversationId: () => undefined });
    await act(() => handler.handle(event('message.created', { ...msg(600, 7), conversation: { assignee_id: null, unread_count: 4 } })));
    await waitFor(() => expect(fake.callsTo('app.setUnreadCount').at(-1)).toEqual({ count: 6 }));
    await act(() => handler.handle(event('conversation.read', conv(8, { unread: 0 }))));
    await waitFor(() => expect(fake.callsTo('app.setUnreadCount').at(-1)).toEqual({ count: 4 }));
    expect(document.title).toBe('(4) Agent Inbox');
    const four = decodeURIComponent(faviconFor(4, pageIcon));
    expect(four).toContain('>4</text>');
    expect(four).toContain(`<image href="${pageIcon}"`);
    await act(() => handler.handle(event('conversation.read', conv(7, { unread: 0 }))));
    await waitFor(() => expect(fake.callsTo('app.setUnreadCount').at(-1)).toEqual({ count: 0 }));
    // Back to index.html's own icon, a PNG: not an SVG drawn for nothing.
    expect(document.title).toBe('Agent Inbox');
    expect(link.getAttribute('href')).toBe(pageIcon);
    expect(link.type).toBe('image/png');
    expect(faviconFor(0, pageIcon)).toBe(pageIcon);
    link.remove();
  });
});
