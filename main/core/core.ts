// The main core: one object both transports (Electron IPC and web mode) drive. It validates every
// call against the bridge contract, runs it, parses the answer with the contract's output schema
// (which has no field for a token; the service client does this for API calls), and answers
// `{ok, value} | {ok: false, error}`. Every answer and every event leaves through the outgoing
// gate (`outgoing.ts`), which cuts every secret main holds out of every string in it.
import { bridgeCalls, isBridgeCallName } from '../../shared/bridge/contract';
import type { BridgeCallName } from '../../shared/bridge/contract';
import type { BridgeEventName, BridgeEventPayload } from '../../shared/bridge/events';
import type { Result } from '../../shared/bridge/result';
import { fail } from '../../shared/bridge/result';
import type { ServiceClientOptions, ServiceRequest } from './api/client';
import type { OperationContext } from './api/operations';
import { isApiCall, operations, outputSchemaOf } from './api/operations';
import type { DesktopHost } from './desktop/host';
import { createServiceFiles, fileHandlers } from './files/service-files';
import { appHandlers } from './handlers/app-handlers';
import { sessionHandlers } from './handlers/session-handlers';
import type { Handler, LocalCallName } from './handlers/types';
import type { LiveUpdatesOptions } from './live/live-updates';
import { transportDetector } from './live/detect';
import { createLiveUpdates } from './live/live-updates';
import type { PendingWork } from './pending-work';
import { createPendingWork } from './pending-work';
import { outgoingGate } from './outgoing';
import type { Logger, SecretRegistry } from './redact';
import { createSecretRegistry } from './redact';
import { createSessions } from './session/manager';
import type { SavedSessionsStore } from './session/saved-sessions';
import { savedSessionsInMemory } from './session/saved-sessions';
import type { TokenVault } from './vault';

export interface CoreDeps {
  vault: TokenVault;
  logger: Logger;
  /** Saved servers/accounts; a file in the desktop app, memory by default. */
  savedSessions?: SavedSessionsStore;
  desktop?: DesktopHost;
  /** Token values to scrub from logs; pass the one the logger reads. */
  secrets?: SecretRegistry;
  pending?: PendingWork;
  fetch?: typeof fetch;
  clientOptions?: Partial<Omit<ServiceClientOptions, 'baseUrl' | 'token' | 'fetch'>>;
  now?: () => number;
  /** Arms a timer (file fetches' time limit); injected so tests never wait on a clock. */
  timer?: (ms: number, fire: () => void) => () => void;
  /**
   * Live updates: main holds a socket to the active session's service. Off unless given, so a
   * core without a reachable service (most unit tests) opens no socket.
   */
  liveUpdates?: LiveUpdatesOptions;
}

type EventListener = <E extends BridgeEventName>(event: E, payload: BridgeEventPayload<E>) => void;

