// main/electron with a mocked `electron` (no binary exists here), part 2: single instance, the
// bounded flush before quitting, menu, tray/badge, the safeStorage cipher, the desktop host, and
// the whole app started against the fake. Part 1 is electron-glue.test.ts.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_CALL_CHANNEL } from '../../shared/bridge/wire';
import { app, fakeEvent, FakeBrowserWindow, FakeNotification, fakeState, FakeTray, Menu, resetFakeElectron, safeStorage, shell } from '../support/fake-electron';

vi.mock('electron', () => import('../support/fake-electron'));

const { startDesktopApp } = await import('../../main/electron/app-main');
const { electronDesktopHost } = await import('../../main/electron/desktop-host');
const { claimSingleInstance, flushBeforeQuit, QUIT_FLUSH_BOUND_MS } = await import('../../main/electron/lifecycle');
const { installMenu, menuTemplate } = await import('../../main/electron/menu');
const { safeStorageCipher } = await import('../../main/electron/safe-storage-cipher');
const { createUnreadIndicator, unreadTooltip } = await import('../../main/electron/unread-indicator');

const APP_URL = 'app://inbox/index.html';
const flush = () => new Promise((r) => setImmediate(r));

beforeEach(() => resetFakeElectron());

describe('single instance and quitting', () => {
  it('quits at once when another instance holds the lock', () => {
    fakeState.singleInstanceLock = false;
    expect(claimSingleInstance(() => undefined)).toBe(false);
    expect(startDesktopApp({ mainDir: '/x', env: {}, platform: 'linux', log: () => undefined })).toEqual({ started: false });
    expect(app.quit).toHaveBeenCalled();
    expect(app.enableSandbox).not.toHaveBeenCalled();
  });

  it('focuses the first instance on a second launch', () => {
    const focus = vi.fn();
    expect(claimSingleInstance(focus)).toBe(true);
    app.emit('second-instance');
    expect(focus).toHaveBeenCalledTimes(1);
  });

  it('holds the first quit until pending work is flushed (bounded), then quits for real', async () => {
    let finish!: (v: string) => void;
    const flushWork = vi.fn(() => new Promise<string>((r) => (finish = r)));
    const outcomes: unknown[] = [];
    flushBeforeQuit(flushWork, (o) => outcomes.push(o));
    const first = fakeEvent();
    app.emit('before-quit', first);
    const again = fakeEvent();
    app.emit('before-quit', again);
    expect(first.preventDefault).toHaveBeenCalled();
    expect(again.preventDefault).toHaveBeenCalled();
    expect(flushWork).toHaveBeenCalledTimes(1);
    expect(flushWork).toHaveBeenCalledWith(QUIT_FLUSH_BOUND_MS);
    expect(app.quit).not.toHaveBeenCalled();
    finish('timed_out');
    await flush();
    expect(outcomes).toEqual(['timed_out']);
    expect(app.quit).toHaveBeenCalledTimes(1);
    const last = fakeEvent();
    app.emit('before-quit', last);
    expect(last.preventDefault).not.toHaveBeenCalled();
  });

  it('still quits when flushing fails', async () => {
    flushBeforeQuit(() => Promise.reject(new Error('disk full')));
    app.emit('before-quit', fakeEvent());
    await flush();
    expect(app.quit).toHaveBeenCalledTimes(1);
  });
});

describe('menu', () => {
  const roles = (template: { role?: string; submenu?: unknown }[]): string[] =>
    template.flatMap((item) => [...(item.role ? [item.role] : []), ...(Array.isArray(item.submenu) ? roles(item.submenu) : [])]);

  it('has the usual roles on every platform, devtools only unpackaged', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const r = roles(menuTemplate({ platform, appName: 'Agent Inbox', isPackaged: true }) as never);
      expect(r).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'quit', 'reload', 'zoomIn', 'zoomOut', 'resetZoom', 'togglefullscreen', 'windowMenu']));
      expect(r).not.toContain('toggleDevTools');
    }
    expect(roles(menuTemplate({ platform: 'linux', appName: 'A', isPackaged: false }) as never)).toContain('toggleDevTools');
  });

  it('puts the app menu first on macOS only', () => {
    expect(menuTemplate({ platform: 'darwin', appName: 'Agent Inbox', isPackaged: true })[0]!.label).toBe('Agent Inbox');
    expect(menuTemplate({ platform: 'win32', appName: 'Agent Inbox', isPackaged: true })[0]!.label).toBe('File');
  });

  it('installs the menu', () => {
    installMenu({ platform: 'linux', appName: 'A', isPackaged: true });
    expect(Menu.setApplicationMenu).toHaveBeenCalledWith(Menu.buildFromTemplate.mock.results[0]!.value);
  });
});

