// The core's DesktopHost from Electron: links through shell.openExternal, the unread indicator,
// launch at login (login items on macOS and Windows, an XDG autostart entry on Linux), and OS
// notifications whose click brings the window back.
import { app, Notification, shell } from 'electron';
import { join } from 'node:path';
import type { DesktopHost, LaunchAtLogin } from '../core/desktop/host';
import { linuxAutostart } from '../core/desktop/linux-autostart';
import { escapeBodyMarkup } from '../../shared/text/notification-text';

function launchAtLogin(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): LaunchAtLogin | undefined {
  // Unpackaged, the executable is the bare Electron binary: registering it would start nothing useful.
  if (!app.isPackaged) return undefined;
  if (platform === 'darwin' || platform === 'win32') {
    return {
      get: async () => app.getLoginItemSettings().openAtLogin,
      set: async (enabled) => app.setLoginItemSettings({ openAtLogin: enabled }),
    };
  }
  if (platform === 'linux') {
    return linuxAutostart({
      configDir: env.XDG_CONFIG_HOME || join(app.getPath('home'), '.config'),
      fileName: 'agent-inbox',
      name: app.getName(),
      // An AppImage runs from a temporary mount; APPIMAGE names the file to start.
      exec: [env.APPIMAGE || process.execPath],
    });
  }
  return undefined;
}

/** Notifications still on screen: a Notification that is garbage-collected loses its click handler. */
const MAX_SHOWN = 20;

function notifier(platform: NodeJS.Platform, showWindow: () => void): DesktopHost['notify'] {
  const shown = new Set<Notification>();
  return (content, onClick) => {
    if (!Notification.isSupported()) return false;
    // Text only (notificationText cleaned both in the core). Linux notification servers may read
    // the body as markup and Electron does not escape it, so a contact's `<a href>` stays text.
    const n = new Notification({ title: content.title, body: platform === 'linux' ? escapeBodyMarkup(content.body) : content.body });
    const forget = () => shown.delete(n);
    n.on('click', () => {
      forget();
      showWindow();
      onClick();
    });
    n.on('close', forget);
    shown.add(n);
    if (shown.size > MAX_SHOWN) shown.delete(shown.values().next().value!);
    n.show();
    return true;
  };
}

export function electronDesktopHost(opts: { platform: NodeJS.Platform; env: NodeJS.ProcessEnv; setUnreadCount: (n: number) => boolean; showWindow?: () => void }): DesktopHost {
  const atLogin = launchAtLogin(opts.platform, opts.env);
  return {
    openExternal: (url) => shell.openExternal(url),
    setUnreadCount: opts.setUnreadCount,
    notify: notifier(opts.platform, opts.showWindow ?? (() => undefined)),
    ...(atLogin ? { launchAtLogin: atLogin } : {}),
  };
}
