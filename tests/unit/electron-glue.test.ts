// main/electron with a mocked `electron` (no binary exists here), part 1: window options,
// navigation and new-window refusal, permission handlers, the IPC sender check, the app:// scheme
// handler, the preload. Part 2 (electron-app.test.ts): single instance, quitting, menu, tray/badge,
// the safeStorage cipher, the desktop host, and the whole app started against the fake.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { inlineScriptHashes } from '../../main/core/security/csp';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../shared/bridge/wire';
import { fakeEvent, FakeBrowserWindow, fakeState, net, resetFakeElectron } from '../support/fake-electron';

vi.mock('electron', () => import('../support/fake-electron'));

const { registerBridge } = await import('../../main/electron/ipc');
const { BLOCKED_FROM_RENDERER, lockDownSession } = await import('../../main/electron/permissions');
const { registerAppSchemePrivileges, serveRenderer } = await import('../../main/electron/scheme');
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
      plugins: true,
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

  it('puts no bidi or invisible character in the title bar, whatever title the page sets', () => {
    createMainWindow({ preloadPath: 'p', placement, onStateChange: () => undefined, onClose: () => undefined });
    const win = FakeBrowserWindow.instances[0]!;
    const preventDefault = vi.fn();
    win.emit('page-title-updated', { preventDefault }, 'Invoice\u202Efdp.exe \u2066x\u2069\u200B\n· Agent Inbox');
    expect(preventDefault).toHaveBeenCalled();
    expect(win.setTitle).toHaveBeenLastCalledWith('Invoicefdp.exe x · Agent Inbox');
    win.emit('page-title-updated', { preventDefault }, '\u202E');
    expect(win.setTitle).toHaveBeenLastCalledWith('Agent Inbox');
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
  const page = '<!doctype html><html><head><script>start()</script></head></html>';
  writeFileSync(join(root, 'index.html'), page);

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
    // The page's own inline script (the build's head script) by its hash, and no other.
    expect(res.headers.get('content-security-policy')).toContain(`script-src 'self' '${inlineScriptHashes(page)[0]}';`);
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
