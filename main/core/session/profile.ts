// From the profile the service returns to the session info the bridge carries. The profile holds
// `access_token` and `pubsub_token`; neither is copied.
import type { SessionInfo } from '../../../shared/bridge/calls/session';
import type { Profile } from '../../../shared/api/records';

/** Stable per service + user + account: names the renderer's `inbox:<id>` cache, survives re-sign-in. */
export const sessionIdOf = (baseUrl: string, userId: number, accountId: number) => `${new URL(baseUrl).host}#u${userId}#a${accountId}`;

export function sessionInfoOf(baseUrl: string, profile: Profile, accountId: number): SessionInfo {
  const account = profile.accounts.find((a) => a.id === accountId);
  return {
    id: sessionIdOf(baseUrl, profile.id, accountId),
    baseUrl,
    accountId,
    user: { id: profile.id, name: profile.available_name || profile.name, email: profile.email, role: account?.role ?? profile.role ?? 'agent' },
    accounts: profile.accounts.map((a) => ({ id: a.id, name: a.name, role: a.role })),
  };
}
