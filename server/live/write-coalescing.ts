// One TCP write per socket per batch of events, however many events it is sent in that batch.
//
// socket.io's broadcast encodes an event once and hands the same WebSocket frame to every socket,
// but each socket then writes it at once: one write syscall per socket per event. On loopback that
// syscall also runs the receiver's TCP stack, and it was most of what each listening socket cost a
// message create (bench: 8 µs per socket per event, 200 sockets). Corking the socket's TCP
// connection when engine.io flushes to it (or a broadcast writes its frame directly,
// broadcast-frames.ts; or ActionCable sends, cable/server.ts), and uncorking the lot together later,
// sends every frame written in between in one writev. While a write is pending engine.io buffers
// further packets itself and flushes them together when it completes.
//
// When: a batch is uncorked once the turn's I/O callbacks have run (setImmediate), so an event
// after a quiet spell leaves at once, as before. A batch that begins less than HOLD_MS after the
// last one was uncorked is held until HOLD_MS after it: under a steady stream of events each socket
// gets at most one write per HOLD_MS, whatever the rate. Much of a write's cost is per write (the
// syscall, loopback's TCP on both sides; bench fanout floor, an 840-byte event to 200 sockets: about
// 2.9 µs per socket per event written alone, 0.8 with 4 events a write, 0.35 with 16), and at
// ~2,700 creates a second one turn gathered only a few. With the hold (bench:server, 200 sockets):
// 0.8-0.9 µs of the service's CPU per socket per event, down from 1.1-1.3, and the receivers' per
// event about a third lower too. An event waits at most HOLD_MS for it, well under a frame and
// against live's budget of 250 ms (bench/README).
//
// A slow reader still gets engine.io's path (broadcast-frames.ts): `backedUp` answers for a
// socket corked here from what it was already waiting to send when the batch began, not from the
// batch's own frames, which the hold itself keeps back.
import type { Socket as NetSocket } from 'node:net';
import type { Server } from 'socket.io';

/** What an engine.io connection exposes that this needs (its first request and transport). */
interface EngineSocket {
  upgraded?: boolean;
  transport: { name: string };
  request: { socket?: NetSocket };
}

/** How long after a batch was sent the next one is held back at most (above). */
export const HOLD_MS = 10;

/** Corks sockets and sends what each was written in one write, together (above). */
export interface WriteBatcher {
  /** Corks `socket` until this batch is sent (once per batch, however often it is asked). */
  cork(socket: NetSocket): void;
  /** Whether `socket`'s reader is behind: its writers should wait for 'drain' rather than add to it. */
  backedUp(socket: NetSocket): boolean;
}

/** A batcher: sockets it corks are uncorked together at the end of the turn, or HOLD_MS after the last batch. */
export function writeBatcher(holdMs = HOLD_MS, now: () => number = () => performance.now()): WriteBatcher {
  /** Each corked socket, with the bytes it was already waiting to send when corked. */
  const corked = new Map<NetSocket, number>();
  let sentAt = -Infinity;
  const uncorkAll = () => {
    sentAt = now();
    for (const s of corked.keys()) s.uncork();
    corked.clear();
  };
  return {
    cork(socket) {
      if (socket.destroyed || corked.has(socket)) return;
      if (corked.size === 0) {
        const wait = sentAt + holdMs - now();
        if (wait > 0) setTimeout(uncorkAll, wait);
        else setImmediate(uncorkAll);
      }
      corked.set(socket, socket.writableLength);
      socket.cork();
    },
    backedUp(socket) {
      const waiting = corked.get(socket);
      return waiting === undefined ? socket.writableNeedDrain : waiting >= socket.writableHighWaterMark;
    },
  };
}

/** Corks each WebSocket connection of `io` when engine.io flushes to it. */
export function coalesceWrites(io: Server, batcher: WriteBatcher) {
  io.engine.on('flush', (conn: EngineSocket) => {
    // A connection that began as a WebSocket writes to the socket of its upgrade request; one
    // upgraded from long-polling writes elsewhere, and is left to write at once.
    if (conn.upgraded || conn.transport.name !== 'websocket') return;
    const socket = conn.request.socket;
    if (socket) batcher.cork(socket);
  });
}
