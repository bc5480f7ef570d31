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

/**
 * OS notifications. Electron cannot update one in place, so a notification with the tag of one
 * still shown closes that one first (a conversation's burst stays one notification). "Mark read"
 * is offered as an action where Electron shows actions (macOS); a click opens the conversation
 * everywhere.
 */
function notifier(platform: NodeJS.Platform, showWindow: () => void): Pick<DesktopHost, 'notify' | 'closeNotification'> {
  const shown = new Set<Notification>();
  const byTag = new Map<string, Notification>();
  const forget = (n: Notification) => {
    shown.delete(n);
    for (const [tag, held] of byTag) if (held === n) byTag.delete(tag);
  };
  return {
    notify: (content, onClick, onAction) => {
      if (!Notification.isSupported()) return false;
      const actions = platform === 'darwin' && onAction ? [{ type: 'button' as const, text: 'Mark read' }] : [];
      // Text only (notificationText cleaned both in the core). Linux notification servers may read
      // the body as markup and Electron does not escape it, so a contact's `<a href>` stays text.
      const n = new Notification({ title: content.title, body: platform === 'linux' ? escapeBodyMarkup(content.body) : content.body, silent: content.silent ?? false, actions });
      n.on('click', () => {
        forget(n);
        showWindow();
        onClick();
      });
      n.on('action', () => {
        forget(n);
        onAction?.('markRead');
      });
      n.on('close', () => forget(n));
      if (content.tag) {
        const before = byTag.get(content.tag);
        if (before) {
          forget(before);
          before.close();
        }
        byTag.set(content.tag, n);
      }
      shown.add(n);
      if (shown.size > MAX_SHOWN) forget(shown.values().next().value!);
      n.show();
      return true;
    },
    closeNotification: (tag) => {
      const n = byTag.get(tag);
      if (!n) return false;
      forget(n);
      n.close();
      return true;
    },
  };
}

export function electronDesktopHost(opts: { platform: NodeJS.Platform; env: NodeJS.ProcessEnv; setUnreadCount: (n: number) => boolean; showWindow?: () => void }): DesktopHost {
  const atLogin = launchAtLogin(opts.platform, opts.env);
  return {
    openExternal: (url) => shell.openExternal(url),
    setUnreadCount: opts.setUnreadCount,
    ...notifier(opts.platform, opts.showWindow ?? (() => undefined)),
    ...(atLogin ? { launchAtLogin: atLogin } : {}),
  };
}
