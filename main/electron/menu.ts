// The native application menu: the usual roles, so the usual shortcuts (copy, paste, undo, zoom,
// close, quit, full screen) work on each platform. Developer tools only in development.
import { Menu } from 'electron';
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  platform: NodeJS.Platform;
  appName: string;
  isPackaged: boolean;
}

export function menuTemplate({ platform, appName, isPackaged }: MenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload' },
    ...(isPackaged ? [] : ([{ role: 'toggleDevTools' }] as MenuItemConstructorOptions[])),
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  return [
    ...(mac
      ? ([
          {
            label: appName,
            submenu: [{ role: 'about' }, { type: 'separator' }, { role: 'services' }, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }],
          },
        ] as MenuItemConstructorOptions[])
      : []),
    { label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] },
    {
      label: 'Edit',
      submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'pasteAndMatchStyle' }, { role: 'delete' }, { role: 'selectAll' }],
    },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
  ];
}

export function installMenu(options: MenuOptions) {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(options)));
}
