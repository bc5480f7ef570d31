// The main core: one object both transports (Electron IPC and web mode) drive. It validates every
// call against the bridge contract, runs it, and answers `{ok, value} | {ok: false, error}`.
import { bridgeCalls, isBridgeCallName } from '../../shared/bridge/contract';
import type { BridgeCallName, BridgeOutput, BridgeParsedInput } from '../../shared/bridge/contract';
import type { BridgeEventName, BridgeEventPayload } from '../../shared/bridge/events';
import type { Result } from '../../shared/bridge/result';
import { fail, ok } from '../../shared/bridge/result';
import type { ServiceClientOptions, ServiceRequest } from './api/client';
import { isApiCall, operations, outputSchemaOf } from './api/operations';
import { isSafeExternalUrl } from './security/external-url';
import type { Logger } from './redact';
import { createSessions } from './sessions';
import type { TokenVault } from './vault';

export interface CoreDeps {
  vault: TokenVault;
  logger: Logger;
  fetch?: typeof fetch;
  clientOptions?: Partial<Omit<ServiceClientOptions, 'baseUrl' | 'token' | 'fetch'>>;
  /** The OS opener for safe external links (Electron: shell.openExternal). Absent in web mode. */
  openExternal?: (url: string) => Promise<void>;
}

type EventListener = <E extends BridgeEventName>(event: E, payload: BridgeEventPayload<E>) => void;
type Handler<C extends BridgeCallName> = (input: BridgeParsedInput<C>) => Promise<Result<BridgeOutput<C>>>;

export function createMainCore(deps: CoreDeps) {
  const listeners = new Set<EventListener>();
  const emit: EventListener = (event, payload) => {
    for (const l of listeners) l(event, payload);
  };
  const sessions = createSessions({
    vault: deps.vault,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.clientOptions ? { clientOptions: deps.clientOptions } : {}),
    onChange: (state) => emit('session.changed', state),
  });

  const sessionHandlers: { [C in Extract<BridgeCallName, `session.${string}`>]: Handler<C> } = {
    'session.get': async () => ok(sessions.state()),
    'session.signIn': (input) => sessions.signIn(input),
    'session.signOut': () => sessions.signOut(),
  };

  const shellHandlers: { [C in Extract<BridgeCallName, `shell.${string}`>]: Handler<C> } = {
    // Links in messages are untrusted: only http(s) and mailto leave the app, checked here.
    'shell.openExternal': async ({ url }) => {
      if (!isSafeExternalUrl(url)) return fail('invalid_input', 'Only web and mail links can be opened.');
      const safe = new URL(url).toString();
      if (!deps.openExternal) return ok({ opened: false, url: safe });
      await deps.openExternal(safe);
      return ok({ opened: true, url: safe });
    },
  };
  const localHandlers = { ...sessionHandlers, ...shellHandlers };

  async function callApi(name: BridgeCallName, input: unknown): Promise<Result<unknown>> {
    if (!isApiCall(name)) return fail('internal', 'No handler for this call.');
    const session = sessions.current();
    if (!session) return fail(sessions.state().status === 'expired' ? 'session_expired' : 'not_signed_in', 'Sign in to continue.');
    const build = operations[name] as (input: unknown, ctx: { accountId: number }) => ServiceRequest;
    const result = await session.client.send(build(input, { accountId: session.info.accountId }), outputSchemaOf(name));
    if (!result.ok && result.error.kind === 'unauthorized') {
      sessions.markExpired();
      return fail('session_expired', 'Your session has expired. Sign in again; nothing you queued is lost.', { status: 401 });
    }
    return result;
  }

  /** Entry point for both transports. `name` and `input` are untrusted. */
  async function call(name: unknown, input: unknown): Promise<Result<unknown>> {
    if (!isBridgeCallName(name)) return fail('invalid_input', 'Unknown bridge call.');
    const parsed = bridgeCalls[name].input.safeParse(input ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail('invalid_input', issue ? `${issue.path.join('.') || 'input'}: ${issue.message}` : 'Invalid input.');
    }
    try {
      if (name in localHandlers) {
        const handler = localHandlers[name as keyof typeof localHandlers] as (input: unknown) => Promise<Result<unknown>>;
        return await handler(parsed.data);
      }
      return await callApi(name, parsed.data);
    } catch (err) {
      deps.logger.error(`bridge call ${name} failed`, err);
      return fail('internal', 'Something went wrong in the app. The details are in its log.');
    }
  }

  return {
    call,
    onEvent(listener: EventListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    sessions,
  };
}
export type MainCore = ReturnType<typeof createMainCore>;
