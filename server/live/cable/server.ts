// Live updates over ActionCable at /cable, as real Chatwoot serves them (chatwoot-compat §4), on
// the service's HTTP server beside socket.io; the hub (../hub.ts) routes the upgrade here and hands
// over every delivery. One channel, RoomChannel (room-channel.ts). What happens on the wire is
// Rails' (protocol.ts): `welcome` on connect, a `ping` every 3 s, `subscribe` answered by
// `confirm_subscription` or `reject_subscription`, broadcasts as `{identifier, message}`,
// `unsubscribe` and malformed commands answered by nothing, and a `disconnect` frame
// (`server_restart`, reconnect true) when the service shuts down.
//
// Origin: any is accepted, as Chatwoot configures Rails (`disable_request_forgery_protection`); see
// server/README "Live updates over ActionCable" for why that is no weaker than a check here.
import type { IncomingMessage } from 'node:http';
import type { Socket as NetSocket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Db } from '../../db/open';
import type { LiveDelivery } from '../payloads';
import type { Presence } from '../presence';
import type { Command } from './protocol';
import { BEAT_INTERVAL_MS, frames, parseCommand, selectProtocol } from './protocol';
import type { CableConnection } from './room-channel';
import { RoomChannel } from './room-channel';
import { Streams } from './streams';
import { writeBatcher } from '../write-coalescing';

/** Commands are a few hundred bytes; a bigger frame closes the connection (1009), as socket.io's 1 MB limit would. */
const MAX_FRAME_BYTES = 64 * 1024;

/** Frames are JSON text: a Buffer (an envelope encoded once for many subscriptions) is sent as a text frame too. */
const TEXT = { binary: false };

/** The TCP socket under a ws connection (ws keeps it as `_socket`; ws is pinned in package-lock). */
const tcpOf = (ws: WebSocket) => (ws as unknown as { _socket?: NetSocket })._socket;

export function createCableServer(db: Db, clock: () => number, presence: Presence, viewingChanged: (accountId: number) => void) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, handleProtocols: selectProtocol, perMessageDeflate: false });
  const streams = new Streams();
  const channel = new RoomChannel(db, streams, presence, viewingChanged);
  const open = new Set<WebSocket>();
  // A connection's frames of one batch leave in one TCP write (write-coalescing.ts), as socket.io's do.
  const batcher = writeBatcher();

  function accept(ws: WebSocket) {
    const connection: CableConnection = {
      send: (frame) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        const tcp = tcpOf(ws);
        if (tcp) batcher.cork(tcp);
        ws.send(frame, TEXT);
      },
    };
    const subscriptions = channel.connection(connection);
    open.add(ws);
    ws.on('message', (raw, isBinary) => {
      const command: Command | undefined = isBinary ? undefined : parseCommand(raw.toString());
      if (command) subscriptions.execute(command);
    });
    ws.on('close', () => {
      open.delete(ws);
      subscriptions.unsubscribeAll();
    });
    // A protocol error (an oversized frame) closes the socket; the close handler cleans up.
    ws.on('error', () => undefined);
    connection.send(frames.welcome());
  }

  const beat = setInterval(() => {
    const ping = frames.ping(Math.floor(clock() / 1000));
    for (const ws of open) if (ws.readyState === WebSocket.OPEN) ws.send(ping);
  }, BEAT_INTERVAL_MS);
  beat.unref();

  return {
    handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
      wss.handleUpgrade(request, socket, head, accept);
    },
    /** A client is connected (ActionCable keeps nothing for one that dropped). */
    mayReceive: () => open.size > 0,
    deliver: (delivery: Pick<LiveDelivery, 'name' | 'data' | 'to' | 'except'>) => streams.deliver(delivery),
    /** Someone's open conversation changed: subscriptions of the account that asked for `viewing` get their report again. */
    reportViewers: (accountId: number) => channel.reportViewers(accountId),
    /** Subscriptions listening to a room (rooms.ts). */
    subscribersOf: (room: string) => streams.in(room).length,
    /** Tells every client the server is restarting (Rails' `server_restart`, reconnect allowed) and closes. */
    close() {
      clearInterval(beat);
      for (const ws of open) {
        if (ws.readyState === WebSocket.OPEN) ws.send(frames.disconnect('server_restart', true));
        ws.close();
      }
      wss.close();
    },
  };
}
export type CableServer = ReturnType<typeof createCableServer>;
