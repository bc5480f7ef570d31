// One socket.io connection to the service's live updates (server/README "Live updates"), for one
// credential. socket.io-client does the transport work: reconnection with backoff after a drop,
// and connection state recovery (the service replays what a client missed within its window;
// `socket.recovered` says whether it did). This module adds what socket.io leaves to the app:
// reconnecting after the server itself closed the socket (a service shutting down), and telling
// the owner what happened in terms it acts on.
import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import type { LiveCredential } from '../session/manager';

export interface LiveSocketOptions {
  /** socket.io's reconnection backoff (its defaults are 1 s and 5 s). */
  reconnectionDelayMs: number;
  reconnectionDelayMaxMs: number;
  /** Timer for reconnecting after a server-side close, injectable for tests. */
  timer(ms: number, onFire: () => void): () => void;
  /** `update_presence` while connected, every this long (ActionCable's heartbeat, cable.ts). */
  presenceIntervalMs?: number;
  /**
   * What `update_presence` carries, where the service offers presence over socket.io (the
   * presence extension); undefined: nothing is sent (Chatwoot has no socket.io).
   */
  presence?: () => Record<string, unknown> | undefined;
}

export interface LiveSocketHandlers {
  connected(recovered: boolean): void;
  /** Lost or could not connect; socket.io (or this module) is already trying again. */
  dropped(): void;
  /** The service refused the credential (`unauthorized`): socket.io does not retry this one. */
  refused(): void;
  event(name: string, data: unknown): void;
}

export type ConnectSocket = (url: string, options: Parameters<typeof io>[1]) => Socket;

/** The socket.io URL and path for a base URL: a service under a path prefix keeps it (a path in the URL itself would name a namespace). */
export function socketAddress(baseUrl: string): { origin: string; path: string } {
  const url = new URL(baseUrl);
  return { origin: url.origin, path: `${url.pathname.replace(/\/+$/, '')}/socket.io/` };
}

export function openLiveSocket(cred: LiveCredential, handlers: LiveSocketHandlers, options: LiveSocketOptions, connect: ConnectSocket = io) {
  const { origin, path } = socketAddress(cred.baseUrl);
  const socket = connect(origin, {
    path,
    // The handshake the service expects (chatwoot-compat §4.1): never in the URL, so no proxy or access log sees it.
    auth: { pubsub_token: cred.pubsubToken, account_id: cred.accountId, user_id: cred.userId },
    // Node has no CORS or proxy reasons for long-polling first; a websocket is one connection.
    transports: ['websocket'],
    reconnection: true,
    reconnectionDelay: options.reconnectionDelayMs,
    reconnectionDelayMax: options.reconnectionDelayMaxMs,
    forceNew: true,
  });
  let cancelRetry: (() => void) | undefined;
  let cancelPresence: (() => void) | undefined;
  let closed = false;
  let attempt = 0;

  const updatePresence = () => {
    const data = options.presence?.();
    if (data && socket.connected) socket.emit('update_presence', data);
  };
  const heartbeat = () => {
    cancelPresence?.();
    cancelPresence = options.timer(options.presenceIntervalMs ?? 20_000, () => {
      if (closed) return;
      updatePresence();
      heartbeat();
    });
  };

  /** socket.io reconnects by itself after a network drop, but not after the server closed the socket or a failed first open it gave up on. */
  const retryLater = () => {
    if (closed || cancelRetry) return;
    const delay = Math.min(options.reconnectionDelayMaxMs, options.reconnectionDelayMs * 2 ** attempt++);
    cancelRetry = options.timer(delay, () => {
      cancelRetry = undefined;
      if (!closed && !socket.connected) socket.connect();
    });
  };

  socket.on('connect', () => {
    attempt = 0;
    handlers.connected(socket.recovered);
    updatePresence();
    heartbeat();
  });
  socket.on('disconnect', (reason) => {
    if (closed) return;
    handlers.dropped();
    if (reason === 'io server disconnect') retryLater();
  });
  socket.on('connect_error', (err) => {
    if (closed) return;
    // A refusal by the service's handshake check leaves the socket inactive: retrying the same
    // credential would be refused again, so the owner decides (re-read the profile, or expiry).
    if (!socket.active && err.message === 'unauthorized') return handlers.refused();
    handlers.dropped();
    if (!socket.active) retryLater();
  });
  socket.onAny((name: unknown, data: unknown) => {
    if (typeof name === 'string') handlers.event(name, data);
  });

  return {
    /** Presence now (what is viewed changed). */
    updatePresence,
    close() {
      closed = true;
      cancelRetry?.();
      cancelPresence?.();
      socket.removeAllListeners();
      socket.offAny();
      socket.disconnect();
    },
  };
}
export type LiveSocket = ReturnType<typeof openLiveSocket>;
