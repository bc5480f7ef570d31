// The session shell: sign-in (with account picker and saved accounts) when signed out or adding
// an account; otherwise the inbox of the active session, with the re-sign-in dialog over it when
// the session expired, and the weak-storage question when the OS has no keyring. Caches of
// signed-out sessions are deleted before anything shows.
import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import type { Bridge } from '../../shared/bridge/contract';
import { useCachePurge } from './platform/cache-purge';
import { useBridgeConnection } from './platform/connection';
import { SessionProvider, useSessionState } from './platform/session';
import { SessionUiContext } from './platform/session-ui';
import { useUnreadBadge } from './platform/unread-badge';
import { Inbox } from './screens/Inbox';
import { ReauthPrompt } from './screens/ReauthPrompt';
import { SignIn } from './screens/SignIn';
import { TokenStorageConsent } from './screens/TokenStorageConsent';
import './styles/session.css';
import './styles/people.css';

export function App({ bridge }: { bridge: Bridge }) {
  const state = useSessionState(bridge);
  const link = useBridgeConnection(bridge);
  const purged = useCachePurge(bridge);
  const [adding, setAdding] = useState(false);
  const ui = useMemo(() => ({ addAccount: () => setAdding(true) }), []);

  if (link === 'refused') return <HostRestarted />;
  if (!state || !purged) return <p className="loading" role="status">{link === 'disconnected' ? "Loading… (waiting for the app's background process)" : 'Loading…'}</p>;
  if (state.status === 'signed_out' || adding) {
    return (
      <>
        <SignIn bridge={bridge} onSignedIn={() => setAdding(false)} {...(adding && state.status !== 'signed_out' ? { onCancel: () => setAdding(false) } : {})} />
        <TokenStorageConsent bridge={bridge} />
      </>
    );
  }
  const expired = state.status === 'expired';
  return (
    <SessionUiContext.Provider value={ui}>
      <PerSessionQueries key={state.session.id}>
        <SessionProvider key={state.session.id} bridge={bridge} session={state.session} expired={expired}>
          {/* Behind the dialog the inbox stays visible (from the cache) but cannot be used. */}
          <div className="session-root" inert={expired}>
            <Inbox />
          </div>
          <UnreadBadge />
          {expired && <ReauthPrompt bridge={bridge} session={state.session} reason={state.reason} onSwitchAccount={() => setAdding(true)} />}
          <TokenStorageConsent bridge={bridge} />
        </SessionProvider>
      </PerSessionQueries>
    </SessionUiContext.Provider>
  );
}

/**
 * One query cache per session: query keys do not name the session, so after a switch another
 * account's cached answers must not count as fresh.
 */
function PerSessionQueries(props: { children: ReactNode }) {
  const outer = useQueryClient();
  // Keyed by session id where it is rendered, so each session starts with an empty cache.
  const [client] = useState(() => new QueryClient({ defaultOptions: outer.getDefaultOptions() }));
  return <QueryClientProvider client={client}>{props.children}</QueryClientProvider>;
}

/**
 * Web mode's host was started again with another launch secret (no data folder to keep it in):
 * this page cannot prove it is the agent's own any more. Nothing queued is lost (it is in this
 * browser's cache); the address the host printed opens the same inbox.
 */
function HostRestarted() {
  return (
    <main className="sign-in">
      <p role="alert">
        The app was restarted with a new launch key, so this page can no longer reach it. Open the address it printed (npm start or npm run web shows it); everything you queued here
        is kept and will be sent from there.
      </p>
    </main>
  );
}

function UnreadBadge() {
  useUnreadBadge();
  return null;
}
