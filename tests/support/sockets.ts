// socket.io clients for live-update tests: every received event is recorded, and `next` waits for
// the next matching one. Tests prove absence with a barrier: a later event the socket must get,
// after which an earlier one can no longer arrive (socket.io keeps per-socket order).
import type { Socket as NetSocket } from 'node:net';
import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';

export interface Received {
  name: string;
  data: Record<string, unknown>;
}

export interface TestSocket {
  socket: Socket;
  received: Received[];
  next(name: string, match?: (data: Record<string, unknown>) => boolean): Promise<Received>;
  close(): void;
}

export function connectSocket(baseUrl: string, auth: Record<string, unknown>, opts: { reconnectionDelay?: number } = {}): Promise<TestSocket> {
  const socket = io(baseUrl, { auth, transports: ['websocket'], reconnectionDelay: opts.reconnectionDelay ?? 20, reconnectionDelayMax: 50, forceNew: true });
  const received: Received[] = [];
  const waiters: { name: string; match: (d: Record<string, unknown>) => boolean; from: number; resolve: (r: Received) => void }[] = [];
  socket.onAny((name: string, data: Record<string, unknown>) => {
    received.push({ name, data });
    for (const w of [...waiters]) {
      if (w.name === name && w.match(data)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve({ name, data });
      }
    }
  });
  const api: TestSocket = {
    socket,
    received,
    next(name, match = () => true) {
      const from = received.length;
      return new Promise((resolve) => waiters.push({ name, match, from, resolve }));
    },
    close: () => socket.close(),
  };
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(api));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** Counts the writes a server-side TCP socket hands to the kernel from now on (one per `_write` or `_writev`: a corked batch is one). */
export function countTcpWrites(tcp: NetSocket): { readonly count: number } {
  const counter = { count: 0 };
  for (const method of ['_write', '_writev'] as const) {
    const original = tcp[method]!.bind(tcp) as (...args: unknown[]) => void;
    (tcp as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      counter.count++;
      original(...args);
    };
  }
  return counter;
}
