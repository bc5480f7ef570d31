// Which ActionCable subscriptions listen to which room (the same rooms as socket.io's, rooms.ts),
// and one delivery fanned out to them: each subscription in any `to` room and in no `except` room
// receives it once, in its own envelope (its identifier), as socket.io sends to each socket once.
// Each envelope is encoded once per delivery and identifier (every subscription of one identity
// has the same identifier text, so an agent's tabs share it) and sent as those bytes.
import type { LiveDelivery } from '../payloads';
import { frames } from './protocol';

export interface Subscriber {
  /** The identifier exactly as the client sent it: Rails echoes that text in every envelope. */
  identifier: string;
  send(frame: string | Buffer): void;
}

export class Streams {
  private readonly rooms = new Map<string, Set<Subscriber>>();
  private readonly joined = new Map<Subscriber, string[]>();

  add(sub: Subscriber, rooms: string[]) {
    this.joined.set(sub, rooms);
    for (const room of rooms) {
      let members = this.rooms.get(room);
      if (!members) this.rooms.set(room, (members = new Set()));
      members.add(sub);
    }
  }

  remove(sub: Subscriber) {
    for (const room of this.joined.get(sub) ?? []) {
      const members = this.rooms.get(room);
      members?.delete(sub);
      if (members?.size === 0) this.rooms.delete(room);
    }
    this.joined.delete(sub);
  }

  /** Sends `{event, data}` to the subscribers of the rooms; answers how many got it. */
  deliver(delivery: Pick<LiveDelivery, 'name' | 'data' | 'to' | 'except'>): number {
    const left = new Set(delivery.except.flatMap((room) => [...(this.rooms.get(room) ?? [])]));
    // Encoded once, and only when someone listens (most events reach no ActionCable client while socket.io serves the app).
    let message: string | undefined;
    const envelopes = new Map<string, Buffer>();
    const sent = new Set<Subscriber>();
    for (const room of delivery.to) {
      for (const sub of this.rooms.get(room) ?? []) {
        if (left.has(sub) || sent.has(sub)) continue;
        sent.add(sub);
        message ??= JSON.stringify({ event: delivery.name, data: delivery.data });
        let envelope = envelopes.get(sub.identifier);
        if (!envelope) envelopes.set(sub.identifier, (envelope = Buffer.from(frames.message(sub.identifier, message))));
        sub.send(envelope);
      }
    }
    return sent.size;
  }

  /** Subscriptions listening to a room (tests and the presence of a room's members). */
  in(room: string): Subscriber[] {
    return [...(this.rooms.get(room) ?? [])];
  }
}
