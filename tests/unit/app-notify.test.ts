// `app.notify` and `app.liveStatus` in the main core: what reaches the OS is one line of plain
// text, a click comes back to the renderer as `app.notificationClicked`, and web mode (no desktop
// notifier) answers `shown: false` so the page can use the browser's own.
import { describe, expect, it, vi } from 'vitest';
import { createMainCore } from '../../main/core/core';
import type { DesktopHost } from '../../main/core/desktop/host';
import { notificationText } from '../../shared/text/notification-text';
import { redactingLogger } from '../../main/core/redact';
import { memoryVault } from '../../main/core/vault';

const coreWith = (desktop: DesktopHost = {}) => createMainCore({ vault: memoryVault(), logger: redactingLogger(() => undefined, () => []), desktop });

describe('notification text', () => {
  it('is one line of plain text without control or direction-override characters', () => {
    expect(notificationText('Dana\u202e Lee\n\nsays\u0000 hi\u200b', 100)).toBe('Dana Lee says hi');
    expect(notificationText('<b>bold</b> & co', 100)).toBe('<b>bold</b> & co');
  });
  it('is cut to the length with an ellipsis, never inside a character', () => {
    expect(notificationText('a'.repeat(50), 10)).toBe(`${'a'.repeat(9)}…`);
    const cut = notificationText('😀'.repeat(20), 5);
    expect(cut).toBe('😀😀😀😀…');
    expect(notificationText('short', 10)).toBe('short');
  });
});

describe('app.notify', () => {
  it('hands cleaned text to the desktop, and a click emits app.notificationClicked with the conversation', async () => {
    let click: (() => void) | undefined;
    const notify = vi.fn((_n: { title: string; body: string }, onClick: () => void) => {
      click = onClick;
      return true;
    });
    const core = coreWith({ notify });
    const events: unknown[] = [];
    core.onEvent((name, payload) => events.push({ name, payload }));
    const r = await core.call('app.notify', { title: 'Dana\nLee', body: `Where is\tmy order?${' more'.repeat(80)}`, conversationId: 42 });
    expect(r).toEqual({ ok: true, value: { shown: true } });
    const shown = notify.mock.calls[0]![0];
    expect(shown.title).toBe('Dana Lee');
    expect(shown.body.startsWith('Where is my order? more')).toBe(true);
    expect(shown.body.length).toBeLessThanOrEqual(240);
    expect(events).toEqual([]);
    click!();
    expect(events).toEqual([{ name: 'app.notificationClicked', payload: { conversationId: 42 } }]);
  });

  it('passes the tag and silence on, closes by tag, and an action emits app.notificationAction', async () => {
    let act: ((a: 'markRead') => void) | undefined;
    const notify = vi.fn((_n: unknown, _click: () => void, onAction?: (a: 'markRead') => void) => {
      act = onAction;
      return true;
    });
    const closeNotification = vi.fn(() => true);
    const core = coreWith({ notify, closeNotification });
    const events: unknown[] = [];
    core.onEvent((name, payload) => events.push({ name, payload }));
    await core.call('app.notify', { title: 'Dana', body: 'hi', conversationId: 42, tag: 'conversation-42', silent: true });
    expect(notify.mock.calls[0]![0]).toEqual({ title: 'Dana', body: 'hi', tag: 'conversation-42', silent: true });
    act!('markRead');
    expect(events).toEqual([{ name: 'app.notificationAction', payload: { conversationId: 42, action: 'markRead' } }]);
    expect(await core.call('app.closeNotification', { tag: 'conversation-42' })).toEqual({ ok: true, value: { closed: true } });
    expect(closeNotification).toHaveBeenCalledWith('conversation-42');
    // A tag is a name, not text: anything else is refused.
    expect(await core.call('app.notify', { title: 'x', body: 'y', tag: '<script>' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('app.closeNotification', { tag: 'a b' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await coreWith().call('app.closeNotification', { tag: 'conversation-1' })).toEqual({ ok: true, value: { closed: false } });
  });

  it('answers shown: false in web mode, and refuses input outside the contract', async () => {
    const core = coreWith();
    expect(await core.call('app.notify', { title: 'x', body: 'y' })).toEqual({ ok: true, value: { shown: false } });
    expect(await core.call('app.notify', { title: '', body: 'y' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('app.notify', { title: 'x', body: 'y', conversationId: -1 })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('app.notify', { title: 'x'.repeat(201), body: 'y' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('app.getSettings', {})).toMatchObject({ ok: true, value: { osNotifications: false } });
    expect(await coreWith({ notify: () => true }).call('app.getSettings', {})).toMatchObject({ ok: true, value: { osNotifications: true } });
  });

  it('a title that is only control characters is refused rather than shown blank', async () => {
    const notify = vi.fn(() => true);
    expect(await coreWith({ notify }).call('app.notify', { title: '\u0000\u202e', body: 'y' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('app.liveStatus', () => {
  it('is offline where live updates are off or nobody is signed in', async () => {
    expect(await coreWith().call('app.liveStatus', {})).toEqual({ ok: true, value: { state: 'offline' } });
  });
});
