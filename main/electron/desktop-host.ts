// The core's DesktopHost from Electron: links through shell.openExternal, the unread indicator,
// and launch at login (login items on macOS and Windows, an XDG autostart entry on Linux).
import { app, shell } from 'electron';
import { join } from 'node:path';
import type { DesktopHost, LaunchAtLogin } from '../core/desktop/host';
import { linuxAutostart } from '../core/desktop/linux-autostart';

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

export function electronDesktopHost(opts: { platform: NodeJS.Platform; env: NodeJS.ProcessEnv; setUnreadCount: (n: number) => boolean }): DesktopHost {
  const atLogin = launchAtLogin(opts.platform, opts.env);
  return {
    openExternal: (url) => shell.openExternal(url),
    setUnreadCount: opts.setUnreadCount,
    ...(atLogin ? { launchAtLogin: atLogin } : {}),
  };
}
