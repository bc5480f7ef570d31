// main/electron with a mocked `electron` (no binary exists here): window options, navigation and
// new-window refusal, permission handlers, the IPC sender check, the app:// scheme handler,
// single instance, menu, tray/badge, before-quit flush, the safeStorage cipher, and the whole
// app started end to end against the fake.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../shared/bridge/wire';
import { app, fakeEvent, FakeBrowserWindow, fakeState, FakeTray, Menu, net, resetFakeElectron, safeStorage, shell } from '../support/fake-electron';

vi.mock('electron', () => import('../support/fake-electron'));

const { startDesktopApp } = await import('../../main/electron/app-main');
const { electronDesktopHost } = await import('../../main/electron/desktop-host');
const { registerBridge } = await import('../../main/electron/ipc');
const { claimSingleInstance, flushBeforeQuit, QUIT_FLUSH_BOUND_MS } = await import('../../main/electron/lifecycle');
const { installMenu, menuTemplate } = await import('../../main/electron/menu');
const { BLOCKED_FROM_RENDERER, lockDownSession } = await import('../../main/electron/permissions');
const { safeStorageCipher } = await import('../../main/electron/safe-storage-cipher');
const { registerAppSchemePrivileges, serveRenderer } = await import('../../main/electron/scheme');
const { createUnreadIndicator, unreadTooltip } = await import('../../main/electron/unread-indicator');
const { guardWebContents } = await import('../../main/electron/web-contents-guards');
const { createMainWindow, focusWindow } = await import('../../main/electron/window');
const { session } = await import('electron');

const APP_URL = 'app://inbox/index.html';
const placement = { bounds: { x: 10, y: 20, width: 1000, height: 700 }, maximized: false, fullScreen: false };
const flush = () => new Promise((r) => setImmediate(r));

beforeEach(() => resetFakeElectron());

describe('main window', () => {
  it('is sandboxed, context-isolated, without Node, webviews or insecure content, at the saved place', () => {
    createMainWindow({ preloadPath: '/app/main/preload.cjs', placement, onStateChange: () => undefined, onClose: () => undefined });
    const win = FakeBrowserWindow.instances[0]!;
    expect(win.options).toMatchObject({ x: 10, y: 20, width: 1000, height: 700, show: false });
    expect(win.options.webPreferences).toEqual({
      preload: '/app/main/preload.cjs',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    });
    expect(win.options).not.toHaveProperty('webPreferences.enableBlinkFeatures');
    expect(win.loadURL).toHaveBeenCalledWith(APP_URL);
    expect(win.maximize).not.toHaveBeenCalled();
  });

  it('restores maximised and full-screen state, reports moves and the final state on close', () => {
    const changes: unknown[] = [];
    const closes: unknown[] = [];
    createMainWindow({ preloadPath: 'p', placement: { ...placement, maximized: true }, onStateChange: (s) => changes.push(s), onClose: (s) => closes.push(s) });
    const win = FakeBrowserWindow.instances[0]!;
    expect(win.maximize).toHaveBeenCalled();
    win.bounds = { x: 50, y: 60, width: 900, height: 650 };
    win.emit('move');
    win.emit('resize');
    win.emit('close');
    expect(changes).toHaveLength(2);
    expect(closes).toEqual([{ bounds: { x: 50, y: 60, width: 900, height: 650 }, maximized: true, fullScreen: false }]);
  });

  it('shows itself when ready, and a second launch focuses and restores it', () => {
    createMainWindow({ preloadPath: 'p', placement, onStateChange: () => undefined, onClose: () => undefined });
    const win = FakeBrowserWindow.instances[0]!;
    win.emit('ready-to-show');
    expect(win.show).toHaveBeenCalled();
    win.minimized = true;
    focusWindow(win as never);
    expect(win.restore).toHaveBeenCalled();
    expect(win.focus).toHaveBeenCalled();
  });
});

describe('web contents guards', () => {
  const guarded = () => {
    const contents = new FakeBrowserWindow({ x: 0, y: 0, width: 1, height: 1 }).webContents;
    const opened: string[] = [];
    guardWebContents(contents as never, async (u) => void opened.push(u), () => undefined);
    return { contents, opened };
  };

  it.each(['will-navigate', 'will-redirect', 'will-attach-webview'])('prevents %s', (name) => {
    const { contents } = guarded();
    const event = fakeEvent();
    contents.emit(name, event, 'https://evil.example/');
    expect(event.preventDefault).toHaveBeenCalledTimes(1);
  });

  it('denies every new window, opening only http(s) and mailto links in the OS', async () => {
    const { contents, opened } = guarded();
    const handler = contents.windowOpenHandler!;
    for (const url of ['https://Example.com/doc', 'mailto:help@example.com', 'javascript:alert(1)', 'file:///etc/passwd', 'app://inbox/index.html', 'data:text/html,x', 'https://u:p@evil.example/']) {
      expect(handler({ url })).toEqual({ action: 'deny' });
    }
    await flush();
    expect(opened).toEqual(['https://example.com/doc', 'mailto:help@example.com']);
  });
});

