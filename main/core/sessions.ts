// Sessions: sign in with a base URL and an access token (validated through GET /api/v1/profile),
// sign out, and expiry when the service starts answering 401. The token is handed to the vault
// and to the service client; it is never part of any state this module returns.
import type { SessionInfo, SessionState } from '../../shared/bridge/calls/session';
import type { Result } from '../../shared/bridge/result';
import { fail, ok } from '../../shared/bridge/result';
import { profileSchema } from '../../shared/api/records';
import type { Profile } from '../../shared/api/records';
import type { ServiceClient, ServiceClientOptions } from './api/client';
import { createServiceClient } from './api/client';
import type { TokenVault } from './vault';

export interface SessionDeps {
  vault: TokenVault;
  fetch?: typeof fetch;
  clientOptions?: Partial<Omit<ServiceClientOptions, 'baseUrl' | 'token' | 'fetch'>>;
  onChange(state: SessionState): void;
}

interface Active {
  info: SessionInfo;
  client: ServiceClient;
  /** For the live-update socket; never forwarded to the renderer. */
  pubsubToken: string | null;
  expired: boolean;
}

export const sessionIdOf = (baseUrl: string, userId: number, accountId: number) => `${new URL(baseUrl).host}#u${userId}#a${accountId}`;

function toInfo(baseUrl: string, profile: Profile, accountId: number): SessionInfo {
  const account = profile.accounts.find((a) => a.id === accountId);
  return {
    id: sessionIdOf(baseUrl, profile.id, accountId),
    baseUrl,
    accountId,
    user: { id: profile.id, name: profile.available_name || profile.name, email: profile.email, role: account?.role ?? profile.role ?? 'agent' },
    accounts: profile.accounts.map((a) => ({ id: a.id, name: a.name, role: a.role })),
  };
}

export function createSessions(deps: SessionDeps) {
  let active: Active | undefined;

  const state = (): SessionState =>
    !active ? { status: 'signed_out' } : { status: active.expired ? 'expired' : 'signed_in', session: active.info };
  const changed = () => deps.onChange(state());
  const clientFor = (baseUrl: string, token: string) =>
    createServiceClient({ ...deps.clientOptions, baseUrl, token, ...(deps.fetch ? { fetch: deps.fetch } : {}) });

  async function signIn(input: { baseUrl: string; accessToken: string; accountId?: number }): Promise<Result<SessionState>> {
    const client = clientFor(input.baseUrl, input.accessToken);
    const profile = await client.send({ method: 'GET', path: '/api/v1/profile' }, profileSchema);
    if (!profile.ok) {
      if (profile.error.kind === 'unauthorized') return fail('unauthorized', 'The service did not accept this access token.', { status: 401 });
      if (profile.error.kind === 'not_found' || profile.error.kind === 'bad_response') {
        return fail('bad_response', 'No Customer Messaging Service answered at this address.');
      }
      return profile;
    }
    const accounts = profile.value.accounts;
    if (accounts.length === 0) return fail('forbidden', 'This user belongs to no account.');
    const accountId = input.accountId ?? profile.value.account_id ?? accounts[0]!.id;
    if (!accounts.some((a) => a.id === accountId)) return fail('not_found', 'This user is not a member of that account.');
    const info = toInfo(input.baseUrl, profile.value, accountId);
    await deps.vault.save(info.id, input.accessToken);
    active = { info, client, pubsubToken: profile.value.pubsub_token ?? null, expired: false };
    changed();
    return ok(state());
  }

  async function signOut(): Promise<Result<SessionState>> {
    if (active) await deps.vault.delete(active.info.id);
    active = undefined;
    changed();
    return ok(state());
  }

  /** The service answered 401 to a session that used to work: keep it, mark it, ask to sign in again. */
  function markExpired() {
    if (active && !active.expired) {
      active.expired = true;
      changed();
    }
  }

  return {
    state,
    signIn,
    signOut,
    markExpired,
    current: () => (active && !active.expired ? active : undefined),
  };
}
export type Sessions = ReturnType<typeof createSessions>;
