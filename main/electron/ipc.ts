// Electron's transport for the bridge: one invoke channel for calls, one channel for events.
// Every call checks that it comes from our own app:// page in a window's top frame before main
// core (which validates name and input with zod) sees it.
import { ipcMain } from 'electron';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import { fail } from '../../shared/bridge/result';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../shared/bridge/wire';
import type { MainCore } from '../core/core';
import { isTrustedSender, isTrustedSenderUrl } from '../core/security/app-scheme';

export function registerBridge(core: Pick<MainCore, 'call' | 'onEvent'>, windows: () => BrowserWindow[]) {
  ipcMain.handle(IPC_CALL_CHANNEL, async (event: IpcMainInvokeEvent, name: unknown, input: unknown) => {
    const frame = event.senderFrame;
    if (!isTrustedSender(frame ? { url: frame.url, isMainFrame: frame.parent === null } : null)) {
      return fail('forbidden', 'Calls are accepted from the app window only.');
    }
    return core.call(name, input);
  });
  // Events go only to windows showing our page (never to one that somehow navigated elsewhere).
  return core.onEvent((name, payload) => {
    for (const win of windows()) {
      if (!win.isDestroyed() && isTrustedSenderUrl(win.webContents.getURL())) win.webContents.send(IPC_EVENT_CHANNEL, { name, payload });
    }
  });
}
