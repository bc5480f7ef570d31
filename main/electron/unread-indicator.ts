// The unread count outside the window: the dock badge (macOS) or launcher badge (Linux desktops
// that support it) through app.setBadgeCount, and a tray icon with the count in its tooltip on
// Windows and Linux, where a badge is often not shown.
import { app, Menu, nativeImage, Tray } from 'electron';

export interface UnreadIndicatorOptions {
  platform: NodeJS.Platform;
  appName: string;
  trayIconPath: string;
  showWindow(): void;
  quit(): void;
}

export const unreadTooltip = (appName: string, count: number) => (count === 0 ? appName : `${appName}: ${count > 999 ? '999+' : count} unread`);

export function createUnreadIndicator(opts: UnreadIndicatorOptions) {
  let tray: Tray | undefined;
  if (opts.platform !== 'darwin') {
    tray = new Tray(nativeImage.createFromPath(opts.trayIconPath));
    tray.setToolTip(unreadTooltip(opts.appName, 0));
    tray.setContextMenu(Menu.buildFromTemplate([{ label: `Open ${opts.appName}`, click: opts.showWindow }, { type: 'separator' }, { label: 'Quit', click: opts.quit }]));
    tray.on('click', opts.showWindow);
  }
  return {
    /** Answers whether anything shows the count. */
    setUnreadCount(count: number): boolean {
      const badged = app.setBadgeCount(count);
      tray?.setToolTip(unreadTooltip(opts.appName, count));
      return badged || tray !== undefined;
    },
    destroy() {
      tray?.destroy();
      tray = undefined;
    },
  };
}
