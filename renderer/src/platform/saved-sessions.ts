// The saved sessions (servers/accounts) and the token-storage choice, refreshed whenever main
// says the session changed.
import { useEffect, useState } from 'react';
import type { Bridge } from '../../../shared/bridge/contract';
import type { SavedSession, TokenStorage } from '../../../shared/bridge/calls/session';

function useRefreshedOnSessionChange<T>(bridge: Bridge, load: () => Promise<T | undefined>): T | undefined {
  const [value, setValue] = useState<T>();
  useEffect(() => {
    let live = true;
    const refresh = () => void load().then((v) => live && v !== undefined && setValue(v));
    refresh();
    const off = bridge.on('session.changed', refresh);
    return () => {
      live = false;
      off();
    };
    // `load` is recreated each render; the bridge is what identifies the source.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bridge]);
  return value;
}

export function useSavedSessions(bridge: Bridge): SavedSession[] {
  return useRefreshedOnSessionChange(bridge, async () => {
    const r = await bridge.call('session.list', {});
    return r.ok ? r.value.sessions : undefined;
  }) ?? [];
}

export function useTokenStorage(bridge: Bridge): [TokenStorage | undefined, (s: TokenStorage) => void] {
  const [override, setOverride] = useState<TokenStorage>();
  const loaded = useRefreshedOnSessionChange(bridge, async () => {
    setOverride(undefined);
    const r = await bridge.call('session.tokenStorage', {});
    return r.ok ? r.value : undefined;
  });
  return [override ?? loaded, setOverride];
}

/** `support.example.com` from `https://support.example.com`: what the agent recognises. */
export const hostOf = (baseUrl: string) => {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
};

/** The line under a saved account's name: who, where, and whether it needs the token again. */
export const savedSessionDetail = (s: SavedSession) => `${s.userEmail} · ${hostOf(s.baseUrl)}${s.status === 'needs_token' ? ' · needs your token' : ''}`;