export function createMainCore(deps: CoreDeps) {
  const secrets = deps.secrets ?? createSecretRegistry();
  const gate = outgoingGate(secrets);
  const listeners = new Set<EventListener>();
  const emit: EventListener = (event, payload) => {
    let safe: typeof payload;
    try {
      safe = gate.event(payload);
    } catch (err) {
      deps.logger.error(`bridge event ${event} could not be sent`, err);
      return;
    }
    for (const l of listeners) l(event, safe);
  };
  const pending = deps.pending ?? createPendingWork();
  const sessions = createSessions({
    vault: deps.vault,
    saved: deps.savedSessions ?? savedSessionsInMemory(),
    secrets,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.clientOptions ? { clientOptions: deps.clientOptions } : {}),
    ...(deps.now ? { now: deps.now } : {}),
    onChange: (state) => {
      emit('session.changed', state);
      live?.sync();
      // What was fetched for one session is not kept for the next (or for nobody).
      const id = state.status === 'signed_in' ? state.session.id : undefined;
      if (id !== filesFor) files.forget();
      filesFor = id;
    },
    onCacheObsolete: (sessionIds) => emit('session.cacheObsolete', { sessionIds }),
  });
  const live = deps.liveUpdates
    ? createLiveUpdates({
        sessions,
        logger: deps.logger,
        secrets,
        onStatus: (status) => emit('live.status', status),
        onEvent: (event) => emit('live.event', event),
        onCatchUp: (reason) => emit('live.catchUp', { reason }),
        // The transport probe goes out like every other request of main's: through its fetch.
        options: { ...(deps.fetch ? { detect: transportDetector(deps.fetch) } : {}), ...deps.liveUpdates },
      })
    : undefined;
  let filesFor: string | undefined;
  const files = createServiceFiles({
    fetch: deps.fetch ?? fetch,
    ...(deps.timer ? { timer: deps.timer } : {}),
    session: () => {
      const s = sessions.current();
      return s ? { id: s.info.id, baseUrl: s.info.baseUrl } : undefined;
    },
    read: (name, input) => callApi(name, input) as never,
    holdsSecret: (text) => secrets.scrub(text) !== text,
  });
  // A session reopened from disk is active once the saved file is read.
  void sessions.ready.then(() => live?.sync());
  // Typed as a full table: a local call without a handler does not compile.
  const local: { [C in LocalCallName]: Handler<C> } = {
    ...sessionHandlers(sessions, deps.vault, () => emit('session.changed', sessions.state())),
    ...appHandlers(deps.desktop ?? {}, deps.logger, {
      liveStatus: () => live?.status() ?? { state: 'offline' },
      setViewing: (conversationId) => live?.setViewing(conversationId) ?? false,
      notificationClicked: (conversationId) => emit('app.notificationClicked', { conversationId }),
      notificationAction: (conversationId, action) => emit('app.notificationAction', { conversationId, action }),
    }),
    ...fileHandlers(files),
  };
  const localHandler = (name: BridgeCallName) =>
    Object.prototype.hasOwnProperty.call(local, name) ? (local[name as LocalCallName] as (input: unknown) => Promise<Result<unknown>>) : undefined;

  async function callApi(name: BridgeCallName, input: unknown): Promise<Result<unknown>> {
    if (!isApiCall(name)) return fail('internal', 'No handler for this call.');
    await sessions.ready;
    const session = sessions.current();
    if (!session) return fail(sessions.state().status === 'expired' ? 'session_expired' : 'not_signed_in', 'Sign in to continue.');
    const build = operations[name] as (input: unknown, ctx: OperationContext) => ServiceRequest;
    const ctx: OperationContext = { accountId: session.info.accountId, uploadProgress: (progress) => emit('messages.uploadProgress', progress) };
    const result = await session.client.send(build(input, ctx), outputSchemaOf(name));
    if (!result.ok && result.error.kind === 'unauthorized') {
      if ((await sessions.confirmExpiry(session.info.id)) === 'still_valid') {
        return fail('forbidden', 'You do not have permission to do this.', { status: 401 });
      }
      return fail('session_expired', 'Your session has expired. Sign in again; nothing you queued is lost.', { status: 401 });
    }
    return result;
  }

  async function run(name: BridgeCallName, input: unknown): Promise<Result<unknown>> {
    const handler = localHandler(name);
    // Service answers were parsed with this same output schema by the client.
    if (!handler) return callApi(name, input);
    const result = await handler(input);
    if (!result.ok) return result;
    // The output schema is the last gate: unknown keys (a token, say) are dropped, and an answer
    // that does not fit the contract is a bug, reported as one.
    const checked = bridgeCalls[name].output.safeParse(result.value);
    if (!checked.success) {
      deps.logger.error(`bridge call ${name} answered outside its output schema`, checked.error.issues.slice(0, 3));
      return fail('internal', 'Something went wrong in the app. The details are in its log.');
    }
    return { ok: true, value: checked.data };
  }

  async function answer(name: unknown, input: unknown): Promise<Result<unknown>> {
    if (!isBridgeCallName(name)) return fail('invalid_input', 'Unknown bridge call.');
    const parsed = bridgeCalls[name].input.safeParse(input ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail('invalid_input', issue ? `${issue.path.join('.') || 'input'}: ${issue.message}` : 'Invalid input.');
    }
    try {
      return await pending.track(run(name, parsed.data));
    } catch (err) {
      deps.logger.error(`bridge call ${name} failed`, err);
      return fail('internal', 'Something went wrong in the app. The details are in its log.');
    }
  }

  /** Entry point for both transports. `name` and `input` are untrusted; the answer leaves through the gate. */
  async function call(name: unknown, input: unknown): Promise<Result<unknown>> {
    const result = await answer(name, input);
    try {
      return gate.answer(result);
    } catch (err) {
      deps.logger.error('a bridge answer could not be sent', err);
      return fail('internal', 'Something went wrong in the app. The details are in its log.');
    }
  }

  return {
    call,
    onEvent(listener: EventListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Waits for calls in flight and file writes, at most `boundMs` (before-quit). */
    drain: (boundMs: number) => pending.drain(boundMs),
    /** Closes the live-update socket (quitting, or a host shutting down). */
    closeLive: () => live?.close(),
    /** Token values known this launch, for the redacting logger. */
    secrets: () => secrets.values(),
    sessions,
  };
}
export type MainCore = ReturnType<typeof createMainCore>;
