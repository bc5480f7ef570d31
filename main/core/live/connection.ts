// The live-update connection for one credential, over whichever transport the service offers
// (detect.ts): socket.io (socket.ts) or ActionCable (cable.ts). The owner (live-updates.ts) hears
// the same four things from either: connected (recovered or not), dropped, refused, an event.
//
// Reconnecting: socket.io-client reconnects by itself (and socket.ts after a server-side close);
// an ActionCable connection that drops or cannot open is replaced here after a backoff (the same
// 1 s doubling to 10 s), the transport detected again first, so a service restarted with other
// flags is followed. A socket.io attempt that fails (or a socket.io drop) also re-runs the probe,
// one at a time: when the service now answers without socket.io, ActionCable takes over.
import type { LiveCredential } from '../session/manager';
import type { ConnectCable, LiveCableOptions } from './cable';
import { openLiveCable } from './cable';
import type { DetectTransport, LiveTransport } from './detect';
import type { ConnectSocket, LiveSocketHandlers, LiveSocketOptions } from './socket';
import { openLiveSocket } from './socket';

export type LiveConnectionOptions = LiveSocketOptions & LiveCableOptions;

export interface LiveConnectionDeps {
  detect: DetectTransport;
  connectSocketIo?: ConnectSocket;
  connectCable?: ConnectCable;
}

export function openLiveConnection(cred: LiveCredential, handlers: LiveSocketHandlers, options: LiveConnectionOptions, deps: LiveConnectionDeps) {
  let closed = false;
  let current: { kind: LiveTransport; close(): void; updatePresence(): void } | undefined;
  let cancelRetry: (() => void) | undefined;
  let attempt = 0;
  let probing = false;

  const connected = (recovered: boolean) => {
    attempt = 0;
    handlers.connected(recovered);
  };

  function retryLater() {
    if (closed || cancelRetry) return;
    const delay = Math.min(options.reconnectionDelayMaxMs, options.reconnectionDelayMs * 2 ** attempt++);
    cancelRetry = options.timer(delay, () => {
      cancelRetry = undefined;
      void start();
    });
  }

  async function start() {
    const kind = await deps.detect(cred.baseUrl);
    if (closed) return;
    if (!kind) {
      handlers.dropped();
      return retryLater();
    }
    open(kind);
  }

  /** After a socket.io failure: does the service still offer it? Switch to ActionCable if not. */
  async function recheck(handle: typeof current) {
    if (probing) return;
    probing = true;
    let kind: LiveTransport | undefined;
    try {
      kind = await deps.detect(cred.baseUrl);
    } catch {
      kind = undefined;
    } finally {
      probing = false;
    }
    if (!closed && current === handle && kind === 'cable') open('cable');
  }

  function open(kind: LiveTransport) {
    current?.close();
    if (kind === 'socket.io') {
      const handle = { kind, close: () => socket.close(), updatePresence: () => socket.updatePresence() };
      const socket = openLiveSocket(
        cred,
        {
          ...handlers,
          connected,
          dropped: () => {
            handlers.dropped();
            void recheck(handle);
          },
        },
        options,
        deps.connectSocketIo,
      );
      current = handle;
      return;
    }
    const cable = openLiveCable(
      cred,
      {
        ...handlers,
        connected,
        dropped: () => {
          current = undefined;
          handlers.dropped();
          retryLater();
        },
      },
      options,
      deps.connectCable,
    );
    current = { kind, close: () => cable.close(), updatePresence: () => void cable.updatePresence() };
  }

  void start();
  return {
    /** The transport in use (none while detecting or waiting to retry). */
    transport: (): LiveTransport | undefined => current?.kind,
    /** Tells the service this connection's presence now (what it views changed). */
    updatePresence: () => current?.updatePresence(),
    close() {
      closed = true;
      cancelRetry?.();
      current?.close();
      current = undefined;
    },
  };
}
export type LiveConnection = ReturnType<typeof openLiveConnection>;
