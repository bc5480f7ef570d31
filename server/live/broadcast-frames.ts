// A broadcast's WebSocket frame written straight to each plain WebSocket connection's TCP socket.
//
// socket.io's broadcast encodes an event once, with its WebSocket frame (socket.io-adapter's
// `wsPreEncodedFrame`: header and payload), and then hands it to every socket through engine.io: a
// packet object, the connection's write buffer, its flush events, the transport's send, ws's
// sendFrame (two writes: header, payload) and a completion callback, per socket per event. At 200
// sockets that was 2.5-3 µs of the service's CPU per socket per event against 1.8-2.7 µs for a bare
// TCP write of the frame (bench). Here the frame is joined into one Buffer once per broadcast, and a
// connection whose state allows it gets that Buffer held for its TCP socket, written there with the
// rest of its batch (write-coalescing.ts): the same bytes engine.io would write.
//
// Only where nothing engine.io or ws does could be overtaken or skipped:
// - the engine.io connection is open, not upgrading, on the websocket transport, its write buffer
//   empty and its transport writable: nothing of its own is queued or in flight (a ping, a packet
//   sent to this socket alone, an earlier write waiting for its completion);
// - its WebSocket is OPEN (not closing: no frame may follow a close frame), its TCP socket is
//   writable and not asking writers to wait (`writableNeedDrain`: a slow reader then gets
//   engine.io's path, which holds further packets until each write completes, as before);
// - the packet was pre-encoded (one text frame, no compression) and is not volatile.
// Anything else goes through engine.io, as every packet did before. Before engine.io writes to the
// connection, what is held for it is written (write-coalescing.ts), so a socket's events keep
// their order whichever path each took; the direct path changes no engine.io state (its buffer
// stays empty, its transport writable), so its heartbeat, closing and recovery work as they did. A
// socket gets each broadcast once: socket.io-adapter picks the sockets (every room, without
// duplicates) and calls this once for each.
import type { Socket as NetSocket } from 'node:net';
import type { Server } from 'socket.io';
import type { WriteBatcher } from './write-coalescing';

/** socket.io-adapter's options of a broadcast packet (shared by every socket it goes to). */
export interface PacketOptions {
  volatile?: boolean;
  wsPreEncodedFrame?: Buffer[];
}

/** What the fast path reads of engine.io's connection, its transport and ws (versions pinned in package-lock). */
interface EngineConnection {
  readyState: string;
  upgrading: boolean;
  writeBuffer: unknown[];
  transport: { name: string; writable: boolean; perMessageDeflate?: unknown; socket?: { readyState: number; _socket?: NetSocket } };
}

interface SocketIoClient {
  conn: EngineConnection;
  writeToEngine(encodedPackets: unknown, opts: PacketOptions): void;
}

const WS_OPEN = 1;

/** The WebSocket and its TCP socket to write a broadcast frame to directly, or undefined: engine.io's path. */
function directSocket(conn: EngineConnection) {
  if (conn.readyState !== 'open' || conn.upgrading || conn.writeBuffer.length !== 0) return undefined;
  const transport = conn.transport;
  if (transport.name !== 'websocket' || !transport.writable || transport.perMessageDeflate) return undefined;
  const ws = transport.socket;
  if (ws?.readyState !== WS_OPEN) return undefined;
  const tcp = ws._socket;
  if (!tcp || tcp.destroyed || !tcp.writable || tcp.writableNeedDrain) return undefined;
  return { ws, tcp };
}

/** Each broadcast's frame as one Buffer, made once for all its sockets (the list is the broadcast's own). */
const frames = new WeakMap<Buffer[], Buffer>();
function frameOf(list: Buffer[]): Buffer {
  let frame = frames.get(list);
  if (!frame) frames.set(list, (frame = list.length === 1 ? list[0]! : Buffer.concat(list)));
  return frame;
}

/** The frame a broadcast with these options is held as on the direct path, or undefined: engine.io's path for every socket. */
export function broadcastFrameOf(opts: PacketOptions): Buffer | undefined {
  return opts.volatile || !opts.wsPreEncodedFrame ? undefined : frameOf(opts.wsPreEncodedFrame);
}

/** Every connection of `io`'s main namespace writes broadcast frames directly where it can (above). */
export function writeBroadcastFramesDirectly(io: Server, batcher: WriteBatcher) {
  io.on('connection', (socket) => {
    const client = socket.client as unknown as SocketIoClient;
    const viaEngine = client.writeToEngine.bind(client);
    client.writeToEngine = (encodedPackets, opts) => {
      const frame = broadcastFrameOf(opts);
      const direct = frame && directSocket(client.conn);
      if (!direct) return viaEngine(encodedPackets, opts);
      batcher.hold(direct.tcp, frame, direct.ws);
    };
  });
}
