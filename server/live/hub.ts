// Live updates: one listener on the event bus turns each domain event into one delivery (who
// receives what, payloads.ts and rooms.ts) and hands it to every transport the service offers:
// socket.io (socket-server.ts; on unless turned off) and ActionCable (cable/; always on, as real
// Chatwoot offers it). Both judge credentials with the same rules (identity.ts), so a client gets
// the same events over either. The hub also owns the HTTP server's WebSocket upgrades: /cable here,
// /socket.io/ to engine.io, anything else refused at once.
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Db } from '../db/open';
import type { EventBus } from '../events/bus';
import { createCableServer } from './cable/server';
import { CABLE_PATHS } from './cable/protocol';
import type { LiveDelivery } from './payloads';
import { liveDelivery } from './payloads';
import type { SocketIoOptions } from './socket-server';
import { attachSocketIo } from './socket-server';

export interface LiveOptions extends SocketIoOptions {
  /** false: no socket.io, only ActionCable, as a real Chatwoot installation (`--no-socketio`). */
  socketIo?: boolean;
}

const pathOf = (url: string | undefined) => (url ?? '').split('?', 1)[0]!;

export function attachLiveUpdates(server: HttpServer, db: Db, bus: EventBus, clock: () => number, options: LiveOptions = {}) {
  const socketIo = options.socketIo === false ? undefined : attachSocketIo(server, db, options);
  const cable = createCableServer(db, clock);
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = pathOf(request.url);
    if (CABLE_PATHS.has(path)) return cable.handleUpgrade(request, socket, head);
    if (socketIo && path.startsWith('/socket.io/')) return; // engine.io's own upgrade listener takes it
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  };
  server.on('upgrade', onUpgrade);
  /** Every transport gets the same delivery, computed once. */
  const deliver = (delivery: LiveDelivery) => {
    socketIo?.deliver(delivery);
    cable.deliver(delivery);
  };
  const unsubscribe = bus.on((event) => {
    // With no client connected on either transport and none that may still recover, nobody can
    // ever receive this event: its payload (several queries) is not built.
    if (!socketIo?.mayReceive() && !cable.mayReceive()) return;
    const delivery = liveDelivery(db, event);
    if (delivery?.to.length) deliver(delivery);
  });
  return {
    /** The socket.io server, unless turned off. */
    io: socketIo?.io,
    cable,
    deliver,
    /** Disconnects every client so the HTTP server can close. */
    close() {
      unsubscribe();
      server.off('upgrade', onUpgrade);
      socketIo?.close();
      cable.close();
    },
  };
}
export type LiveUpdates = ReturnType<typeof attachLiveUpdates>;
