// Sign in with the service address and a personal access token. The token goes to main through
// the bridge and is never kept in the renderer: the field is cleared once main has it.
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { Bridge } from '../../../shared/bridge/contract';

export function SignIn(props: { bridge: Bridge; expiredFor?: { baseUrl: string; email: string } }) {
  const [baseUrl, setBaseUrl] = useState(props.expiredFor?.baseUrl ?? '');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const result = await props.bridge.call('session.signIn', { baseUrl, accessToken: token });
    setToken('');
    setBusy(false);
    if (!result.ok) setError(result.error.message);
  }

  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">{props.expiredFor ? 'Your session expired' : 'Sign in to your inbox'}</h1>
        {props.expiredFor && <p>Sign in again as {props.expiredFor.email}. Nothing you queued is lost.</p>}
        <label htmlFor="base-url">Service address</label>
        <input id="base-url" type="url" required placeholder="https://support.example.com" autoComplete="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />
        <label htmlFor="access-token">Access token</label>
        <input id="access-token" type="password" required autoComplete="off" spellCheck={false} value={token} onChange={(e) => setToken(e.target.value)} />
        <p className="hint">Find it in your profile settings on the service, under “Access token”.</p>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
