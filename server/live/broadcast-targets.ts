// Who a broadcast reaches, worked out once per set of rooms and remembered until a socket joins or
// leaves a room.
//
// socket.io-adapter works out a broadcast's sockets anew for every event: it builds a set of the
// excluded sockets, then walks each room's members with two set lookups, a map lookup and a set
// insert per socket (to skip a socket in two of the rooms). With 200 agent sockets that walk was
// the largest part of the service's own JavaScript per socket per event (a CPU profile of the
// bench's run with sockets: `apply` 9% of the service's samples, second only to the kernel's
// `writev`). A room's members change only when a socket joins or leaves it (a connection, a
// disconnection, a recovered session), and the adapter announces each of those, so the walk's
// answer is kept until then.
//
// Same sockets, in the same order, as the walk would give at that moment: the list is the walk's own
// answer, dropped at the first join or leave, and a socket is still skipped unless the namespace
// holds it (the walk's own check). Broadcasts that leave sockets out (`except`: a typer never
// hears itself) and those to no room walk as before. Memory: one list per set of rooms a broadcast
// went to since the last join or leave, at most MAX_REMEMBERED of them.
import type { Socket } from 'socket.io';

/** What this reads and replaces of socket.io-adapter's in-memory adapter (version pinned in package-lock). */
export interface RoomWalkingAdapter {
  apply(opts: { rooms: Set<string>; except?: Set<string> }, callback: (socket: Socket) => void): void;
  on(event: 'join-room' | 'leave-room', listener: () => void): unknown;
  nsp: { sockets: Map<string, Socket> };
}

/** Sets of rooms remembered at once; past it they are all forgotten (conversation rooms vary per message). */
export const MAX_REMEMBERED = 256;

/** Makes `adapter` remember each set of rooms' sockets until a socket joins or leaves a room. */
export function rememberBroadcastTargets(adapter: RoomWalkingAdapter): void {
  const walk = adapter.apply.bind(adapter);
  const remembered = new Map<string, Socket[]>();
  const forget = () => remembered.clear();
  adapter.on('join-room', forget);
  adapter.on('leave-room', forget);
  adapter.apply = (opts, callback) => {
    if (opts.rooms.size === 0 || (opts.except !== undefined && opts.except.size > 0)) return walk(opts, callback);
    // Room names are ours (rooms.ts) and the socket ids socket.io makes: neither holds a NUL.
    const key = [...opts.rooms].join('\u0000');
    let targets = remembered.get(key);
    if (!targets) {
      const found: Socket[] = [];
      walk(opts, (socket) => found.push(socket));
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(key, (targets = found));
    }
    const sockets = adapter.nsp.sockets;
    for (const socket of targets) if (sockets.get(socket.id) === socket) callback(socket);
  };
}
