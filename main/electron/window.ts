// The main window, locked down: sandboxed, context-isolated, no Node in the renderer, no
// navigation away from the app, new windows denied (safe links open in the OS browser).
import { BrowserWindow, shell } from 'electron';
import { join } from 'node:path';
import { APP_ORIGIN } from '../core/security/app-scheme';
import { openExternalSafely } from '../core/security/external-url';

export function createMainWindow(preloadPath: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Agent Inbox',
    webPreferences: {
      preload: preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: true,
    },
  });
  const contents = win.webContents;
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    void openExternalSafely(url, (safe) => shell.openExternal(safe));
    return { action: 'deny' };
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

export const preloadPathBeside = (dir: string) => join(dir, 'preload.cjs');