describe('unread indicator', () => {
  const options = (platform: NodeJS.Platform) => ({ platform, appName: 'Agent Inbox', trayIconPath: '/app/main/tray-icon.png', showWindow: vi.fn(), quit: vi.fn() });

  it('on Linux and Windows: a tray whose tooltip carries the count, plus the launcher badge', () => {
    const opts = options('linux');
    const indicator = createUnreadIndicator(opts);
    const tray = FakeTray.instances[0]!;
    expect(tray.image).toEqual({ path: '/app/main/tray-icon.png' });
    expect(indicator.setUnreadCount(3)).toBe(true);
    expect(app.setBadgeCount).toHaveBeenLastCalledWith(3);
    expect(tray.tooltip).toBe('Agent Inbox: 3 unread');
    indicator.setUnreadCount(0);
    expect(tray.tooltip).toBe('Agent Inbox');
    tray.emit('click');
    expect(opts.showWindow).toHaveBeenCalled();
  });

  it('on macOS: the dock badge only; answers whether it showed', () => {
    const indicator = createUnreadIndicator(options('darwin'));
    expect(FakeTray.instances).toHaveLength(0);
    expect(indicator.setUnreadCount(12)).toBe(true);
    fakeState.badgeSupported = false;
    expect(indicator.setUnreadCount(1)).toBe(false);
  });

  it('caps the tooltip count', () => {
    expect(unreadTooltip('A', 123_456)).toBe('A: 999+ unread');
  });
});

describe('safeStorage cipher', () => {
  it.each([
    ['linux', 'basic_text', 'weak'],
    ['linux', 'unknown', 'weak'],
    ['linux', 'gnome_libsecret', 'os'],
    ['linux', 'kwallet6', 'os'],
    ['darwin', 'n/a', 'os'],
    ['win32', 'n/a', 'os'],
  ] as const)('on %s with backend %s protection is %s', (platform, backend, protection) => {
    fakeState.safeStorage.backend = backend;
    expect(safeStorageCipher(platform).protection).toBe(protection);
  });

  it('falls back to file-mode-only (weak) when encryption is unavailable, never calling encryptString', async () => {
    fakeState.safeStorage.available = false;
    const c = safeStorageCipher('linux');
    expect(c).toMatchObject({ protection: 'weak', scheme: 'file-mode-only' });
    await c.encrypt('x');
    expect(safeStorage.encryptString).not.toHaveBeenCalled();
  });

  it('delegates to safeStorage and names the backend in its scheme', async () => {
    const c = safeStorageCipher('linux');
    expect(c.scheme).toBe('safeStorage:gnome_libsecret');
    const data = await c.encrypt('tok');
    expect(safeStorage.encryptString).toHaveBeenCalledWith('tok');
    expect(await c.decrypt(data)).toBe('tok');
  });
});

