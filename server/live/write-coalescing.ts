// One TCP write per socket per event-loop turn, however many events it is sent in that turn.
//
// socket.io's broadcast encodes an event once and hands the same WebSocket frame to every socket,
// but each socket then writes it at once: one write syscall per socket per event. On loopback that
// syscall also runs the receiver's TCP stack, and it was most of what each listening socket cost a
// message create (bench: 8 µs per socket per event, 200 sockets). Corking the socket's TCP
// connection when engine.io flushes to it (or a broadcast writes its frame directly,
// broadcast-frames.ts; or ActionCable sends, cable/server.ts), and uncorking the lot once the turn's I/O callbacks have run
// (setImmediate), sends every frame written in between in one writev. While a write is pending
// engine.io buffers further packets itself and flushes them together when it completes, so under
// load each socket gets one write per turn. Nothing is held longer than that turn.
import type { Socket as NetSocket } from 'node:net';
import type { Server } from 'socket.io';

/** What an engine.io connection exposes that this needs (its first request and transport). */
interface EngineSocket {
  upgraded?: boolean;
  transport: { name: string };
  request: { socket?: NetSocket };
}

/** Corks `socket` until the end of this event-loop turn (once per turn, however often it is asked). */
export type CorkForTurn = (socket: NetSocket) => void;

/** A corker: sockets it corks are uncorked together once the turn's I/O callbacks have run. */
export function turnCorker(): CorkForTurn {
  const corked = new Set<NetSocket>();
  const uncorkAll = () => {
    for (const s of corked) s.uncork();
    corked.clear();
  };
  return (socket) => {
    if (socket.destroyed || corked.has(socket)) return;
    if (corked.size === 0) setImmediate(uncorkAll);
    socket.cork();
    corked.add(socket);
  };
}

/** Corks each WebSocket connection of `io` when engine.io flushes to it. */
export function coalesceWrites(io: Server, corkForTurn: CorkForTurn) {
  io.engine.on('flush', (conn: EngineSocket) => {
    // A connection that began as a WebSocket writes to the socket of its upgrade request; one
    // upgraded from long-polling writes elsewhere, and is left to write at once.
    if (conn.upgraded || conn.transport.name !== 'websocket') return;
    const socket = conn.request.socket;
    if (socket) corkForTurn(socket);
  });
}
