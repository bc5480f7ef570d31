// The main window, locked down: sandboxed, context-isolated, no Node in the renderer, our page
// only (navigation and new windows are refused in web-contents-guards.ts). It opens where it was
// last (placement comes from core/desktop/window-state.ts) and reports moves so they are saved.
import { BrowserWindow } from 'electron';
import { join } from 'node:path';
import type { WindowState } from '../core/desktop/window-state';
import { WINDOW_DEFAULTS } from '../core/desktop/window-state';
import { APP_ORIGIN } from '../core/security/app-scheme';
import { APP_TITLE, windowTitle } from '../../shared/text/untrusted-text';

/** Exported so the glue test can check every item against Electron's security checklist. */
export const secureWebPreferences = (preloadPath: string) =>
  ({
    preload: preloadPath,
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
    // Chromium's PDF viewer (the only plugin Electron has) shows a received PDF in the app's viewer
    // frame, from a blob: URL main typed application/pdf by its bytes; without it the frame is blank.
    plugins: true,
  }) as const;

export interface MainWindowOptions {
  preloadPath: string;
  placement: WindowState;
  onStateChange(state: WindowState): void;
  onClose(state: WindowState): void;
}

export function createMainWindow(opts: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    ...opts.placement.bounds,
    minWidth: WINDOW_DEFAULTS.minWidth,
    minHeight: WINDOW_DEFAULTS.minHeight,
    show: false,
    title: APP_TITLE,
    webPreferences: secureWebPreferences(opts.preloadPath),
  });
  if (opts.placement.maximized) win.maximize();
  if (opts.placement.fullScreen) win.setFullScreen(true);

  // Normal bounds, so a maximised window still remembers the size to restore to.
  const current = (): WindowState => ({ bounds: win.getNormalBounds(), maximized: win.isMaximized(), fullScreen: win.isFullScreen() });
  for (const event of ['resize', 'move', 'maximize', 'unmaximize', 'enter-full-screen', 'leave-full-screen'] as const) {
    win.on(event as 'resize', () => opts.onStateChange(current()));
  }
  win.on('close', () => opts.onClose(current()));
  // The title bar is plain text: whatever title the page sets (nothing sets one from a contact's
  // text today) reaches it without bidi or invisible characters, on one line.
  win.on('page-title-updated', (event, title) => {
    event.preventDefault();
    win.setTitle(windowTitle(title));
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

/** Brings the window to the front (second launch, tray click, dock click). */
export function focusWindow(win: BrowserWindow | undefined) {
  if (!win || win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  if (!win.isVisible()) win.show();
  win.focus();
}

export const preloadPathBeside = (dir: string) => join(dir, 'preload.cjs');
