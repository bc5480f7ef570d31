// Sessions: sign in with a base URL and an access token (validated through GET /api/v1/profile),
// pick the account when the user has several, switch between saved sessions, sign out, and
// expiry when the service starts answering 401. Tokens go to the vault and to the service client;
// no state this module returns carries one.
import { profileSchema } from '../../../shared/api/records';
import type { Profile } from '../../../shared/api/records';
import type { ExpiryReason, SavedSession, SessionInfo, SessionState, SignInResult } from '../../../shared/bridge/calls/session';
import type { Result } from '../../../shared/bridge/result';
import { fail, ok } from '../../../shared/bridge/result';
import type { ServiceClient, ServiceClientOptions } from '../api/client';
import { createServiceClient } from '../api/client';
import type { SecretRegistry } from '../redact';
import type { TokenVault } from '../vault';
import { createPendingSignIns } from './pending-sign-ins';
import { sessionInfoOf } from './profile';
import type { SavedSessionRecord, SavedSessionsFile, SavedSessionsStore } from './saved-sessions';

export interface SessionDeps {
  vault: TokenVault;
  saved: SavedSessionsStore;
  secrets: SecretRegistry;
  fetch?: typeof fetch;
  clientOptions?: Partial<Omit<ServiceClientOptions, 'baseUrl' | 'token' | 'fetch'>>;
  now?: () => number;
  onChange(state: SessionState): void;
  onCacheObsolete(sessionIds: string[]): void;
}

export interface ActiveSession {
  info: SessionInfo;
  client: ServiceClient;
  /** For the live-update socket; never forwarded to the renderer. */
  pubsubToken: string | null;
}

/** What the live-update socket needs to connect (main only; never crosses the bridge). */
export interface LiveCredential {
  sessionId: string;
  baseUrl: string;
  accountId: number;
  userId: number;
  pubsubToken: string;
}

type Active = { info: SessionInfo; pubsubToken: string | null } & ({ expired: false; client: ServiceClient } | { expired: true; reason: ExpiryReason });

const PROFILE = { method: 'GET', path: '/api/v1/profile' } as const;
const withoutTimestamp = ({ lastUsedAt: _lastUsedAt, ...info }: SavedSessionRecord): SessionInfo => info;

