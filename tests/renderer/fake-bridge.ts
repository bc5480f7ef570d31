// A Bridge for component tests: answers from a table of handlers, records calls, and lets the
// test push events as main would.
import type { Bridge } from '../../shared/bridge/contract';
import type { Result } from '../../shared/bridge/result';

type Handler = (input: unknown) => Result<unknown> | Promise<Result<unknown>>;

export function fakeBridge(handlers: Record<string, Handler>) {
  const calls: { name: string; input: unknown }[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const bridge = {
    async call(name: string, input: unknown) {
      calls.push({ name, input });
      const handler = handlers[name];
      if (!handler) return { ok: false, error: { kind: 'internal', message: `no fake for ${name}` } };
      return handler(input);
    },
    on(event: string, listener: (payload: unknown) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  } as unknown as Bridge;
  const emit = (event: string, payload: unknown) => listeners.get(event)?.forEach((l) => l(payload));
  return { bridge, calls, emit, callsTo: (name: string) => calls.filter((c) => c.name === name).map((c) => c.input) };
}
