// Live updates over socket.io, on the service's own HTTP server (path /socket.io/); one of the two
// transports the hub (hub.ts) delivers to.
//
// Handshake: the client passes its pubsub_token in the handshake `auth`:
//   agent:   { pubsub_token: <user pubsub_token from GET /api/v1/profile>, account_id: <id> }
//   contact: { pubsub_token: <contact inbox pubsub_token from Client contact create or widget config> }
// A bad token, an account the user is not in, or a suspended account refuses the connection
// (connect_error "unauthorized"). Each event arrives as socket.io event <name> with one argument,
// the data payload. Short drops are bridged by socket.io's connection state recovery: a client
// that reconnects within two minutes receives the events it missed, in order, provided its
// credential still holds (see restoreOnlyIfStillAuthorized).
import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { Socket } from 'socket.io';
import type { Db } from '../db/open';
import type { Identity } from './identity';
import { identifyHandshake, roomsOf, sameIdentity } from './identity';
import type { LiveDelivery } from './payloads';
import type { Presence } from './presence';
import { viewingOf } from './presence';
import { broadcastFrameOf, writeBroadcastFramesDirectly } from './broadcast-frames';
import type { RoomWalkingAdapter } from './broadcast-targets';
import { rememberBroadcastTargets } from './broadcast-targets';
import { coalesceWrites, writeBatcher } from './write-coalescing';

export interface SocketIoOptions {
  /** How long a dropped client's missed events are kept for it (default two minutes). */
  recoveryWindowMs?: number;
}

/** The handshake fields `identifyHandshake` reads, kept with the socket's session so a recovery can re-check them. */
const credentialOf = (auth: Record<string, unknown>) => ({ pubsub_token: auth.pubsub_token, account_id: auth.account_id, user_id: auth.user_id });

/**
 * socket.io restores a dropped session (its rooms and data) and writes the events it missed while it
 * creates the socket, before any middleware runs (`skipMiddlewares: false` would still send them,
 * then refuse). So the credential is re-checked where the session is looked up: a session whose
 * credential no longer resolves to the same identity (account suspended, user removed from it,
 * pubsub_token replaced) is not restored, and the reconnect is judged by the handshake middleware
 * like a new connection.
 */
function restoreOnlyIfStillAuthorized(io: Server, db: Db) {
  const adapter = io.of('/').adapter;
  const restore = adapter.restoreSession.bind(adapter);
  adapter.restoreSession = async (pid, offset) => {
    const session = await restore(pid, offset);
    if (!session) return session;
    const data = (session.data ?? {}) as { identity?: Identity; credential?: Record<string, unknown> };
    const again = data.credential && identifyHandshake(db, data.credential);
    if (again && data.identity && sameIdentity(again, data.identity)) return session;
    // No session: typed as always present, but socket.io reads null as "not recoverable", which is
    // what the in-memory adapter itself answers for an expired one.
    return null as unknown as typeof session;
  };
}

/**
 * Presence over socket.io (the `presence` extension; Chatwoot serves presence over ActionCable
 * only): a socket that emits `update_presence` (optionally with `{viewing}`) is marked present and
 * answered with `presence.update`, as RoomChannel answers. A socket that never asks hears nothing new.
 */
function answerPresence(socket: Socket, presence: Presence, viewingChanged: (accountId: number) => void) {
  socket.on('update_presence', (data: unknown) => {
    const who = socket.data.identity as Identity;
    presence.touch(who);
    const viewing = viewingOf(data);
    if (viewing !== undefined && who.kind === 'agent') socket.data.viewer = true;
    const changed = viewing !== undefined && presence.view(socket.id, who, viewing);
    socket.emit('presence.update', presence.report(who, socket.data.viewer === true));
    if (changed) viewingChanged(who.accountId);
  });
  socket.on('disconnect', () => {
    const gone = presence.forget(socket.id);
    if (gone) viewingChanged(gone.accountId);
  });
}

export function attachSocketIo(server: HttpServer, db: Db, options: SocketIoOptions, presence: Presence, viewingChanged: (accountId: number) => void) {
  const io = new Server(server, {
    serveClient: false,
    // Upgrades for other paths (ActionCable's /cable) are the hub's to answer, not engine.io's to cut.
    destroyUpgrade: false,
    connectionStateRecovery: { maxDisconnectionDuration: options.recoveryWindowMs ?? 120_000, skipMiddlewares: true },
  });
  restoreOnlyIfStillAuthorized(io, db);
  const batcher = writeBatcher();
  rememberBroadcastTargets(io.of('/').adapter as unknown as RoomWalkingAdapter, { frameOf: broadcastFrameOf, batcher });
  coalesceWrites(io, batcher);
  writeBroadcastFramesDirectly(io, batcher);
  io.use((socket, next) => {
    const auth = (socket.handshake.auth ?? {}) as Record<string, unknown>;
    const who = identifyHandshake(db, auth);
    if (!who) return next(new Error('unauthorized'));
    socket.data.identity = who;
    socket.data.credential = credentialOf(auth);
    next();
  });
  // Until when a dropped socket may come back for the events it missed (connection state recovery).
  const recoveryWindowMs = options.recoveryWindowMs ?? 120_000;
  let recoverableUntil = 0;
  io.on('connection', (socket) => {
    // A recovered connection already has its rooms back; its credential was re-checked when its
    // session was restored, so it skipped the middleware.
    if (!socket.recovered) void socket.join(roomsOf(socket.data.identity as Identity));
    answerPresence(socket, presence, viewingChanged);
    socket.on('disconnect', () => (recoverableUntil = Date.now() + recoveryWindowMs));
  });
  return {
    io,
    /** A socket is connected, or one that dropped may still recover and be sent what it missed. */
    mayReceive: () => io.of('/').sockets.size > 0 || Date.now() <= recoverableUntil,
    deliver(delivery: LiveDelivery) {
      const target = delivery.except.length ? io.to(delivery.to).except(delivery.except) : io.to(delivery.to);
      target.emit(delivery.name, delivery.data);
    },
    /** Someone's open conversation changed: each socket of the account that asked for `viewing` gets its report again. */
    reportViewers(accountId: number) {
      for (const socket of io.of('/').sockets.values()) {
        const who = socket.data.identity as Identity | undefined;
        if (socket.data.viewer === true && who?.accountId === accountId) socket.emit('presence.update', presence.report(who, true));
      }
    },
    /** Disconnects every client so the HTTP server can close. */
    close() {
      io.disconnectSockets(true);
      io.engine.close();
    },
  };
}
