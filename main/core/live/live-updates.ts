// Main's live-update connection for the active session (socket.io or ActionCable, whichever the
// service offers: connection.ts): connected while a session is signed in, closed on sign-out,
// switch of account or expiry. Every event from the network is validated
// (`parseLiveEvent`) before it crosses the bridge; a malformed one is dropped with a log line that
// names the event and the failing field, never a value. The pubsub_token goes to the socket.io
// handshake or the ActionCable subscribe frame only: it is registered with the redacting logger
// and no event carries it.
import type { LiveEvent } from '../../../shared/api/live-events';
import { parseLiveEvent } from '../../../shared/api/live-events';
import type { LiveStatus } from '../../../shared/bridge/calls/app';
import type { Logger, SecretRegistry } from '../redact';
import type { LiveCredential, Sessions } from '../session/manager';
import type { ConnectCable, LiveCableOptions } from './cable';
import { defaultCableTimings } from './cable';
import type { LiveConnection, LiveConnectionOptions } from './connection';
import { openLiveConnection } from './connection';
import type { DetectTransport } from './detect';
import { transportDetector } from './detect';
import type { ConnectSocket, LiveSocketOptions } from './socket';

export type CatchUpReason = 'connected' | 'not_recovered' | 'long_offline';

export interface LiveUpdatesOptions extends Partial<LiveSocketOptions>, Partial<Omit<LiveCableOptions, 'timer'>> {
  /** Offline longer than this, a recovered reconnect is still followed by a catch-up (default: the service's 2-minute recovery window). */
  longOfflineMs?: number;
  /** Waits before asking for the credential again after a refusal or an unreadable profile: 2 s doubling to 5 minutes. */
  credentialRetryMs?: { baseMs: number; maxMs: number };
  now?: () => number;
  connect?: ConnectSocket;
  connectCable?: ConnectCable;
  /** Which transport the service offers (default: detect.ts's probe with Node's fetch). */
  detect?: DetectTransport;
}

export interface LiveUpdatesDeps {
  sessions: Pick<Sessions, 'current' | 'liveCredential'>;
  logger: Logger;
  /**
   * Credentials a push carries (a Chatwoot contact inbox's pubsub_token) are learnt, and every
   * secret cut out of the payload, before it is parsed (parsing shortens some texts).
   */
  secrets?: Pick<SecretRegistry, 'scrubAnswer'>;
  onStatus(status: LiveStatus): void;
  onEvent(event: LiveEvent): void;
  onCatchUp(reason: CatchUpReason): void;
  options?: LiveUpdatesOptions;
}

const defaultTimer = (ms: number, onFire: () => void) => {
  const handle = setTimeout(onFire, ms);
  return () => clearTimeout(handle);
};

/** An event name from the network, safe to put in a log line. */
const loggable = (name: string) => name.slice(0, 60).replace(/[^\w.:-]/g, '?');

