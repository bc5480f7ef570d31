// A stand-in for the `electron` module (no binary exists here or in CI). The glue tests mock
// `electron` with this and drive it: emit app and webContents events, call registered handlers.
// Objects are stable (modules import them once); `resetFakeElectron` clears their state.
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

class FakeWebContents extends EventEmitter {
  url = '';
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  send = vi.fn();
  setWindowOpenHandler = vi.fn((h: (details: { url: string }) => { action: string }) => void (this.windowOpenHandler = h));
  getURL = () => this.url;
}

export class FakeBrowserWindow extends EventEmitter {
  static instances: FakeBrowserWindow[] = [];
  static getAllWindows = () => FakeBrowserWindow.instances.filter((w) => !w.destroyed);
  webContents = new FakeWebContents();
  destroyed = false;
  minimized = false;
  visible = false;
  maximized = false;
  fullScreen = false;
  bounds: { x: number; y: number; width: number; height: number };
  loadURL = vi.fn(async (url: string) => void (this.webContents.url = url));
  focus = vi.fn();
  show = vi.fn(() => void (this.visible = true));
  restore = vi.fn(() => void (this.minimized = false));
  maximize = vi.fn(() => void (this.maximized = true));
  setFullScreen = vi.fn((v: boolean) => void (this.fullScreen = v));
  title = '';
  setTitle = vi.fn((t: string) => void (this.title = t));
  constructor(readonly options: Record<string, unknown> & { x: number; y: number; width: number; height: number }) {
    super();
    this.bounds = { x: options.x, y: options.y, width: options.width, height: options.height };
    FakeBrowserWindow.instances.push(this);
  }
  isDestroyed = () => this.destroyed;
  isMinimized = () => this.minimized;
  isVisible = () => this.visible;
  isMaximized = () => this.maximized;
  isFullScreen = () => this.fullScreen;
  getNormalBounds = () => this.bounds;
}

export class FakeTray extends EventEmitter {
  static instances: FakeTray[] = [];
  tooltip = '';
  menu: unknown;
  destroyed = false;
  constructor(readonly image: unknown) {
    super();
    FakeTray.instances.push(this);
  }
  setToolTip = vi.fn((t: string) => void (this.tooltip = t));
  setContextMenu = vi.fn((m: unknown) => void (this.menu = m));
  destroy = vi.fn(() => void (this.destroyed = true));
}

export class FakeNotification extends EventEmitter {
  static instances: FakeNotification[] = [];
  static supported = true;
  static isSupported = vi.fn(() => FakeNotification.supported);
  shown = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeNotification.instances.push(this);
  }
  show = vi.fn(() => void (this.shown = true));
  close = vi.fn(() => {
    this.shown = false;
    this.emit('close');
  });
}

type PermissionRequestHandler = (wc: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl: string; isMainFrame: boolean }) => void;
type PermissionCheckHandler = (wc: unknown, permission: string, origin: string) => boolean;

const appEmitter = new EventEmitter();
let resolveReady!: () => void;
let readyPromise = new Promise<void>((r) => (resolveReady = r));

export const fakeState = {
  singleInstanceLock: true,
  isPackaged: false,
  paths: {} as Record<string, string>,
  loginItem: { openAtLogin: false },
  badgeSupported: true,
  safeStorage: { available: true, backend: 'gnome_libsecret' },
  ipcHandlers: new Map<string, (...args: unknown[]) => unknown>(),
  protocolHandlers: new Map<string, (request: { url: string }) => Promise<Response>>(),
  permissionRequest: undefined as PermissionRequestHandler | undefined,
  permissionCheck: undefined as PermissionCheckHandler | undefined,
  devicePermission: undefined as ((details: unknown) => boolean) | undefined,
  beforeRequest: undefined as { filter: { urls: string[] }; listener: (details: unknown, cb: (r: { cancel: boolean }) => void) => void } | undefined,
  applicationMenu: undefined as unknown,
  /** Makes app.whenReady() resolve. */
  becomeReady: () => resolveReady(),
};

