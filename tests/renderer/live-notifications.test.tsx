// Notifications: the decision as a pure function (own, private, activity, assigned elsewhere,
// unassigned, focused, turned off, other inboxes), its plain and bounded text; raising one
// through main or, in web mode, through the browser only with permission; the toggle asks for
// permission only when ticked; and the unread badge follows live changes.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '../../shared/api/live-events';
import { parseLiveEvent } from '../../shared/api/live-events';
import type { Message } from '../../shared/api/records';
import { NotificationsToggle } from '../../renderer/src/components/NotificationsToggle';
import { saveConversations } from '../../renderer/src/db/save';
import { createLiveHandler } from '../../renderer/src/live/live-handler';
import { BODY_MAX, notificationFor, TITLE_MAX } from '../../renderer/src/live/notification-decision';
import type { NotifyFacts } from '../../renderer/src/live/notification-decision';
import { raiseNotification } from '../../renderer/src/live/notifier';
import { useUnreadBadge } from '../../renderer/src/platform/unread-badge';
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
const facts = (over: Partial<NotifyFacts> = {}): NotifyFacts => ({ meId: ME, focused: false, enabled: true, ...over });

describe('whether to notify (pure)', () => {
  it('an incoming message in a conversation assigned to me: contact name and the message as plain text', () => {
    expect(notificationFor(incoming(), facts())).toEqual({ title: 'Dana Lee', body: 'Where is my order?', conversationId: 7, key: 'message:500' });
  });
  it('an incoming message in an unassigned conversation notifies; one assigned to someone else does not', () => {
    expect(notificationFor(incoming({}, null), facts())).toMatchObject({ conversationId: 7 });
    expect(notificationFor(incoming({}, ME + 1), facts())).toBeUndefined();
  });
  it('never for my own messages, other agents\' replies, private notes or activity lines', () => {
    expect(notificationFor(incoming({ message_type: 1, sender: { id: ME, name: 'Me', type: 'user' } }), facts())).toBeUndefined();
    expect(notificationFor(incoming({ message_type: 1, sender: { id: 9, name: 'Priya', type: 'user' } }), facts())).toBeUndefined();
    expect(notificationFor(incoming({ private: true }), facts())).toBeUndefined();
    expect(notificationFor(incoming({ message_type: 2, sender: null }), facts())).toBeUndefined();
    expect(notificationFor(incoming({ sender: { id: ME, name: 'Me', type: 'user' } }), facts())).toBeUndefined();
  });
  it('not while the window has the agent\'s attention, nor when turned off', () => {
    expect(notificationFor(incoming(), facts({ focused: true }))).toBeUndefined();
    expect(notificationFor(incoming(), facts({ enabled: false }))).toBeUndefined();
  });
  it('only in the agent\'s inboxes when they are known', () => {
    expect(notificationFor(incoming(), facts({ inboxIds: new Set([1, 2]) }))).toBeUndefined();
    expect(notificationFor(incoming(), facts({ inboxIds: new Set([3]) }))).toMatchObject({ conversationId: 7 });
  });
  it('message.updated and conversation events never notify', () => {
    expect(notificationFor(event('message.updated', { ...msg(500, 7), conversation: { assignee_id: ME } }), facts())).toBeUndefined();
    expect(notificationFor(event('conversation.created', conv(7)), facts())).toBeUndefined();
  });
  it('assignment and mention notifications do; a new-message notification does not (the message itself did)', () => {
    const n = (type: string) => event('notification.created', { notification: { id: 11, notification_type: type, primary_actor_id: 999, primary_actor: { id: 7 }, push_message_title: 'A conversation (#7) has been assigned to you', push_message_body: 'Dana Lee: hello' } });
    expect(notificationFor(n('conversation_assignment'), facts())).toEqual({ title: 'A conversation (#7) has been assigned to you', body: 'Dana Lee: hello', conversationId: 7, key: 'notification:11' });
    expect(notificationFor(n('conversation_mention'), facts())).toMatchObject({ conversationId: 7 });
    expect(notificationFor(n('assigned_conversation_new_message'), facts())).toBeUndefined();
  });
  it('text stays text, one line, and bounded; markup is not interpreted', () => {
    const long = incoming({ content: `<img src=x onerror=alert(1)>\n\n${'word '.repeat(100)}`, sender: { id: 40, name: `<b>${'N'.repeat(200)}</b>`, type: 'contact' } });
    const n = notificationFor(long, facts())!;
    expect(n.body.startsWith('<img src=x onerror=alert(1)> word')).toBe(true);
    expect(n.body).not.toContain('\n');
    expect(n.body.length).toBeLessThanOrEqual(BODY_MAX);
    expect(n.title.length).toBeLessThanOrEqual(TITLE_MAX);
    expect(n.title.endsWith('…')).toBe(true);
    expect(notificationFor(incoming({ content: '', attachments: [{ id: 1, file_type: 'image' }] }), facts())?.body).toBe('Sent an attachment');
  });
});

