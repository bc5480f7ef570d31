// From the profile the service returns to the session info the bridge carries. The profile holds
// `access_token` and `pubsub_token`; neither is copied.
import type { SessionInfo } from '../../../shared/bridge/calls/session';
import type { Profile } from '../../../shared/api/records';

/**
 * Stable per service + user + account: names the renderer's `inbox:<id>` cache, survives re-sign-in.
 * The service is its origin and path, so http and https, or two services under one host, never
 * share a session or a cache.
 */
export function sessionIdOf(baseUrl: string, userId: number, accountId: number): string {
  const url = new URL(baseUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}#u${userId}#a${accountId}`;
}

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