export function createSessions(deps: SessionDeps) {
  const now = deps.now ?? Date.now;
  const pendingSignIns = createPendingSignIns(now);
  let file: SavedSessionsFile = { version: 1, activeId: null, sessions: [], obsoleteCaches: [] };
  let active: Active | undefined;

  // The list is ordered by last use; two uses in one clock tick (or a clock set back) would tie or
  // invert, so a use is always stamped after every earlier one.
  const useStamp = () => Math.max(now(), ...file.sessions.map((s) => s.lastUsedAt + 1));

  const clientFor = (baseUrl: string, token: string) => {
    deps.secrets.add(token);
    return createServiceClient({ ...deps.clientOptions, baseUrl, token, secrets: deps.secrets, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
  };

  const state = (): SessionState => {
    if (!active) return { status: 'signed_out' };
    if (active.expired) return { status: 'expired', session: active.info, reason: active.reason };
    return { status: 'signed_in', session: active.info };
  };
  const changed = () => deps.onChange(state());

  async function open(record: SessionInfo): Promise<Active> {
    const token = await deps.vault.load(record.id);
    return token === undefined
      ? { info: record, pubsubToken: null, expired: true, reason: 'token_needed' }
      : { info: record, pubsubToken: null, expired: false, client: clientFor(record.baseUrl, token) };
  }

  /** Loads the saved sessions and reopens the last active one, without the network (offline first). */
  const ready = (async () => {
    file = await deps.saved.read();
    const last = file.sessions.find((s) => s.id === file.activeId);
    if (last) active = await open(withoutTimestamp(last));
  })();

  async function activate(baseUrl: string, token: string, profile: Profile, accountId: number, client: ServiceClient, expectedId?: string): Promise<Result<SessionState>> {
    const info = sessionInfoOf(baseUrl, profile, accountId);
    if (expectedId !== undefined && info.id !== expectedId) {
      return fail('forbidden', 'This token belongs to another user or account than the one signed in here.');
    }
    await deps.vault.save(info.id, token);
    file.sessions = [...file.sessions.filter((s) => s.id !== info.id), { ...info, lastUsedAt: useStamp() }];
    file.activeId = info.id;
    // Signing in again to a session signed out a moment ago: its cache is in use again, not obsolete.
    file.obsoleteCaches = file.obsoleteCaches.filter((id) => id !== info.id);
    await deps.saved.write(file);
    if (profile.pubsub_token) deps.secrets.add(profile.pubsub_token);
    active = { info, client, pubsubToken: profile.pubsub_token ?? null, expired: false };
    changed();
    return ok(state());
  }

  async function signIn(input: { baseUrl: string; accessToken: string; accountId?: number; sessionId?: string }): Promise<Result<SignInResult>> {
    await ready;
    const client = clientFor(input.baseUrl, input.accessToken);
    const profile = await client.send(PROFILE, profileSchema);
    if (!profile.ok) {
      if (profile.error.kind === 'unauthorized') return fail('unauthorized', 'The service did not accept this access token.', { status: 401 });
      if (profile.error.kind === 'not_found' || profile.error.kind === 'bad_response') {
        return fail('bad_response', 'No Customer Messaging Service answered at this address.');
      }
      return profile;
    }
    const { accounts } = profile.value;
    if (accounts.length === 0) return fail('forbidden', 'This user belongs to no account.');
    if (input.accountId !== undefined) {
      if (!accounts.some((a) => a.id === input.accountId)) return fail('not_found', 'This user is not a member of that account.');
      return activate(input.baseUrl, input.accessToken, profile.value, input.accountId, client, input.sessionId);
    }
    if (accounts.length === 1) return activate(input.baseUrl, input.accessToken, profile.value, accounts[0]!.id, client, input.sessionId);
    if (input.sessionId !== undefined) return fail('invalid_input', 'Say which account to sign in to again (accountId).');
    const pendingId = pendingSignIns.add({ baseUrl: input.baseUrl, token: input.accessToken, profile: profile.value });
    return ok({
      status: 'choose_account',
      pendingId,
      baseUrl: input.baseUrl,
      user: { name: profile.value.available_name || profile.value.name, email: profile.value.email },
      accounts: accounts.map((a) => ({ id: a.id, name: a.name, role: a.role })),
    });
  }

  async function chooseAccount(input: { pendingId: string; accountId: number }): Promise<Result<SessionState>> {
    await ready;
    const pending = pendingSignIns.take(input.pendingId);
    if (!pending) return fail('invalid_input', 'This sign-in has expired. Enter the address and token again.');
    if (!pending.profile.accounts.some((a) => a.id === input.accountId)) return fail('not_found', 'This user is not a member of that account.');
    return activate(pending.baseUrl, pending.token, pending.profile, input.accountId, clientFor(pending.baseUrl, pending.token));
  }

  async function switchTo(sessionId: string): Promise<Result<SessionState>> {
    await ready;
    const record = file.sessions.find((s) => s.id === sessionId);
    if (!record) return fail('not_found', 'There is no saved session with that id.');
    if (active?.info.id !== sessionId || active.expired) active = await open(withoutTimestamp(record));
    record.lastUsedAt = useStamp();
    file.activeId = sessionId;
    await deps.saved.write(file);
    changed();
    return ok(state());
  }

  /** Deletes the token and the saved entry; the renderer deletes the cache on `session.cacheObsolete`. */
  async function signOut(sessionId?: string): Promise<Result<SessionState>> {
    await ready;
    const id = sessionId ?? active?.info.id;
    if (id === undefined) return ok(state());
    if (!file.sessions.some((s) => s.id === id) && active?.info.id !== id) return fail('not_found', 'There is no saved session with that id.');
    await deps.vault.delete(id);
    file.sessions = file.sessions.filter((s) => s.id !== id);
    if (file.activeId === id) file.activeId = null;
    if (!file.obsoleteCaches.includes(id)) file.obsoleteCaches.push(id);
    await deps.saved.write(file);
    if (active?.info.id === id) active = undefined;
    changed();
    deps.onCacheObsolete([...file.obsoleteCaches]);
    return ok(state());
  }

  /**
   * The service answered 401 to `sessionId`. The spec also uses 401 for most role failures, so
   * the profile is asked first: if it still answers, the token is fine and this was a permission
   * problem. Otherwise the session is marked expired (same id: cache and queued work stay) and its
   * dead token is dropped from the vault.
   */
  async function confirmExpiry(sessionId: string): Promise<'expired' | 'still_valid'> {
    if (!active || active.info.id !== sessionId || active.expired) return 'expired';
    const probe = await active.client.send(PROFILE, profileSchema);
    if (probe.ok || probe.error.kind !== 'unauthorized') return 'still_valid';
    if (active.info.id !== sessionId || active.expired) return 'expired';
    active = { info: active.info, pubsubToken: null, expired: true, reason: 'token_rejected' };
    await deps.vault.delete(sessionId);
    changed();
    return 'expired';
  }

  /**
   * The live socket's credential for the active session. A session reopened from disk has no
   * pubsub_token (only the access token is stored), and a refused socket may mean it was replaced:
   * then (or with `refresh`) the profile is read again. A 401 there is expiry, confirmed as usual.
   */
  async function liveCredential(opts: { refresh?: boolean } = {}): Promise<LiveCredential | 'expired' | 'unavailable'> {
    await ready;
    const a = active;
    if (!a || a.expired) return 'expired';
    if (!a.pubsubToken || opts.refresh) {
      const profile = await a.client.send(PROFILE, profileSchema);
      if (active !== a) return 'unavailable';
      if (!profile.ok) return profile.error.kind === 'unauthorized' && (await confirmExpiry(a.info.id)) === 'expired' ? 'expired' : 'unavailable';
      if (!profile.value.pubsub_token) return 'unavailable';
      deps.secrets.add(profile.value.pubsub_token);
      a.pubsubToken = profile.value.pubsub_token;
    }
    return { sessionId: a.info.id, baseUrl: a.info.baseUrl, accountId: a.info.accountId, userId: a.info.user.id, pubsubToken: a.pubsubToken };
  }

  async function list(): Promise<SavedSession[]> {
    await ready;
    const sorted = [...file.sessions].sort((a, b) => b.lastUsedAt - a.lastUsedAt);
    return Promise.all(
      sorted.map(async (s): Promise<SavedSession> => {
        const isActive = active?.info.id === s.id && !active.expired;
        const hasToken = isActive || (await deps.vault.load(s.id)) !== undefined;
        return {
          id: s.id,
          baseUrl: s.baseUrl,
          accountId: s.accountId,
          accountName: s.accounts.find((a) => a.id === s.accountId)?.name ?? `Account ${s.accountId}`,
          userName: s.user.name,
          userEmail: s.user.email,
          status: isActive ? 'active' : hasToken ? 'ready' : 'needs_token',
        };
      }),
    );
  }

  async function cacheDeleted(sessionId: string): Promise<string[]> {
    await ready;
    if (file.obsoleteCaches.includes(sessionId)) {
      file.obsoleteCaches = file.obsoleteCaches.filter((id) => id !== sessionId);
      await deps.saved.write(file);
    }
    return [...file.obsoleteCaches];
  }

  return {
    ready,
    state,
    signIn,
    chooseAccount,
    switchTo,
    signOut,
    confirmExpiry,
    liveCredential,
    list,
    obsoleteCaches: async () => {
      await ready;
      return [...file.obsoleteCaches];
    },
    cacheDeleted,
    current: (): ActiveSession | undefined => (active && !active.expired ? active : undefined),
  };
}
export type Sessions = ReturnType<typeof createSessions>;
