// One TCP write per socket per batch of events, however many events it is sent in that batch.
//
// socket.io's broadcast encodes an event once and hands the same WebSocket frame to every socket,
// but each socket then writes it at once: one write syscall per socket per event. On loopback that
// syscall also runs the receiver's TCP stack, and it was most of what each listening socket cost a
// message create (bench: 8 µs per socket per event, 200 sockets). Here a socket's writes of a batch
// leave together: engine.io's (corked when engine.io flushes to the connection, uncorked with the
// batch; ActionCable's sends too, cable/server.ts), and a broadcast's frames written directly
// (broadcast-frames.ts), which are held here and written as one Buffer when the batch is sent.
//
// When: a batch is sent once the turn's I/O callbacks have run (setImmediate), so an event after a
// quiet spell leaves at once, as before. A batch that begins less than HOLD_MS after the last one
// was sent is held until HOLD_MS after it: under a steady stream of events each socket gets at most
// one write per HOLD_MS, whatever the rate. Much of a write's cost is per write (the syscall,
// loopback's TCP on both sides; bench fanout floor, an 840-byte event to 200 sockets: about 2.9 µs
// per socket per event written alone, 0.8 with 4 events a write, 0.35 with 16), and at ~2,700
// creates a second one turn gathered only a few. An event waits at most HOLD_MS for it, well under
// a frame and against live's budget of 250 ms (bench/README).
//
// Held frames: sockets that were sent the same frames in the same order (every agent of an account
// hears every message) share one Buffer of them, joined once (Sequence). Written one by one into a
// corked socket, each frame had cost a stream write of its own (fanout floor: 0.37-0.41 µs per
// socket per event with 16 corked writes a socket, 0.21-0.29 with one write of the 16 joined).
// Nothing else written to the socket may overtake what is held: engine.io's packets release it
// first (coalesceWrites: engine.io announces each write to a connection with 'flush'), and the
// direct path is taken only while engine.io has nothing of its own queued (broadcast-frames.ts).
// What is held for a connection that has begun closing when the batch is sent is dropped: no frame
// may follow a close frame (socket.io's connection state recovery sends it again on a reconnect).
//
// Cohorts: sockets that hold the same frames (the same node) and hear a room's broadcasts together
// (broadcast-targets.ts) are held as one, and a broadcast to that room moves the cohort's node once
// instead of each member's (bench: the per-socket work of each event was the largest part of what
// 200 listening sockets cost a create). A cohort lives for one batch. Anything held for one of its
// members alone (`hold`), or written for it (`release`: engine.io is about to write), first gives
// every member its own copy of the cohort's node, and the cohort is over; the rest of the batch goes
// socket by socket, as before.
import type { Socket as NetSocket } from 'node:net';
import type { Server } from 'socket.io';

/** How long after a batch was sent the next one is held back at most (above). */
export const HOLD_MS = 10;

/** A WebSocket's state, read when the frames held for it are sent (1: open). */
export interface FrameTarget {
  readyState: number;
}
const OPEN = 1;

/**
 * The frames held in one batch as a tree of sequences: a node stands for the frames on the path to
 * it, so sockets sent the same frames in the same order share a node, and its frames are joined
 * into one Buffer once for all of them.
 */
class Sequence {
  private next?: Sequence;
  private others?: Map<Buffer, Sequence>;
  private joined?: Buffer;

  constructor(
    private readonly frame?: Buffer,
    private readonly before?: Sequence,
  ) {}

  then(frame: Buffer): Sequence {
    if (this.next?.frame === frame) return this.next;
    if (!this.next) return (this.next = new Sequence(frame, this));
    let other = (this.others ??= new Map()).get(frame);
    if (!other) this.others.set(frame, (other = new Sequence(frame, this)));
    return other;
  }

  bytes(): Buffer {
    if (!this.joined) {
      const frames: Buffer[] = this.frame ? [this.frame] : [];
      for (let s = this.before; s?.frame; s = s.before) frames.push(s.frame);
      frames.reverse();
      this.joined = frames.length === 1 ? frames[0]! : Buffer.concat(frames);
    }
    return this.joined;
  }
}

/** What an ended cohort points to, so it keeps none of its frames (never held to). */
const SPENT = new Sequence();

interface Held {
  sequence: Sequence;
  target: FrameTarget;
  /** Held with others as one (its frames are the cohort's node), until the cohort is over. */
  cohort?: Cohort;
}

/** Sockets holding the same frames, moved as one (above). */
export interface Cohort {
  node: Sequence;
  members: Held[];
  /** Dissolved, or its batch was sent. */
  over: boolean;
}

/** Corks sockets and holds frames for them, and sends each socket's batch in one write, together (above). */
export interface WriteBatcher {
  /** Corks `socket` until this batch is sent (once per batch, however often it is asked). */
  cork(socket: NetSocket): void;
  /** Holds `frame` for `socket` until this batch is sent; written then if `target` is still open. */
  hold(socket: NetSocket, frame: Buffer, target: FrameTarget): void;
  /** Writes what is held for `socket` now: before what another writer is about to write to it. */
  release(socket: NetSocket): void;
  /** Starts noting what `hold` holds, for `formCohort`. */
  noteHolds(): void;
  /**
   * Stops noting; if `expected` holds were noted, all now on the same frames and none in a cohort,
   * they become one cohort for the rest of this batch (answered), else nothing (undefined).
   */
  formCohort(expected: number): Cohort | undefined;
  /** Holds `frame` for every member of `cohort` at once; false if the cohort is over (nothing held). */
  holdForCohort(cohort: Cohort | undefined, frame: Buffer): boolean;
}

