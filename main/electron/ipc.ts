// Electron's transport for the bridge: one invoke channel for calls, one channel for events.
// Every call checks that it comes from our own app:// frame before main core sees it.
import { ipcMain } from 'electron';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import { fail } from '../../shared/bridge/result';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../shared/bridge/wire';
import type { MainCore } from '../core/core';
import { isTrustedSenderUrl } from '../core/security/app-scheme';

export function registerBridge(core: MainCore, windows: () => BrowserWindow[]) {
  ipcMain.handle(IPC_CALL_CHANNEL, async (event: IpcMainInvokeEvent, name: unknown, input: unknown) => {
    if (!isTrustedSenderUrl(event.senderFrame?.url)) return fail('forbidden', 'Calls are accepted from the app window only.');
    return core.call(name, input);
  });
  return core.onEvent((name, payload) => {
    for (const win of windows()) if (!win.isDestroyed()) win.webContents.send(IPC_EVENT_CHANNEL, { name, payload });
  });
}
