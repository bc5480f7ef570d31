// The renderer's view of the session: state from main (never a token), the bridge, and the
// session's local cache, shared through context.
import { createContext, useContext, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import type { Bridge } from '../../../shared/bridge/contract';
import type { SessionInfo, SessionState } from '../../../shared/bridge/calls/session';
import type { InboxDb } from '../db/schema';
import { dbForSession } from '../db/schema';

export { BridgeFailure, callOrThrow } from './call';

export function useSessionState(bridge: Bridge): SessionState | undefined {
  const [state, setState] = useState<SessionState>();
  useEffect(() => {
    let live = true;
    const off = bridge.on('session.changed', (s) => live && setState(s));
    void bridge.call('session.get', {}).then((r) => {
      if (live && r.ok) setState(r.value);
    });
    return () => {
      live = false;
      off();
    };
  }, [bridge]);
  return state;
}

interface SessionContextValue {
  bridge: Bridge;
  session: SessionInfo;
  expired: boolean;
  db: InboxDb;
}

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

export function SessionProvider(props: { bridge: Bridge; session: SessionInfo; expired: boolean; children: ReactNode }) {
  const value = { bridge: props.bridge, session: props.session, expired: props.expired, db: dbForSession(props.session.id) };
  return <SessionContext.Provider value={value}>{props.children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