describe('session lock-down', () => {
  beforeEach(() => lockDownSession(session.defaultSession as never));

  it('grants notifications to our page and denies every other permission request', () => {
    const ask = (permission: string, requestingUrl: string) => {
      let granted: boolean | undefined;
      fakeState.permissionRequest!({}, permission, (g) => (granted = g), { requestingUrl, isMainFrame: true });
      return granted;
    };
    expect(ask('notifications', APP_URL)).toBe(true);
    expect(ask('notifications', 'https://evil.example/')).toBe(false);
    for (const p of ['media', 'geolocation', 'clipboard-read', 'display-capture', 'openExternal', 'fullscreen', 'unknown']) expect(ask(p, APP_URL), p).toBe(false);
  });

  it('answers permission checks the same way, and denies devices', () => {
    expect(fakeState.permissionCheck!(null, 'notifications', 'app://inbox')).toBe(true);
    expect(fakeState.permissionCheck!(null, 'clipboard-read', 'app://inbox')).toBe(false);
    expect(fakeState.permissionCheck!(null, 'notifications', 'https://evil.example')).toBe(false);
    expect(fakeState.devicePermission!({ deviceType: 'usb' })).toBe(false);
  });

  it('cancels every network request from the renderer session', () => {
    expect(fakeState.beforeRequest!.filter.urls).toEqual(BLOCKED_FROM_RENDERER);
    const cb = vi.fn();
    fakeState.beforeRequest!.listener({ url: 'https://evil.example/' }, cb);
    expect(cb).toHaveBeenCalledWith({ cancel: true });
  });
});

describe('IPC bridge', () => {
  const setup = () => {
    const core = { call: vi.fn(async () => ({ ok: true, value: 'answered' })), onEvent: vi.fn((_l: unknown) => () => undefined) };
    const trusted = new FakeBrowserWindow({ x: 0, y: 0, width: 1, height: 1 });
    trusted.webContents.url = APP_URL;
    const elsewhere = new FakeBrowserWindow({ x: 0, y: 0, width: 1, height: 1 });
    elsewhere.webContents.url = 'https://evil.example/';
    registerBridge(core as never, () => FakeBrowserWindow.instances as never);
    const handler = fakeState.ipcHandlers.get(IPC_CALL_CHANNEL)!;
    const invoke = (senderFrame: unknown) => handler({ senderFrame }, 'session.get', {});
    return { core, invoke, trusted, elsewhere };
  };

  it('answers our app page in a top frame', async () => {
    const { core, invoke } = setup();
    expect(await invoke({ url: APP_URL, parent: null })).toEqual({ ok: true, value: 'answered' });
    expect(core.call).toHaveBeenCalledWith('session.get', {});
  });

  it.each([
    ['another origin', { url: 'https://evil.example/', parent: null }],
    ['a look-alike host', { url: 'app://inbox.evil/', parent: null }],
    ['an iframe of our own page', { url: APP_URL, parent: { url: APP_URL } }],
    ['a file page', { url: 'file:///index.html', parent: null }],
    ['a destroyed frame', null],
  ])('refuses %s without reaching the core', async (_name, frame) => {
    const { core, invoke } = setup();
    expect(await invoke(frame)).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(core.call).not.toHaveBeenCalled();
  });

  it('sends events only to windows showing our page', () => {
    const { core, trusted, elsewhere } = setup();
    const emit = core.onEvent.mock.calls[0]![0] as (name: string, payload: unknown) => void;
    emit('session.changed', { status: 'signed_out' });
    expect(trusted.webContents.send).toHaveBeenCalledWith(IPC_EVENT_CHANNEL, { name: 'session.changed', payload: { status: 'signed_out' } });
    expect(elsewhere.webContents.send).not.toHaveBeenCalled();
  });
});

describe('app:// scheme', () => {
  const root = mkdtempSync(join(tmpdir(), 'renderer-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html>');

  it('registers app:// as standard and secure before ready', async () => {
    const { protocol } = await import('electron');
    registerAppSchemePrivileges();
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
  });

  it('serves files from the renderer folder with the strict CSP', async () => {
    serveRenderer(root);
    const res = await fakeState.protocolHandlers.get('app')!({ url: APP_URL });
    expect(res.status).toBe(200);
    expect(net.fetch).toHaveBeenCalledWith(`file://${root}/index.html`);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each(['app://inbox/..%2f..%2fetc%2fpasswd', 'app://evil/index.html', 'app://inbox/a%00b', 'app://inbox/%5c..%5csecret'])('answers 404 to %s without touching the disk', async (url) => {
    serveRenderer(root);
    const res = await fakeState.protocolHandlers.get('app')!({ url });
    expect(res.status).toBe(404);
    expect(net.fetch).not.toHaveBeenCalled();
  });

  it('answers 404 when the file does not exist', async () => {
    serveRenderer(root);
    net.fetch.mockRejectedValueOnce(new Error('ERR_FILE_NOT_FOUND'));
    expect((await fakeState.protocolHandlers.get('app')!({ url: 'app://inbox/missing.js' })).status).toBe(404);
  });
});

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

describe('preload', () => {
  it('exposes the bridge (call and on) and nothing else, refusing unknown calls before IPC', async () => {
    const { contextBridge, ipcRenderer } = await import('electron');
    await import('../../main/preload/preload');
    expect(contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
    const [name, api] = (contextBridge.exposeInMainWorld as unknown as { mock: { calls: [string, Record<string, (...a: unknown[]) => unknown>][] } }).mock.calls[0]!;
    expect(name).toBe('inboxBridge');
    expect(Object.keys(api).sort()).toEqual(['call', 'on']);
    expect(await api.call!('os.exec', {})).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(ipcRenderer.invoke).not.toHaveBeenCalled();
    await api.call!('session.get', {});
    expect(ipcRenderer.invoke).toHaveBeenCalledWith(IPC_CALL_CHANNEL, 'session.get', {});
    expect(typeof api.on!('not.an.event', () => undefined)).toBe('function');
    expect(ipcRenderer.on).not.toHaveBeenCalled();
  });
});