export const app = Object.assign(appEmitter, {
  requestSingleInstanceLock: vi.fn(() => fakeState.singleInstanceLock),
  enableSandbox: vi.fn(),
  quit: vi.fn(),
  setPath: vi.fn((name: string, value: string) => void (fakeState.paths[name] = value)),
  getPath: vi.fn((name: string) => fakeState.paths[name] ?? `/fake/${name}`),
  getName: vi.fn(() => 'Agent Inbox'),
  whenReady: vi.fn(() => readyPromise),
  setBadgeCount: vi.fn(() => fakeState.badgeSupported),
  setAppUserModelId: vi.fn(),
  getLoginItemSettings: vi.fn(() => ({ ...fakeState.loginItem })),
  setLoginItemSettings: vi.fn((s: { openAtLogin: boolean }) => void (fakeState.loginItem = { openAtLogin: s.openAtLogin })),
});
// A getter (Object.assign would copy today's value once).
Object.defineProperty(app, 'isPackaged', { get: () => fakeState.isPackaged });

export const ipcMain = { handle: vi.fn((channel: string, handler: (...args: unknown[]) => unknown) => void fakeState.ipcHandlers.set(channel, handler)) };
export const protocol = {
  registerSchemesAsPrivileged: vi.fn(),
  handle: vi.fn((scheme: string, handler: (request: { url: string }) => Promise<Response>) => void fakeState.protocolHandlers.set(scheme, handler)),
};
export const net = { fetch: vi.fn(async (url: string) => new Response(`contents of ${url}`, { status: 200, headers: { 'content-type': 'text/html' } })) };
export const shell = { openExternal: vi.fn(async (_url: string) => undefined) };
export const session = {
  defaultSession: {
    setPermissionRequestHandler: vi.fn((h: PermissionRequestHandler) => void (fakeState.permissionRequest = h)),
    setPermissionCheckHandler: vi.fn((h: PermissionCheckHandler) => void (fakeState.permissionCheck = h)),
    setDevicePermissionHandler: vi.fn((h: (d: unknown) => boolean) => void (fakeState.devicePermission = h)),
    webRequest: { onBeforeRequest: vi.fn((filter: { urls: string[] }, listener: (d: unknown, cb: (r: { cancel: boolean }) => void) => void) => void (fakeState.beforeRequest = { filter, listener })) },
  },
};
export const safeStorage = {
  isEncryptionAvailable: vi.fn(() => fakeState.safeStorage.available),
  getSelectedStorageBackend: vi.fn(() => fakeState.safeStorage.backend),
  encryptString: vi.fn((s: string) => Buffer.from(`E(${s})`)),
  decryptString: vi.fn((b: Buffer) => b.toString().replace(/^E\((.*)\)$/, '$1')),
};
export const Menu = {
  buildFromTemplate: vi.fn((template: unknown) => ({ template })),
  setApplicationMenu: vi.fn((menu: unknown) => void (fakeState.applicationMenu = menu)),
};
export const nativeImage = { createFromPath: vi.fn((path: string) => ({ path })) };
export const screen = {
  getPrimaryDisplay: vi.fn(() => ({ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1050 } })),
  getAllDisplays: vi.fn(() => [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1050 } }]),
};
export const BrowserWindow = FakeBrowserWindow;
export const Tray = FakeTray;
export const Notification = FakeNotification;
export const contextBridge = { exposeInMainWorld: vi.fn() };
export const ipcRenderer = { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn() };

export function resetFakeElectron() {
  vi.clearAllMocks();
  appEmitter.removeAllListeners();
  readyPromise = new Promise<void>((r) => (resolveReady = r));
  FakeBrowserWindow.instances = [];
  FakeTray.instances = [];
  FakeNotification.instances = [];
  FakeNotification.supported = true;
  Object.assign(fakeState, {
    singleInstanceLock: true,
    isPackaged: false,
    paths: {},
    loginItem: { openAtLogin: false },
    badgeSupported: true,
    safeStorage: { available: true, backend: 'gnome_libsecret' },
    ipcHandlers: new Map(),
    protocolHandlers: new Map(),
    permissionRequest: undefined,
    permissionCheck: undefined,
    devicePermission: undefined,
    beforeRequest: undefined,
    applicationMenu: undefined,
  });
}

/** An Electron-style event whose preventDefault is recorded. */
export const fakeEvent = () => ({ preventDefault: vi.fn(), defaultPrevented: false });
