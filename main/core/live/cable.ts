// One ActionCable connection to a service's /cable (real Chatwoot, or ours with socket.io turned
// off), subscribed to RoomChannel with the session's credential (chatwoot-compat §4.1). A small
// client of our own rather than @rails/actioncable: that one is written for a browser (it calls
// `addEventListener` as a global, takes its WebSocket class and timing from module-wide settings,
// reconnects on a fixed stale-ping schedule of its own and says nothing when a first connection
// fails), while main needs per-connection timers it can test, its own backoff, and to hear every
// failure. The official client is the yardstick in tests/server/actioncable-events.test.ts.
//
// This module opens once and reports; the owner (connection.ts) decides about reconnecting. Every
// ActionCable reconnect starts a new subscription: nothing missed is replayed, so `connected`
// always says `recovered: false` and the owner's catch-up follows.
import { WebSocket } from 'ws';
import type { LiveCredential } from '../session/manager';
import type { LiveSocketHandlers } from './socket';

export interface LiveCableOptions {
  /** No frame for this long (Rails pings every 3 s): the connection is dead; Rails' client waits 6 s. */
  staleMs: number;
  /** `update_presence` while subscribed, as Chatwoot's dashboard does (every 20 s). */
  presenceIntervalMs: number;
  /** Chatwoot never answers a subscription whose token it cannot find: silence this long counts as a refusal. */
  subscribeTimeoutMs: number;
  timer(ms: number, onFire: () => void): () => void;
  /**
   * What `update_presence` carries besides the action (the presence extension's `viewing`, where the
   * service offers it); nothing, as Chatwoot's dashboard sends, otherwise.
   */
  presence?: () => Record<string, unknown> | undefined;
}

export const defaultCableTimings = { staleMs: 6_000, presenceIntervalMs: 20_000, subscribeTimeoutMs: 10_000 };

export type ConnectCable = (url: string, protocols: string[]) => WebSocket;

const PROTOCOL = 'actioncable-v1-json';
/** As Rails' client offers them: a server answering the second says "this client is too old, stop". */
const PROTOCOLS = [PROTOCOL, 'actioncable-unsupported'];
/** Pushes are small; a conversation payload with a long message stays far below this. */
const MAX_FRAME_BYTES = 8 * 1024 * 1024;

const defaultConnect: ConnectCable = (url, protocols) => new WebSocket(url, protocols, { maxPayload: MAX_FRAME_BYTES, handshakeTimeout: 15_000, perMessageDeflate: false });

/** ws(s)://host/<the service's path prefix>/cable for a base URL. */
export function cableAddress(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/cable`;
  url.search = '';
  url.hash = '';
  return url.toString();
}

type Frame = { type?: unknown; identifier?: unknown; message?: unknown; reconnect?: unknown };

function parseFrame(data: WebSocket.RawData, isBinary: boolean): Frame | undefined {
  if (isBinary) return undefined;
  try {
    const frame: unknown = JSON.parse(data.toString());
    return typeof frame === 'object' && frame !== null && !Array.isArray(frame) ? (frame as Frame) : undefined;
  } catch {
    return undefined;
  }
}

export function openLiveCable(cred: LiveCredential, handlers: LiveSocketHandlers, options: LiveCableOptions, connect: ConnectCable = defaultConnect) {
  // The pubsub_token travels only inside this frame's identifier: never in the URL, never logged.
  const identifier = JSON.stringify({ channel: 'RoomChannel', pubsub_token: cred.pubsubToken, account_id: cred.accountId, user_id: cred.userId });
  const ws = connect(cableAddress(cred.baseUrl), PROTOCOLS);
  let done = false;
  let subscribed = false;
  const timers = { stale: undefined as (() => void) | undefined, subscribe: undefined as (() => void) | undefined, presence: undefined as (() => void) | undefined };
  const cancel = (name: keyof typeof timers) => {
    timers[name]?.();
    timers[name] = undefined;
  };
  const send = (command: Record<string, unknown>) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(command));
  };

  /** Ends this connection once, telling the owner why (nothing after close()). */
  function finish(outcome: 'dropped' | 'refused' | 'closed') {
    if (done) return;
    done = true;
    for (const name of Object.keys(timers) as (keyof typeof timers)[]) cancel(name);
    ws.removeAllListeners('message');
    ws.on('error', () => undefined);
    if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN) ws.terminate();
    if (outcome === 'dropped') handlers.dropped();
    if (outcome === 'refused') handlers.refused();
  }
  const expectLife = () => {
    cancel('stale');
    timers.stale = options.timer(options.staleMs, () => finish('dropped'));
  };
  const updatePresence = () => send({ command: 'message', identifier, data: JSON.stringify({ action: 'update_presence', ...(options.presence?.() ?? {}) }) });
  const heartbeat = () => {
    timers.presence = options.timer(options.presenceIntervalMs, () => {
      updatePresence();
      heartbeat();
    });
  };

  function onFrame(frame: Frame) {
    expectLife();
    switch (frame.type) {
      case 'welcome':
        // Also after a server-side restart of the same socket: subscribe (again).
        subscribed = false;
        send({ command: 'subscribe', identifier });
        cancel('subscribe');
        timers.subscribe = options.timer(options.subscribeTimeoutMs, () => finish('refused'));
        return;
      case 'ping':
        return;
      case 'disconnect':
        // `reconnect: false` is Rails' refusal of the connection itself (unauthorized).
        return finish(frame.reconnect === false ? 'refused' : 'dropped');
      case 'confirm_subscription':
        if (frame.identifier !== identifier || subscribed) return;
        subscribed = true;
        cancel('subscribe');
        heartbeat();
        // The subscription itself reported presence; what this connection views is said at once.
        if (options.presence?.()) updatePresence();
        return handlers.connected(false);
      case 'reject_subscription':
        return frame.identifier === identifier ? finish('refused') : undefined;
    }
    if (!subscribed || frame.identifier !== identifier || typeof frame.message !== 'object' || frame.message === null) return;
    const { event, data } = frame.message as { event?: unknown; data?: unknown };
    if (typeof event === 'string') handlers.event(event, data);
  }

  ws.on('open', () => {
    // A server that chose no protocol, or `actioncable-unsupported`, does not speak ours.
    if (ws.protocol !== PROTOCOL) return finish('dropped');
    expectLife();
  });
  ws.on('message', (data, isBinary) => {
    const frame = parseFrame(data, isBinary);
    if (frame) onFrame(frame);
  });
  ws.on('close', () => finish('dropped'));
  // The close event follows every error; an error alone says nothing more (and must not throw).
  ws.on('error', () => undefined);

  return {
    close: () => finish('closed'),
    /** Presence now (what is viewed changed), once subscribed. */
    updatePresence: () => subscribed && !done && updatePresence(),
  };
}
export type LiveCable = ReturnType<typeof openLiveCable>;
