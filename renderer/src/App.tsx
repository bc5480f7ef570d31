import type { Bridge } from '../../shared/bridge/contract';
import { SessionProvider, useSessionState } from './platform/session';
import { Inbox } from './screens/Inbox';
import { SignIn } from './screens/SignIn';

export function App({ bridge }: { bridge: Bridge }) {
  const state = useSessionState(bridge);
  if (!state) return <p className="loading" role="status">Loading…</p>;
  if (state.status === 'signed_out') return <SignIn bridge={bridge} />;
  if (state.status === 'expired') return <SignIn bridge={bridge} expiredFor={{ baseUrl: state.session.baseUrl, email: state.session.user.email }} />;
  return (
    <SessionProvider key={state.session.id} bridge={bridge} session={state.session} expired={false}>
      <Inbox />
    </SessionProvider>
  );
}
