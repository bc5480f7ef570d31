// Live updates over socket.io, on the service's own HTTP server (path /socket.io/).
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
import { stmt } from '../db/open';
import type { EventBus } from '../events/bus';
import { liveDelivery } from './payloads';
import { rooms } from './rooms';

export interface LiveOptions {
  /** How long a dropped client's missed events are kept for it (default two minutes). */
  recoveryWindowMs?: number;
}

type Identity = { kind: 'agent'; userId: number; accountId: number } | { kind: 'contact'; contactInboxId: number; contactId: number };

const isToken = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 256;

/** Resolves the handshake; undefined refuses the connection. */
export function identify(db: Db, auth: Record<string, unknown>): Identity | undefined {
  const token = auth.pubsub_token;
  if (!isToken(token)) return undefined;
  if (auth.account_id !== undefined && auth.account_id !== null) {
    const accountId = Number(auth.account_id);
    if (!Number.isSafeInteger(accountId) || accountId <= 0) return undefined;
    const row = stmt(
      db,
      `SELECT u.id FROM users u JOIN account_users au ON au.user_id = u.id JOIN accounts a ON a.id = au.account_id
       WHERE u.pubsub_token = ? AND au.account_id = ? AND a.status = 'active'`,
    ).get(token, accountId) as { id: number } | undefined;
    if (!row) return undefined;
    // The reference client also sends user_id; when present it must agree.
    if (auth.user_id !== undefined && Number(auth.user_id) !== row.id) return undefined;
    return { kind: 'agent', userId: row.id, accountId };
  }
  const ci = stmt(
    db,
    `SELECT ci.id, ci.contact_id FROM contact_inboxes ci JOIN inboxes i ON i.id = ci.inbox_id JOIN accounts a ON a.id = i.account_id
     WHERE ci.pubsub_token = ? AND a.status = 'active'`,
  ).get(token) as { id: number; contact_id: number } | undefined;
  return ci ? { kind: 'contact', contactInboxId: ci.id, contactId: ci.contact_id } : undefined;
}

/** The handshake fields `identify` reads, kept with the socket's session so a recovery can re-check them. */
const credentialOf = (auth: Record<string, unknown>) => ({ pubsub_token: auth.pubsub_token, account_id: auth.account_id, user_id: auth.user_id });

const sameIdentity = (a: Identity, b: Identity) =>
  a.kind === 'agent'
    ? b.kind === 'agent' && a.userId === b.userId && a.accountId === b.accountId
    : b.kind === 'contact' && a.contactInboxId === b.contactInboxId && a.contactId === b.contactId;

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
    const again = data.credential && identify(db, data.credential);
    if (again && data.identity && sameIdentity(again, data.identity)) return session;
    // No session: typed as always present, but socket.io reads null as "not recoverable", which is
    // what the in-memory adapter itself answers for an expired one.
    return null as unknown as typeof session;
  };
}

function joinRooms(socket: Socket, who: Identity) {
  if (who.kind === 'agent') void socket.join([rooms.agent(who.accountId, who.userId), rooms.user(who.userId), rooms.account(who.accountId)]);
  else void socket.join([rooms.contactInbox(who.contactInboxId), rooms.contact(who.contactId)]);
}

export function attachLiveUpdates(server: HttpServer, db: Db, bus: EventBus, options: LiveOptions = {}) {
  const io = new Server(server, {
    serveClient: false,
    connectionStateRecovery: { maxDisconnectionDuration: options.recoveryWindowMs ?? 120_000, skipMiddlewares: true },
  });
  restoreOnlyIfStillAuthorized(io, db);
  io.use((socket, next) => {
    const auth = (socket.handshake.auth ?? {}) as Record<string, unknown>;
    const who = identify(db, auth);
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
    if (!socket.recovered) joinRooms(socket, socket.data.identity as Identity);
    socket.on('disconnect', () => (recoverableUntil = Date.now() + recoveryWindowMs));
  });
  const unsubscribe = bus.on((event) => {
    // With no socket connected and none that may still recover, nobody can ever receive this
    // event: its payload (several queries) is not built.
    if (io.of('/').sockets.size === 0 && Date.now() > recoverableUntil) return;
    const delivery = liveDelivery(db, event);
    if (!delivery || !delivery.to.length) return;
    const target = delivery.except.length ? io.to(delivery.to).except(delivery.except) : io.to(delivery.to);
    target.emit(delivery.name, delivery.data);
  });
  return {
    io,
    /** Disconnects every client so the HTTP server can close. */
    close() {
      unsubscribe();
      io.disconnectSockets(true);
      io.engine.close();
    },
  };
}