describe('desktop host', () => {
  it('opens links with shell.openExternal', async () => {
    await electronDesktopHost({ platform: 'linux', env: {}, setUnreadCount: () => true }).openExternal!('https://example.com/');
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.com/');
  });

  it('raises a plain-text OS notification; a click brings the window back, then opens the conversation', () => {
    const showWindow = vi.fn();
    const host = electronDesktopHost({ platform: 'darwin', env: {}, setUnreadCount: () => true, showWindow });
    const onClick = vi.fn();
    expect(host.notify!({ title: 'Dana <Lee>', body: 'Where is my <b>order</b>?' }, onClick)).toBe(true);
    const [n] = FakeNotification.instances;
    expect(n!.options).toEqual({ title: 'Dana <Lee>', body: 'Where is my <b>order</b>?', silent: false, actions: [] });
    expect(n!.shown).toBe(true);
    expect(showWindow).not.toHaveBeenCalled();
    n!.emit('click');
    expect(showWindow).toHaveBeenCalledTimes(1);
    expect(onClick).toHaveBeenCalledTimes(1);
    // The window comes first, so the conversation opens in a window the agent can see.
    expect(showWindow.mock.invocationCallOrder[0]).toBeLessThan(onClick.mock.invocationCallOrder[0]!);
  });

  it('on Linux the body is escaped: notification servers may read it as markup, and a contact\'s <a> must stay text', () => {
    const host = electronDesktopHost({ platform: 'linux', env: {}, setUnreadCount: () => true });
    host.notify!({ title: 'Dana & <Lee>', body: '<a href="https://evil.example">pay</a> & <b>now</b>' }, () => undefined);
    expect(FakeNotification.instances[0]!.options).toEqual({ title: 'Dana & <Lee>', body: '&lt;a href="https://evil.example"&gt;pay&lt;/a&gt; &amp; &lt;b&gt;now&lt;/b&gt;', silent: false, actions: [] });
  });

  it('one with the tag of one still shown replaces it (a burst stays one notification); close takes it away', () => {
    const host = electronDesktopHost({ platform: 'linux', env: {}, setUnreadCount: () => true });
    host.notify!({ title: 'Dana', body: 'one', tag: 'conversation-7', silent: true }, () => undefined);
    host.notify!({ title: 'Dana', body: '2 new · two', tag: 'conversation-7', silent: true }, () => undefined);
    host.notify!({ title: 'Lee', body: 'other', tag: 'conversation-8' }, () => undefined);
    const [first, second, other] = FakeNotification.instances;
    expect(first!.close).toHaveBeenCalledTimes(1);
    expect(second!.options).toMatchObject({ body: '2 new · two', silent: true });
    expect([first!.shown, second!.shown, other!.shown]).toEqual([false, true, true]);
    expect(host.closeNotification!('conversation-7')).toBe(true);
    expect(second!.shown).toBe(false);
    expect(host.closeNotification!('conversation-7')).toBe(false);
    expect(other!.shown).toBe(true);
  });

  it('"Mark read" as an action on macOS, none elsewhere; choosing it calls back with the action', () => {
    const onAction = vi.fn();
    const mac = electronDesktopHost({ platform: 'darwin', env: {}, setUnreadCount: () => true });
    mac.notify!({ title: 'Dana', body: 'hi' }, () => undefined, onAction);
    const [n] = FakeNotification.instances;
    expect(n!.options.actions).toEqual([{ type: 'button', text: 'Mark read' }]);
    n!.emit('action', {}, 0);
    expect(onAction).toHaveBeenCalledWith('markRead');
    electronDesktopHost({ platform: 'win32', env: {}, setUnreadCount: () => true }).notify!({ title: 'Dana', body: 'hi' }, () => undefined, onAction);
    expect(FakeNotification.instances[1]!.options.actions).toEqual([]);
  });

  it('answers false and shows nothing where the OS has no notifications', () => {
    FakeNotification.supported = false;
    const host = electronDesktopHost({ platform: 'linux', env: {}, setUnreadCount: () => true });
    expect(host.notify!({ title: 't', body: 'b' }, () => undefined)).toBe(false);
    expect(FakeNotification.instances).toEqual([]);
  });

  it('offers launch at login only when packaged: login items on macOS, an autostart entry on Linux', async () => {
    expect(electronDesktopHost({ platform: 'darwin', env: {}, setUnreadCount: () => true }).launchAtLogin).toBeUndefined();
    fakeState.isPackaged = true;
    const mac = electronDesktopHost({ platform: 'darwin', env: {}, setUnreadCount: () => true }).launchAtLogin!;
    await mac.set(true);
    expect(app.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true });
    expect(await mac.get()).toBe(true);
    const config = mkdtempSync(join(tmpdir(), 'xdg-'));
    const linux = electronDesktopHost({ platform: 'linux', env: { XDG_CONFIG_HOME: config, APPIMAGE: '/home/me/Agent Inbox.AppImage' }, setUnreadCount: () => true }).launchAtLogin!;
    await linux.set(true);
    expect(readFileSync(join(config, 'autostart', 'agent-inbox.desktop'), 'utf8')).toContain('Exec="/home/me/Agent Inbox.AppImage"');
    expect(await linux.get()).toBe(true);
  });
});

