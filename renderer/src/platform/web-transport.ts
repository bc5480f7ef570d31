// Web mode's implementation of the bridge: a WebSocket to the local host process that runs the
// main core. The first frame carries the per-launch secret the page was opened with. This is the
// only socket the renderer opens, and it goes to its own origin.
//
// A call that has gone out on a socket that then closes may or may not have run in main, so its
// caller is told (`network`) and it is never resent. A call that has not gone out yet waits for
// the next connection; if it times out first, it is dropped and never sent. So a caller that was
// told "failed" can rely on it: nothing it asked for runs later behind its back.
import type { Bridge, BridgeCallName, BridgeConnection, BridgeInput, BridgeOutput } from '../../../shared/bridge/contract';
import type { BridgeEventName, BridgeEventPayload } from '../../../shared/bridge/events';
import type { Result } from '../../../shared/bridge/result';
import { serverFrameSchema } from '../../../shared/bridge/wire';
import { bridgeUrl, takeEarlySocket } from './early-handoff';

const CALL_TIMEOUT_MS = 60_000;
/**
 * A message with files: main gives its upload time in proportion to its size (up to about 7 minutes
 * for the largest), and answers when the service does, so the page waits longer than for other calls.
 */
const FILES_CALL_TIMEOUT_MS = 10 * 60_000;
const carriesFiles = (name: string, input: unknown) => name === 'messages.create' && Array.isArray((input as { attachments?: unknown } | undefined)?.attachments);
/** A host that refused our secret may be restarted with it again: ask now and then, cheaply. */
const REFUSED_RETRY_MS = 10_000;

interface Pending {
  resolve: (r: Result<unknown>) => void;
  timer: ReturnType<typeof setTimeout>;
  frame: string;
  sent: boolean;
  /** Sent right behind the hello, before the host said ready (see `onopen`). */
  behindHello?: boolean;
}

export function createWebTransport(
  secret: string,
  url = bridgeUrl(location),
  opts: { callTimeoutMs?: number } = {},
): Bridge {
  let socket: WebSocket | undefined;
  let ready = false;
  /** The socket our hello has gone out on (calls may follow it before the host says ready). */
  let helloOn: WebSocket | undefined;
  let nextId = 1;
  let retryMs = 250;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<(state: BridgeConnection) => void>();
  let connection: BridgeConnection | undefined;
  const setConnection = (state: BridgeConnection) => {
    if (state === connection) return;
    connection = state;
    for (const l of connectionListeners) l(state);
  };

  /**
   * Calls go out once our hello has gone out on the open socket, before the host's 'ready' too:
   * the host reads a socket's frames in order and runs none on a socket whose hello it refused, so
   * on that refusal (4401, below) a call sent behind the hello simply waits again. Not a round trip
   * later after 'ready': a cold open's first calls are made as the entry ends, and 'ready' is read
   * only after it (a traced new tab's first calls waited 5 ms for it).
   */
  const canSend = () => helloOn === socket && socket?.readyState === WebSocket.OPEN;
  function send(p: Pending) {
    p.sent = true;
    p.behindHello = !ready;
    socket!.send(p.frame);
  }

  function connect() {
    ready = false;
    // The first connection may be the one the head's script began (early-start.ts), already open;
    // it is handed over once, so every later connection is the transport's own.
    const ws = takeEarlySocket(url) ?? new WebSocket(url);
    socket = ws;
    const opened = () => {
      ws.send(JSON.stringify({ type: 'hello', secret }));
      helloOn = ws;
      // Calls already waiting (a cold open's first questions) go out right behind it (`canSend`).
      for (const p of pending.values()) if (!p.sent) send(p);
    };
    ws.onopen = opened;
    ws.onmessage = (message) => {
      let data: unknown;
      try {
        data = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if ((data as { type?: unknown })?.type === 'ready') {
        ready = true;
        retryMs = 250;
        for (const p of pending.values()) p.behindHello = false;
        // Every call made on this socket has gone out already, behind the hello (`canSend`).
        setConnection('connected');
        return;
      }
      const frame = serverFrameSchema.safeParse(data);
      if (!frame.success) return;
      if (frame.data.type === 'reply') {
        const p = pending.get(frame.data.id);
        if (!p) return;
        pending.delete(frame.data.id);
        clearTimeout(p.timer);
        p.resolve(frame.data.result as Result<unknown>);
      } else {
        for (const l of listeners.get(frame.data.name) ?? []) l(frame.data.payload);
      }
    };
    ws.onclose = (event) => {
      ready = false;
      // Calls that went out may or may not have run; tell their callers instead of resending them.
      for (const [id, p] of pending) {
        if (!p.sent) continue;
        if (event.code === 4401 && p.behindHello) {
          // Refused with the hello: the host ran nothing on this socket, so the call waits as one never sent.
          p.sent = false;
          p.behindHello = false;
          continue;
        }
        clearTimeout(p.timer);
        pending.delete(id);
        p.resolve({ ok: false, error: { kind: 'network', message: 'Lost the connection to the app. Retrying.' } });
      }
      if (event.code === 4401) {
        setConnection('refused');
        setTimeout(connect, REFUSED_RETRY_MS);
        return;
      }
      // A refused page stays refused until a host takes it back (a flapping socket does not hide it).
      if (connection !== 'refused') setConnection('disconnected');
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5_000);
    };
    // Opened before these handlers were set: its open event went by unheard.
    if (ws.readyState === WebSocket.OPEN) opened();
  }
  connect();

  return {
    call<C extends BridgeCallName>(name: C, input: BridgeInput<C>): Promise<Result<BridgeOutput<C>>> {
      return new Promise((resolve) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          // Dropped whether or not it went out: an unsent call is never sent after this answer.
          pending.delete(id);
          resolve({ ok: false, error: { kind: 'timeout', message: 'The app did not answer in time.' } });
        }, opts.callTimeoutMs ?? (carriesFiles(name, input) ? FILES_CALL_TIMEOUT_MS : CALL_TIMEOUT_MS));
        const p: Pending = { resolve: resolve as (r: Result<unknown>) => void, timer, frame: JSON.stringify({ type: 'call', id, name, input }), sent: false };
        pending.set(id, p);
        if (canSend()) send(p);
      });
    },
    on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEventPayload<E>) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const l = listener as (payload: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      if (connection) listener(connection);
      return () => connectionListeners.delete(listener);
    },
  };
}