/** A batcher: each batch is sent at the end of its turn, or HOLD_MS after the last one (above). */
export function writeBatcher(holdMs = HOLD_MS, now: () => number = () => performance.now()): WriteBatcher {
  const corked = new Set<NetSocket>();
  const held = new Map<NetSocket, Held>();
  let root = new Sequence();
  let sentAt = -Infinity;
  /** The cohorts of this batch: each dissolved, if not before, when it is sent. */
  let formed: Cohort[] = [];
  /** The holds noted for `formCohort`, while noting. */
  let noted: Held[] | undefined;
  /**
   * Every member gets the cohort's frames as its own: what it is held next is its own. The cohort
   * lets its frames and members go (a room keeps its last cohort until its next broadcast).
   */
  const dissolve = (cohort: Cohort) => {
    if (cohort.over) return;
    cohort.over = true;
    for (const m of cohort.members) {
      m.sequence = cohort.node;
      m.cohort = undefined;
    }
    cohort.members = [];
    cohort.node = SPENT;
  };
  /** A send is scheduled (its batch may be empty by then: `release` takes a socket's frames out). */
  let scheduled = false;
  /** Writes what is held for `socket` (a member's cohort is dissolved before: its frames are its own). */
  const write = (socket: NetSocket, h: Held) => {
    if (h.target.readyState === OPEN && !socket.destroyed && socket.writable) socket.write(h.sequence.bytes());
  };
  const send = () => {
    scheduled = false;
    sentAt = now();
    // Each member holds the cohort's frames as its own, and the cohorts let their frames go.
    for (const cohort of formed) dissolve(cohort);
    formed = [];
    // The batch is taken out first: whatever its writes call back, or throw, the next batch starts clean.
    const holding = [...held];
    const uncorking = [...corked];
    held.clear();
    corked.clear();
    root = new Sequence();
    for (const [socket, h] of holding) write(socket, h);
    for (const s of uncorking) s.uncork();
  };
  /** The batch begins: it is sent at the end of this turn, or when the hold since the last is over. */
  const begin = () => {
    if (scheduled) return;
    scheduled = true;
    const wait = sentAt + holdMs - now();
    if (wait > 0) setTimeout(send, wait);
    else setImmediate(send);
  };
  return {
    cork(socket) {
      if (socket.destroyed || corked.has(socket)) return;
      begin();
      socket.cork();
      corked.add(socket);
    },
    hold(socket, frame, target) {
      let h = held.get(socket);
      if (h) {
        if (h.cohort) dissolve(h.cohort);
        h.sequence = h.sequence.then(frame);
      } else {
        begin();
        held.set(socket, (h = { sequence: root.then(frame), target }));
      }
      noted?.push(h);
    },
    release(socket) {
      const h = held.get(socket);
      if (!h) return;
      if (h.cohort) dissolve(h.cohort);
      held.delete(socket);
      write(socket, h);
    },
    noteHolds() {
      noted = [];
    },
    formCohort(expected) {
      const members = noted;
      noted = undefined;
      if (!members || members.length !== expected || expected === 0) return undefined;
      const node = members[0]!.sequence;
      const cohort: Cohort = { node, members, over: false };
      // Every member on the same node, in no other cohort (hold dissolved any it was in), and noted
      // once (one socket held for twice would be held for once as a member).
      for (const m of members) {
        if (m.sequence !== node || m.cohort) {
          for (const x of members) if (x.cohort === cohort) x.cohort = undefined;
          return undefined;
        }
        m.cohort = cohort;
      }
      formed.push(cohort);
      return cohort;
    },
    holdForCohort(cohort, frame) {
      if (!cohort || cohort.over) return false;
      cohort.node = cohort.node.then(frame);
      return true;
    },
  };
}

/** What an engine.io connection exposes that this needs (its first request, its transport and that transport's ws). */
interface EngineSocket {
  upgraded?: boolean;
  transport: { name: string; socket?: { _socket?: NetSocket } };
  request: { socket?: NetSocket };
}

/** Before engine.io writes to a WebSocket connection of `io`: what is held for it goes first, then the connection is corked. */
export function coalesceWrites(io: Server, batcher: WriteBatcher) {
  io.engine.on('flush', (conn: EngineSocket) => {
    if (conn.transport.name !== 'websocket') return;
    const tcp = conn.transport.socket?._socket;
    if (tcp) batcher.release(tcp);
    // A connection that began as a WebSocket writes to the socket of its upgrade request; one
    // upgraded from long-polling writes elsewhere, and is left to write at once.
    if (conn.upgraded) return;
    const socket = conn.request.socket;
    if (socket) batcher.cork(socket);
  });
}
