// The official ActionCable client (@rails/actioncable, what Chatwoot's dashboard and widget use),
// run in Node against the service's /cable. It is written for browsers; in Node it needs:
//   - a WebSocket class: `adapters.WebSocket` set to the `ws` package's (Node 20 has no global one);
//   - `addEventListener` / `removeEventListener` as globals: its ConnectionMonitor calls them bare
//     (for `visibilitychange`) on every start and stop; no-ops here, as no page becomes visible;
//   - a ws:// URL: given one, it never reads `document` (only to resolve a relative or http URL).
// Nothing else: timers and JSON are Node's. Every received envelope is recorded; `next` waits for
// the next matching one.
import { adapters, createConsumer } from '@rails/actioncable';
import type { Consumer } from '@rails/actioncable';
import { WebSocket } from 'ws';

adapters.WebSocket = WebSocket as unknown as typeof adapters.WebSocket;
for (const name of ['addEventListener', 'removeEventListener'] as const) {
  if (typeof (globalThis as Record<string, unknown>)[name] !== 'function') Object.assign(globalThis, { [name]: () => undefined });
}

export interface CableEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface OfficialSubscription {
  received: CableEvent[];
  next(event: string, match?: (data: Record<string, unknown>) => boolean): Promise<CableEvent>;
  perform(action: string): void;
  consumer: Consumer;
  close(): void;
}

export const cableUrl = (baseUrl: string) => `${baseUrl.replace(/^http/, 'ws')}/cable`;

/**
 * A new consumer (one WebSocket) subscribed to RoomChannel with these params; resolves once
 * confirmed, rejects with 'rejected' on `reject_subscription`.
 */
export function subscribeRoom(baseUrl: string, params: Record<string, unknown>): Promise<OfficialSubscription> {
  const consumer = createConsumer(cableUrl(baseUrl));
  const received: CableEvent[] = [];
  const waiters: { event: string; match: (d: Record<string, unknown>) => boolean; resolve: (e: CableEvent) => void }[] = [];
  return new Promise((resolve, reject) => {
    const subscription = consumer.subscriptions.create(
      { channel: 'RoomChannel', ...params },
      {
        connected: () => resolve(api),
        rejected: () => {
          consumer.disconnect();
          reject(new Error('rejected'));
        },
        received: (message: CableEvent) => {
          received.push(message);
          for (const w of [...waiters]) {
            if (w.event !== message.event || !w.match(message.data)) continue;
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(message);
          }
        },
      },
    );
    const api: OfficialSubscription = {
      received,
      consumer,
      next: (event, match = () => true) => new Promise((done) => waiters.push({ event, match, resolve: done })),
      perform: (action) => void subscription.perform(action),
      close: () => consumer.disconnect(),
    };
  });
}
