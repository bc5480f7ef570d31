// Web mode's implementation of the bridge: a WebSocket to the local host process that runs the
// main core. The first frame carries the per-launch secret the page was opened with. This is the
// only socket the renderer opens, and it goes to its own origin.
import type { Bridge, BridgeCallName, BridgeInput, BridgeOutput } from '../../../shared/bridge/contract';
import type { BridgeEventName, BridgeEventPayload } from '../../../shared/bridge/events';
import type { Result } from '../../../shared/bridge/result';
import { serverFrameSchema } from '../../../shared/bridge/wire';

const CALL_TIMEOUT_MS = 60_000;

type Pending = { resolve: (r: Result<unknown>) => void; timer: ReturnType<typeof setTimeout> };

export function createWebTransport(secret: string, url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/bridge`): Bridge {
  let socket: WebSocket | undefined;
  let ready = false;
  let nextId = 1;
  let retryMs = 250;
  const pending = new Map<number, Pending>();
  const queue: string[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();

  function connect() {
    ready = false;
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', secret }));
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
        while (queue.length) ws.send(queue.shift()!);
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
      // Calls in flight may or may not have run; tell their callers instead of resending them.
      for (const [id, p] of pending) {
        clearTimeout(p.timer);
        p.resolve({ ok: false, error: { kind: 'network', message: 'Lost the connection to the app. Retrying.' } });
        pending.delete(id);
      }
      if (event.code === 4401) {
        for (const l of listeners.get('transport.unauthorized') ?? []) l(undefined);
        return;
      }
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5_000);
    };
  }
  connect();

  return {
    call<C extends BridgeCallName>(name: C, input: BridgeInput<C>): Promise<Result<BridgeOutput<C>>> {
      return new Promise((resolve) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          pending.delete(id);
          resolve({ ok: false, error: { kind: 'timeout', message: 'The app did not answer in time.' } });
        }, CALL_TIMEOUT_MS);
        pending.set(id, { resolve: resolve as (r: Result<unknown>) => void, timer });
        const frame = JSON.stringify({ type: 'call', id, name, input });
        if (ready && socket?.readyState === WebSocket.OPEN) socket.send(frame);
        else queue.push(frame);
      });
    },
    on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEventPayload<E>) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const l = listener as (payload: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    },
  };
}
