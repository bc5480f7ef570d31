// Chatwoot's RoomChannel (chatwoot-compat §4.1) over the shared identity rules (../identity.ts):
// a subscription is an agent's (`pubsub_token`, `account_id`, `user_id`) or a contact inbox's
// (`pubsub_token` only), and listens to the same rooms as a socket.io connection of that identity.
// `update_presence` marks it present and reports presence to its own stream only (with `viewing`,
// the presence extension: live/presence.ts).
//
// Deviation: where Chatwoot's `subscribed` raises (unknown token, another account) and so never
// answers, this channel answers `reject_subscription`, Rails' way of refusing, so a client learns
// it was refused instead of waiting.
import type { Db } from '../../db/open';
import type { Identity } from '../identity';
import { identifyRoomChannel, ownRoomOf, roomsOf } from '../identity';
import type { Presence } from '../presence';
import { viewingOf } from '../presence';
import type { Command } from './protocol';
import { frames, identifierParams } from './protocol';
import type { Streams, Subscriber } from './streams';

/** A client needs one subscription; a few more are tolerated, beyond that each is refused. */
const MAX_SUBSCRIPTIONS = 8;

/** Where a connection's frames go (the socket, while open): JSON text, as a string or its UTF-8 bytes. */
export interface CableConnection {
  send(frame: string | Buffer): void;
}

interface Subscription extends Subscriber {
  who: Identity;
  /** Its key in Presence (what it views). */
  key: string;
  /** It sent `viewing` (the presence extension): its reports carry who views what. */
  viewer?: boolean;
}

let subscriptionCount = 0;

export class RoomChannel {
  /** Subscriptions that asked for `viewing`. */
  private readonly viewers = new Set<Subscription>();

  constructor(
    private readonly db: Db,
    private readonly streams: Streams,
    private readonly presence: Presence,
    private readonly viewingChanged: (accountId: number) => void,
  ) {}

  private broadcastPresence(sub: Subscription, data: Record<string, unknown> = {}) {
    const who = sub.who;
    this.presence.touch(who);
    const viewing = viewingOf(data);
    if (viewing !== undefined && who.kind === 'agent') {
      sub.viewer = true;
      this.viewers.add(sub);
    }
    const changed = viewing !== undefined && this.presence.view(sub.key, who, viewing);
    // A viewer's report is its own (what it may see); Chatwoot's goes to the subscriber's own stream.
    if (sub.viewer) sub.send(frames.message(sub.identifier, JSON.stringify({ event: 'presence.update', data: this.presence.report(who, true) })));
    else this.streams.deliver({ name: 'presence.update', data: this.presence.report(who), to: [ownRoomOf(who)], except: [] });
    if (changed) this.viewingChanged(who.accountId);
  }

  reportViewers(accountId: number) {
    for (const sub of this.viewers) {
      if (sub.who.accountId === accountId) sub.send(frames.message(sub.identifier, JSON.stringify({ event: 'presence.update', data: this.presence.report(sub.who, true) })));
    }
  }

  /** The subscriptions of one connection, and the commands its client sends. */
  connection(connection: CableConnection) {
    const subscriptions = new Map<string, Subscription>();
    const subscribe = (identifier: string) => {
      // Rails ignores a second subscribe with the same identifier (clients re-send until confirmed).
      if (subscriptions.has(identifier)) return;
      const params = identifierParams(identifier);
      // Rails answers an unknown channel with nothing (it logs "Subscription class not found").
      if (params.channel !== 'RoomChannel') return;
      const who = subscriptions.size < MAX_SUBSCRIPTIONS ? identifyRoomChannel(this.db, params) : undefined;
      if (!who) return connection.send(frames.reject(identifier));
      const sub: Subscription = { identifier, who, send: connection.send, key: `cable:${++subscriptionCount}` };
      subscriptions.set(identifier, sub);
      this.streams.add(sub, roomsOf(who));
      connection.send(frames.confirm(identifier));
      this.broadcastPresence(sub);
    };
    const unsubscribe = (sub: Subscription | undefined) => {
      if (!sub) return;
      this.streams.remove(sub);
      subscriptions.delete(sub.identifier);
      this.viewers.delete(sub);
      const gone = this.presence.forget(sub.key);
      if (gone) this.viewingChanged(gone.accountId);
    };
    return {
      execute: (command: Command) => {
        if (command.command === 'subscribe') return subscribe(command.identifier);
        const sub = subscriptions.get(command.identifier);
        if (command.command !== 'message') return unsubscribe(sub);
        // `perform`: RoomChannel's one public action; anything else Rails logs as "Unable to process".
        if (sub && command.data.action === 'update_presence') this.broadcastPresence(sub, command.data);
      },
      unsubscribeAll: () => {
        for (const sub of [...subscriptions.values()]) unsubscribe(sub);
      },
    };
  }
}
