// The session needs its token again: the service answered 401, or the agent chose to enter the
// token each launch. A dialog over the inbox (which stays visible, read from the cache), signing
// in to the same server, user and account, so the session id, its cache and any queued work stay.
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { Bridge } from '../../../shared/bridge/contract';
import type { ExpiryReason, SessionInfo } from '../../../shared/bridge/calls/session';
import { hostOf } from '../platform/saved-sessions';
import { UntrustedText } from '../components/UntrustedText';

export function ReauthPrompt(props: { bridge: Bridge; session: SessionInfo; reason: ExpiryReason | undefined; onSwitchAccount(): void }) {
  const { session } = props;
  const [token, setToken] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const account = session.accounts.find((a) => a.id === session.accountId)?.name ?? 'your account';
  const rejected = props.reason !== 'token_needed';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    // `sessionId`: main refuses a token of another user instead of switching to them.
    const result = await props.bridge.call('session.signIn', { baseUrl: session.baseUrl, accessToken: token, accountId: session.accountId, sessionId: session.id });
    setToken('');
    setBusy(false);
    if (!result.ok) setError(result.error.message);
  }

  return (
    <div className="modal-backdrop">
      <div role="dialog" aria-modal="true" aria-labelledby="reauth-title" aria-describedby="reauth-description" className="modal">
        <form onSubmit={submit}>
          <h2 id="reauth-title">{rejected ? 'Your session expired' : 'Enter your access token'}</h2>
          <p id="reauth-description">
            {rejected ? 'The service no longer accepts your access token. ' : 'You chose to enter your token each time the app starts. '}
            Sign in again as <UntrustedText text={session.user.email} /> to <UntrustedText text={account} /> on {hostOf(session.baseUrl)}. Nothing you queued is lost.
          </p>
          <label htmlFor="reauth-token">Access token</label>
          <input ref={input} id="reauth-token" type="password" required autoComplete="off" spellCheck={false} value={token} onChange={(e) => setToken(e.target.value)} />
          {error && (
            <p role="alert" className="error">
              <UntrustedText text={error} />
            </p>
          )}
          <div className="actions">
            <button type="submit" disabled={busy}>
              {busy ? 'Signing in…' : 'Sign in'}
            </button>
            <button type="button" className="secondary" onClick={props.onSwitchAccount}>
              Use another account
            </button>
            <button type="button" className="secondary" onClick={() => void props.bridge.call('session.signOut', { sessionId: session.id })}>
              Sign out
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