describe('the whole app against the fake', () => {
  let added: ((...args: unknown[]) => void)[] = [];
  afterEach(() => {
    for (const l of added) {
      process.off('uncaughtException', l);
      process.off('unhandledRejection', l);
    }
    added = [];
  });

  it('ignores the development overrides (user data, renderer, demo sign-in) in a packaged app', async () => {
    fakeState.isPackaged = true;
    const before = new Set([...process.listeners('uncaughtException'), ...process.listeners('unhandledRejection')]);
    const started = startDesktopApp({
      mainDir: '/app/main',
      env: { AGENT_INBOX_USER_DATA: '/tmp/elsewhere', AGENT_INBOX_RENDERER: '/tmp/evil-renderer', AGENT_INBOX_DEMO_CREDENTIALS: '/tmp/creds.json' },
      platform: 'linux',
      log: () => undefined,
    });
    added = [...process.listeners('uncaughtException'), ...process.listeners('unhandledRejection')].filter((l) => !before.has(l)) as never;
    expect(started.started).toBe(true);
    expect(app.setPath).not.toHaveBeenCalledWith('userData', '/tmp/elsewhere');
  });

  it('wires sandbox, scheme, session lock-down, menu, tray, IPC and the window, with files under user data', async () => {
    const before = new Set([...process.listeners('uncaughtException'), ...process.listeners('unhandledRejection')]);
    const userData = mkdtempSync(join(tmpdir(), 'user-data-'));
    const lines: string[] = [];
    const started = startDesktopApp({ mainDir: '/app/main', env: { AGENT_INBOX_USER_DATA: userData }, platform: 'linux', log: (_l, line) => lines.push(line) });
    added = [...process.listeners('uncaughtException'), ...process.listeners('unhandledRejection')].filter((l) => !before.has(l)) as never;
    expect(started.started).toBe(true);
    expect(app.setPath).toHaveBeenCalledWith('userData', userData);
    expect(app.enableSandbox).toHaveBeenCalled();
    const { protocol } = await import('electron');
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalled();
    // Nothing that needs 'ready' has run yet.
    expect(FakeBrowserWindow.instances).toHaveLength(0);

    fakeState.becomeReady();
    const core = await (started as { ready: Promise<{ drain(ms: number): Promise<unknown> }> }).ready;
    expect(fakeState.permissionRequest).toBeDefined();
    expect(fakeState.applicationMenu).toBeDefined();
    expect(FakeTray.instances).toHaveLength(1);
    const win = FakeBrowserWindow.instances[0]!;
    expect(win.options.webPreferences).toMatchObject({ preload: '/app/main/preload.cjs', sandbox: true });
    expect(win.loadURL).toHaveBeenCalledWith(APP_URL);

    // A call through IPC from the window reaches the core.
    const handler = fakeState.ipcHandlers.get(IPC_CALL_CHANNEL)!;
    expect(await handler({ senderFrame: { url: APP_URL, parent: null } }, 'session.get', {})).toEqual({ ok: true, value: { status: 'signed_out' } });
    expect(await handler({ senderFrame: { url: APP_URL, parent: null } }, 'app.setUnreadCount', { count: 4 })).toEqual({ ok: true, value: { shown: true } });
    expect(FakeTray.instances[0]!.tooltip).toBe('Agent Inbox: 4 unread');

    // Moving the window is saved (debounced), and closing flushes it.
    win.bounds = { x: 33, y: 44, width: 1111, height: 777 };
    win.emit('close');
    expect(await core.drain(5_000)).toBe('drained');
    expect(JSON.parse(readFileSync(join(userData, 'window-state.json'), 'utf8'))).toMatchObject({ bounds: { x: 33, y: 44, width: 1111, height: 777 } });

    // An uncaught error goes to the redacting log, not a dialog.
    const handlers = added;
    expect(handlers.length).toBe(2);
    handlers[0]!(new Error('boom api_access_token=abcdef123456'));
    expect(lines.join('\n')).toContain('uncaught exception');
    expect(lines.join('\n')).not.toContain('abcdef123456');
  });
});