export function createLiveUpdates(deps: LiveUpdatesDeps) {
  const opts = deps.options ?? {};
  const now = opts.now ?? Date.now;
  const socketOptions: LiveConnectionOptions = {
    reconnectionDelayMs: opts.reconnectionDelayMs ?? 1_000,
    reconnectionDelayMaxMs: opts.reconnectionDelayMaxMs ?? 10_000,
    timer: opts.timer ?? defaultTimer,
    staleMs: opts.staleMs ?? defaultCableTimings.staleMs,
    presenceIntervalMs: opts.presenceIntervalMs ?? defaultCableTimings.presenceIntervalMs,
    subscribeTimeoutMs: opts.subscribeTimeoutMs ?? defaultCableTimings.subscribeTimeoutMs,
    presence: () => presence(),
  };
  const detect = opts.detect ?? transportDetector();
  const longOfflineMs = opts.longOfflineMs ?? 120_000;
  const credentialRetry = opts.credentialRetryMs ?? { baseMs: 2_000, maxMs: 300_000 };

  let status: LiveStatus = { state: 'offline' };
  /** The session the socket belongs to; a change of it (or none) replaces the socket. */
  let sessionId: string | undefined;
  /** Bumped whenever the socket is replaced: late answers for an older one are ignored. */
  let generation = 0;
  let socket: LiveConnection | undefined;
  let cancelCredentialRetry: (() => void) | undefined;
  let credentialAttempts = 0;
  let everConnected = false;
  let offlineSince: number | undefined;
  /** The conversation the agent has open in this session (null: none), for the presence extension. */
  let viewing: number | null = null;
  /**
   * What `update_presence` carries: where the service advertises the presence extension, what the
   * agent views (socket.io then sends it at all); elsewhere nothing beyond Chatwoot's action.
   */
  const presence = () => (deps.sessions.current()?.client.features().presence ? { viewing } : undefined);

  const setStatus = (next: LiveStatus) => {
    if (next.state === status.state && next.recovered === status.recovered) return;
    status = next;
    deps.onStatus(status);
  };

  function stop() {
    generation++;
    socket?.close();
    socket = undefined;
    cancelCredentialRetry?.();
    cancelCredentialRetry = undefined;
    credentialAttempts = 0;
    everConnected = false;
    offlineSince = undefined;
    viewing = null;
  }

  function retryCredentialLater(gen: number) {
    const delay = Math.min(credentialRetry.maxMs, credentialRetry.baseMs * 2 ** credentialAttempts++);
    cancelCredentialRetry = socketOptions.timer(delay, () => {
      cancelCredentialRetry = undefined;
      if (gen === generation) void connect(gen, true);
    });
  }

  async function connect(gen: number, refresh: boolean) {
    const cred = await deps.sessions.liveCredential({ refresh });
    if (gen !== generation) return;
    // Expired: the session change that follows closes everything; nothing to retry.
    if (cred === 'expired') return setStatus({ state: 'offline' });
    if (cred === 'unavailable') {
      setStatus({ state: 'offline' });
      return retryCredentialLater(gen);
    }
    open(gen, cred);
  }

  function open(gen: number, cred: LiveCredential) {
    socket?.close();
    socket = openLiveConnection(
      cred,
      {
        connected(recovered) {
          if (gen !== generation) return;
          credentialAttempts = 0;
          const away = offlineSince === undefined ? 0 : now() - offlineSince;
          offlineSince = undefined;
          setStatus({ state: 'connected', recovered });
          // A first connection, or one that did not recover, may have missed events: the renderer
          // revalidates. A recovered one got everything replayed, unless the gap was long.
          const reason: CatchUpReason | undefined = !everConnected ? 'connected' : !recovered ? 'not_recovered' : away > longOfflineMs ? 'long_offline' : undefined;
          everConnected = true;
          if (reason) deps.onCatchUp(reason);
        },
        dropped() {
          if (gen !== generation) return;
          offlineSince ??= now();
          setStatus({ state: 'offline' });
        },
        refused() {
          if (gen !== generation) return;
          offlineSince ??= now();
          setStatus({ state: 'offline' });
          deps.logger.warn('live updates: the service refused the connection; reading the profile again');
          socket?.close();
          socket = undefined;
          retryCredentialLater(gen);
        },
        event(name, data) {
          if (gen !== generation) return;
          let payload: unknown;
          try {
            payload = deps.secrets ? deps.secrets.scrubAnswer(data) : data;
          } catch {
            // Nested too deep to scrub: dropped as malformed below.
            payload = undefined;
          }
          const parsed = parseLiveEvent(name, payload);
          if (parsed.ok) deps.onEvent(parsed.event);
          else if (parsed.reason === 'malformed') deps.logger.warn(`live updates: dropped a malformed ${loggable(name)} event`, { issue: parsed.issue });
        },
      },
      socketOptions,
      { detect, ...(opts.connect ? { connectSocketIo: opts.connect } : {}), ...(opts.connectCable ? { connectCable: opts.connectCable } : {}) },
    );
  }

  /** Follows the session: call on every session change. */
  function sync() {
    const current = deps.sessions.current();
    const id = current?.info.id;
    // The same session stays connected (or keeps retrying) across unrelated changes, such as a
    // saved session added beside it.
    if (id === sessionId) return;
    stop();
    sessionId = id;
    if (id === undefined) return setStatus({ state: 'offline' });
    setStatus({ state: 'connecting' });
    void connect(generation, false);
  }

  return {
    sync,
    status: (): LiveStatus => status,
    /**
     * The agent opened a conversation (or none): told to the service at once where it offers the
     * presence extension (answers whether it does), and with every presence heartbeat after.
     */
    setViewing(conversationId: number | null): boolean {
      viewing = conversationId;
      if (!presence()) return false;
      socket?.updatePresence();
      return true;
    },
    /** Closes the socket (quitting). */
    close() {
      stop();
      sessionId = undefined;
      setStatus({ state: 'offline' });
    },
  };
}
export type LiveUpdates = ReturnType<typeof createLiveUpdates>;
