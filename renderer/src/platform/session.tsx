// The renderer's view of the session: state from main (never a token), and the session's client
// runtime (client/inbox-client.ts: its cache, outbox, live updates, search), shared through context.
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import type { Bridge } from '../../../shared/bridge/contract';
import type { SessionInfo, SessionState } from '../../../shared/bridge/calls/session';
import type { ClientView, InboxClient } from '../client/inbox-client';
import { createInboxClient, sessionDbName } from '../client/inbox-client';
import { rememberSession, takeEarlyDb } from '../conversations/early-rows';
import type { InboxDb } from '../db/schema';
import type { BackoffPolicy } from '../actions/retry-policy';
import { clientView } from '../client/view';
import { onReconnect } from './connection';

export { BridgeFailure, callOrThrow } from './call';

export function useSessionState(bridge: Bridge): SessionState | undefined {
  const [state, setState] = useState<SessionState>();
  useEffect(() => {
    let live = true;
    const off = bridge.on('session.changed', (s) => live && setState(s));
    const ask = () =>
      void bridge.call('session.get', {}).then((r) => {
        if (live && r.ok) setState(r.value);
      });
    ask();
    // A restarted host (web mode) may have another session: ask again when the link is back.
    const offReconnect = onReconnect(bridge, ask);
    return () => {
      live = false;
      off();
      offReconnect();
    };
  }, [bridge]);
  return state;
}

interface SessionContextValue {
  bridge: Bridge;
  session: SessionInfo;
  expired: boolean;
  db: InboxDb;
  client: InboxClient;
}

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

/** Settings for clients made here (tests shorten the waits). */
export const clientSettings: { backoff?: BackoffPolicy } = {};

/**
 * One client per session: made once for this provider (keyed by session where it is rendered),
 * or handed in (tests that drive the client directly). Its background work runs while the inbox
 * holds it (`useClientRunning`).
 */
export function SessionProvider(props: { bridge: Bridge; session: SessionInfo; expired: boolean; client?: InboxClient; view?: ClientView; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [client] = useState(
    () =>
      props.client ??
      createInboxClient({
        bridge: props.bridge,
        session: props.session,
        view: props.view ?? clientView(props.bridge, queryClient),
        ...(clientSettings.backoff ? { backoff: clientSettings.backoff } : {}),
        // The cache opened for the cold open's early read (conversations/early-rows.ts), when it is this session's.
        ...withEarlyDb(props.session),
      }),
  );
  // The next cold open reads this session's first rows before main has answered.
  useEffect(() => rememberSession(sessionDbName(props.session.id), props.session.user.id), [props.session.id, props.session.user.id]);
  // A client made here ends with the provider (a tick later, so React's development remount keeps it).
  const own = props.client === undefined;
  useEffect(() => (own ? client.keepOpen() : undefined), [client, own]);
  const value = { bridge: props.bridge, session: props.session, expired: props.expired, db: client.db, client };
  return <SessionContext.Provider value={value}>{props.children}</SessionContext.Provider>;
}

function withEarlyDb(session: SessionInfo): { db?: InboxDb; firstRowsReadEarly?: boolean } {
  const db = takeEarlyDb(sessionDbName(session.id));
  return db ? { db, firstRowsReadEarly: true } : {};
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The session's client runtime. */
export const useInboxClient = (): InboxClient => useSession().client;

/** Runs the session's background work (outbox, live events, catch-up) while the caller is mounted. */
export function useClientRunning(): void {
  const client = useInboxClient();
  useEffect(() => client.retain(), [client]);
}
