// Who a broadcast reaches, worked out once per set of rooms and remembered until a socket joins or
// leaves a room; and, where the batcher can, a room's sockets sent a broadcast as one.
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
// Same sockets, in the same order, as the walk would give at that moment: each room's members are
// the walk's own answer for that room, joined in the rooms' order without repeats as the walk joins
// them, dropped at the first join or leave, and a socket is still skipped unless the namespace holds
// it (the walk's own check). Broadcasts that leave sockets out (`except`: a typer never hears
// itself) and those to no room walk as before. Memory: one plan per set of rooms a broadcast went to
// since the last join or leave, at most MAX_REMEMBERED of them (then all forgotten), and each of
// their rooms' members.
//
// Rooms as cohorts (write-coalescing.ts). Even remembered, each socket was still handed each event
// through socket.io and the direct path's checks (broadcast-frames.ts): 200 sockets' objects touched
// per create. When a broadcast's rooms share no socket, its frame goes direct (pre-encoded, not
// volatile, no acknowledgement) and a room's members were all held the last frame together in this
// batch (its cohort), the room's new frame is held once for all of them. Otherwise the room's
// sockets are handed the broadcast one by one, as before, and if every one took the direct path and
// they now hold the same frames, they become the room's cohort for the rest of the batch. Each
// member had passed the direct path's checks; whatever could change that on its connection before
// the batch is sent goes through engine.io's flush, which dissolves the cohort first, or is checked
// again when the batch is written (a connection closing). A socket with outgoing listeners
// (`onAnyOutgoing`, which socket.io calls per socket) never joins one.
import type { Socket } from 'socket.io';
import type { PacketOptions } from './broadcast-frames';
import type { Cohort, WriteBatcher } from './write-coalescing';

/** What this reads and replaces of socket.io-adapter's in-memory adapter (version pinned in package-lock). */
export interface RoomWalkingAdapter {
  apply(opts: { rooms: Set<string>; except?: Set<string> }, callback: (socket: Socket) => void): void;
  _encode(packet: { id?: number }, opts: PacketOptions): unknown;
  on(event: 'join-room' | 'leave-room', listener: () => void): unknown;
  nsp: { sockets: Map<string, Socket> };
}

/** How a broadcast's frame is held for a room's cohort: the frame sockets would be sent directly, and the batcher. */
export interface CohortFanout {
  /** The frame the direct path would hold for each socket, or undefined when it takes engine.io's path. */
  frameOf(opts: PacketOptions): Buffer | undefined;
  batcher: WriteBatcher;
}

/** Sets of rooms remembered at once; past it they are all forgotten (conversation rooms vary per message). */
export const MAX_REMEMBERED = 256;

interface RoomMembers {
  sockets: Socket[];
  cohort?: Cohort;
}

interface Plan {
  rooms: RoomMembers[];
  /** Every socket once, in the walk's order. */
  all: Socket[];
  /** No socket is in two of the rooms. */
  disjoint: boolean;
}

/** Makes `adapter` remember each set of rooms' sockets until a socket joins or leaves a room (above). */
export function rememberBroadcastTargets(adapter: RoomWalkingAdapter, fanout?: CohortFanout): void {
  const walk = adapter.apply.bind(adapter);
  const encode = adapter._encode.bind(adapter);
  const plans = new Map<string, Plan>();
  const members = new Map<string, RoomMembers>();
  const forget = () => {
    plans.clear();
    members.clear();
  };
  adapter.on('join-room', forget);
  adapter.on('leave-room', forget);
  const membersOf = (room: string) => {
    let m = members.get(room);
    if (!m) {
      const sockets: Socket[] = [];
      walk({ rooms: new Set([room]), except: new Set() }, (socket) => sockets.push(socket));
      members.set(room, (m = { sockets }));
    }
    return m;
  };
  const planOf = (rooms: Set<string>) => {
    // Room names are ours (rooms.ts) and the socket ids socket.io makes: neither holds a NUL.
    const key = [...rooms].join('\u0000');
    let plan = plans.get(key);
    if (!plan) {
      if (plans.size >= MAX_REMEMBERED) forget();
      const each = [...rooms].map(membersOf);
      const seen = new Set<string>();
      const all: Socket[] = [];
      for (const m of each) {
        for (const socket of m.sockets) {
          if (seen.has(socket.id)) continue;
          seen.add(socket.id);
          all.push(socket);
        }
      }
      plans.set(key, (plan = { rooms: each, all, disjoint: all.length === each.reduce((n, m) => n + m.sockets.length, 0) }));
    }
    return plan;
  };
  // The broadcast being encoded is the one `apply` is called for next (socket.io-adapter's
  // broadcast encodes, then applies); one with an acknowledgement (an id) is sent socket by socket.
  let encoding: PacketOptions | undefined;
  adapter._encode = (packet, opts) => {
    const encoded = encode(packet, opts);
    encoding = packet.id === undefined ? opts : undefined;
    return encoded;
  };
  adapter.apply = (opts, callback) => {
    const broadcast = encoding;
    encoding = undefined;
    if (opts.rooms.size === 0 || (opts.except !== undefined && opts.except.size > 0)) return walk(opts, callback);
    const plan = planOf(opts.rooms);
    const sockets = adapter.nsp.sockets;
    const frame = broadcast && fanout?.frameOf(broadcast);
    if (!fanout || !frame || !plan.disjoint) {
      for (const socket of plan.all) if (sockets.get(socket.id) === socket) callback(socket);
      return;
    }
    const batcher = fanout.batcher;
    for (const room of plan.rooms) {
      if (batcher.holdForCohort(room.cohort, frame)) continue;
      batcher.noteHolds();
      let handed = 0;
      let quiet = true;
      let done = false;
      try {
        for (const socket of room.sockets) {
          if (sockets.get(socket.id) !== socket) continue;
          callback(socket);
          handed++;
          if (socket.listenersAnyOutgoing().length) quiet = false;
        }
        done = true;
      } finally {
        // Always ends the noting; a room not handed out whole (a throw) forms no cohort.
        room.cohort = batcher.formCohort(done && quiet ? handed : -1);
      }
    }
  };
}