describe('raising it', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('the handler raises each message once, with the cached contact name when the event has none', async () => {
    const notified: unknown[] = [];
    const { bridge } = fakeBridge({});
    const { InboxDb } = await import('../../renderer/src/db/schema');
    const db = new InboxDb(`notify-${Date.now()}`);
    await saveConversations(db, [conv(7, { contact: { id: 40, name: 'Dana Cached' }, assignee: ME })]);
    const handler = createLiveHandler({ db, ...readersFor(bridge, db), accountId: 1, meId: ME, openConversationId: () => undefined, notifyFacts: async () => ({ focused: false, enabled: true }), notify: (c) => notified.push(c) });
    const e = incoming({ sender: null });
    await handler.handle(e);
    await handler.handle(e);
    expect(notified).toEqual([{ title: 'Dana Cached', body: 'Where is my order?', conversationId: 7, key: 'message:500' }]);
  });

  it('desktop: main shows it; the browser API is not used', async () => {
    const ctor = vi.fn();
    vi.stubGlobal('Notification', Object.assign(ctor, { permission: 'granted' }));
    const { bridge, callsTo } = fakeBridge({ 'app.notify': () => ({ ok: true, value: { shown: true } }) });
    expect(await raiseNotification(bridge, { title: 'Dana', body: 'hi', conversationId: 7, key: 'k' }, () => undefined)).toBe('os');
    expect(callsTo('app.notify')).toEqual([{ title: 'Dana', body: 'hi', conversationId: 7 }]);
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
    const { bridge } = fakeBridge({ 'app.notify': () => ({ ok: true, value: { shown: false } }) });
    const opened: number[] = [];
    const content = { title: 'Dana', body: 'hi', conversationId: 7, key: 'k' };
    expect(await raiseNotification(bridge, content, (id) => opened.push(id))).toBe('none');
    FakeNotification.permission = 'denied';
    expect(await raiseNotification(bridge, content, (id) => opened.push(id))).toBe('none');
    expect(made).toEqual([]);
    FakeNotification.permission = 'granted';
    expect(await raiseNotification(bridge, content, (id) => opened.push(id))).toBe('browser');
    expect(made[0]).toMatchObject({ title: 'Dana', options: { body: 'hi', tag: 'conversation-7' } });
    made[0]!.onclick!();
    expect(opened).toEqual([7]);
  });
});

/** The browser's Notification constructor as far as the toggle uses it. */
const browserApi = (permission: NotificationPermission, requestPermission: () => Promise<NotificationPermission>) =>
  Object.assign(function Notification() {}, { permission, requestPermission });

describe('the Desktop notifications toggle', () => {
  beforeEach(() => usePreferences.setState({ notifications: true }));
  afterEach(() => vi.unstubAllGlobals());

  it('web mode: nothing is asked on render; ticking it asks the browser, and a refusal leaves it off with a hint', async () => {
    const requestPermission = vi.fn(async () => 'denied' as NotificationPermission);
    vi.stubGlobal('Notification', browserApi('default', requestPermission));
    renderWithSession(<NotificationsToggle osNotifications={false} />, { bridge: fakeBridge({}).bridge });
    const box = screen.getByRole('checkbox', { name: 'Desktop notifications' }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(requestPermission).not.toHaveBeenCalled();
    fireEvent.click(box);
    await waitFor(() => expect(requestPermission).toHaveBeenCalledTimes(1));
    await screen.findByText(/blocks notifications for this page/);
    expect(box.checked).toBe(false);
    expect(usePreferences.getState().notifications).toBe(false);
  });

  it('web mode: granted, it is on; unticking turns notifications off and keeps it (persisted)', async () => {
    const requestPermission = vi.fn(async () => 'granted' as NotificationPermission);
    const api = browserApi('default', requestPermission);
    requestPermission.mockImplementation(async () => (api.permission = 'granted'));
    vi.stubGlobal('Notification', api);
    usePreferences.setState({ notifications: false });
    renderWithSession(<NotificationsToggle osNotifications={false} />, { bridge: fakeBridge({}).bridge });
    const box = screen.getByRole('checkbox', { name: 'Desktop notifications' }) as HTMLInputElement;
    fireEvent.click(box);
    await waitFor(() => expect(box.checked).toBe(true));
    fireEvent.click(box);
    await waitFor(() => expect(box.checked).toBe(false));
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(JSON.parse(localStorage.getItem('inbox.preferences')!).state.notifications).toBe(false);
  });

  it('desktop: no browser permission is involved', async () => {
    const requestPermission = vi.fn();
    vi.stubGlobal('Notification', browserApi('default', requestPermission));
    renderWithSession(<NotificationsToggle osNotifications />, { bridge: fakeBridge({}).bridge });
    const box = screen.getByRole('checkbox', { name: 'Desktop notifications' }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    fireEvent.click(box);
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    expect(box.checked).toBe(true);
    expect(requestPermission).not.toHaveBeenCalled();
  });
});

describe('the unread badge', () => {
  function Badge() {
    useUnreadBadge();
    return null;
  }
  it('follows a live message and a live read', async () => {
    const fake = fakeBridge({ 'app.setUnreadCount': () => ({ ok: true, value: { shown: true } }) });
    const { db, session } = renderWithSession(<Badge />, { bridge: fake.bridge });
    await act(() => saveConversations(db, [conv(7, { unread: 1 }), conv(8, { unread: 2 })]));
    await waitFor(() => expect(fake.callsTo('app.setUnreadCount').at(-1)).toEqual({ count: 3 }));
    const handler = createLiveHandler({ db, ...readersFor(fake.bridge, db), accountId: session.accountId, meId: ME, openConversationId: () => undefined, notifyFacts: async () => ({ focused: true, enabled: true }), notify: () => undefined });
    await act(() => handler.handle(event('message.created', { ...msg(600, 7), conversation: { assignee_id: null, unread_count: 4 } })));
    await waitFor(() => expect(fake.callsTo('app.setUnreadCount').at(-1)).toEqual({ count: 6 }));
    await act(() => handler.handle(event('conversation.read', conv(8, { unread: 0 }))));
    await waitFor(() => expect(fake.callsTo('app.setUnreadCount').at(-1)).toEqual({ count: 4 }));
  });
});
