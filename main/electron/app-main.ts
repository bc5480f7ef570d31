// The desktop app, put together: thin glue around main/core. Everything with logic in it lives
// in main/core and is tested there; this wires Electron's objects to it.
import { app, BrowserWindow, screen, session, shell } from 'electron';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { realClock } from '../core/api/retry';
import { createMainCore } from '../core/core';
import type { MainCore } from '../core/core';
import { debouncedSaver, placeWindow, windowStateFile } from '../core/desktop/window-state';
import { createPendingWork } from '../core/pending-work';
import { devOverrides } from '../core/desktop/dev-overrides';
import { createSecretRegistry, redactingLogger } from '../core/redact';
import { savedSessionsFile } from '../core/session/saved-sessions';
import { fileVault } from '../core/vault/file-vault';
import { electronDesktopHost } from './desktop-host';
import { registerBridge } from './ipc';
import { claimSingleInstance, flushBeforeQuit } from './lifecycle';
import { installMenu } from './menu';
import { lockDownSession } from './permissions';
import { safeStorageCipher } from './safe-storage-cipher';
import { registerAppSchemePrivileges, serveRenderer } from './scheme';
import { createUnreadIndicator } from './unread-indicator';
import { guardWebContents } from './web-contents-guards';
import { createMainWindow, focusWindow, preloadPathBeside } from './window';

export interface DesktopAppOptions {
  /** Folder of the bundled main process (dist/main, or app.asar/main when packaged). */
  mainDir: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  log?: (level: string, line: string) => void;
}

export function startDesktopApp(opts: DesktopAppOptions): { started: false } | { started: true; ready: Promise<MainCore> } {
  const secrets = createSecretRegistry();
  const logger = redactingLogger(opts.log ?? ((level, line) => console.error(`[${level}] ${line}`)), () => secrets.values());
  // Electron's default for an uncaught exception is a dialog showing its message and stack; ours
  // goes to the redacting log instead, so no token can surface in a dialog or crash report.
  process.on('uncaughtException', (err) => logger.error('uncaught exception', err));
  process.on('unhandledRejection', (err) => logger.error('unhandled rejection', err));

  const dev = devOverrides(opts.env, app.isPackaged);
  if (dev.userData) app.setPath('userData', dev.userData);
  let mainWindow: BrowserWindow | undefined;
  if (!claimSingleInstance(() => focusWindow(mainWindow))) {
    app.quit();
    return { started: false };
  }
  app.enableSandbox();
  registerAppSchemePrivileges();
  if (opts.platform === 'win32') app.setAppUserModelId('com.example.agentinbox');
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, (url) => shell.openExternal(url), (err) => logger.warn('could not open a link', err)));
  app.on('window-all-closed', () => {
    if (opts.platform !== 'darwin') app.quit();
  });

  const ready = app.whenReady().then(async () => {
    const userData = app.getPath('userData');
    const pending = createPendingWork();
    const indicator = createUnreadIndicator({
      platform: opts.platform,
      appName: app.getName(),
      trayIconPath: join(opts.mainDir, 'tray-icon.png'),
      showWindow: () => focusWindow(mainWindow),
      quit: () => app.quit(),
    });
    const core = createMainCore({
      vault: fileVault({ file: join(userData, 'tokens.json'), cipher: safeStorageCipher(opts.platform), logger, pending }),
      savedSessions: savedSessionsFile(join(userData, 'sessions.json'), logger, pending),
      desktop: electronDesktopHost({ platform: opts.platform, env: opts.env, setUnreadCount: (n) => indicator.setUnreadCount(n), showWindow: () => focusWindow(mainWindow) }),
      logger,
      secrets,
      pending,
      liveUpdates: {},
    });
    flushBeforeQuit(
      (bound) => {
        core.closeLive();
        return core.drain(bound);
      },
      (outcome) => outcome === 'timed_out' && logger.warn('quit before all pending work finished'),
    );
    lockDownSession(session.defaultSession);
    installMenu({ platform: opts.platform, appName: app.getName(), isPackaged: app.isPackaged });
    serveRenderer(dev.rendererDir ?? join(opts.mainDir, '../renderer'));
    registerBridge(core, () => BrowserWindow.getAllWindows());
    await signInDemoAgent(core, dev.demoCredentialsFile, secrets.add, logger);

    const windowState = windowStateFile(join(userData, 'window-state.json'), logger, pending);
    const saver = debouncedSaver((s) => windowState.write(s), 500, realClock.timer);
    const openWindow = async () => {
      const primary = screen.getPrimaryDisplay();
      const displays = [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)];
      const placement = placeWindow(await windowState.read(), displays.map((d) => d.workArea));
      mainWindow = createMainWindow({
        preloadPath: preloadPathBeside(opts.mainDir),
        placement,
        onStateChange: (s) => saver.changed(s),
        onClose: (s) => {
          saver.changed(s);
          void pending.track(saver.flush());
        },
      });
    };
    await openWindow();
    app.on('activate', () => (BrowserWindow.getAllWindows().length === 0 ? void openWindow() : focusWindow(mainWindow)));
    return core;
  });
  return { started: true, ready };
}

/** `npm start` signs the embedded demo service's agent in; a packaged app never does (devOverrides). */
async function signInDemoAgent(core: MainCore, file: string | undefined, remember: (s: string) => void, logger: { warn(m: string): void }) {
  if (!file) return;
  const creds = JSON.parse(readFileSync(file, 'utf8')) as { baseUrl: string; agentToken: string };
  remember(creds.agentToken);
  const result = await core.call('session.signIn', { baseUrl: creds.baseUrl, accessToken: creds.agentToken });
  if (!result.ok) logger.warn(`demo sign-in failed: ${result.error.message}`);
}
