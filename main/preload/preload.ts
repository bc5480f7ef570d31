// The preload: exposes the bridge (and nothing else) to the sandboxed renderer. It refuses call
// names the contract does not define before anything reaches main; main validates again.
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { isBridgeCallName } from '../../shared/bridge/contract';
import { bridgeEvents } from '../../shared/bridge/events';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../shared/bridge/wire';

contextBridge.exposeInMainWorld('inboxBridge', {
  call(name: unknown, input: unknown) {
    if (!isBridgeCallName(name)) return Promise.resolve({ ok: false, error: { kind: 'invalid_input', message: 'Unknown bridge call.' } });
    return ipcRenderer.invoke(IPC_CALL_CHANNEL, name, input);
  },
  on(event: unknown, listener: unknown) {
    if (typeof event !== 'string' || !(event in bridgeEvents) || typeof listener !== 'function') return () => undefined;
    const handler = (_e: IpcRendererEvent, frame: { name: string; payload: unknown }) => {
      if (frame?.name === event) (listener as (payload: unknown) => void)(frame.payload);
    };
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
  },
});
