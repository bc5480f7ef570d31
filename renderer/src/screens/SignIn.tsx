// Sign in with the service address and a personal access token, then pick the account when the
// user has several. The token goes to main through the bridge and is never kept in the renderer:
// the field is cleared as soon as main has it. Saved sessions can be reopened from here.
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { Bridge } from '../../../shared/bridge/contract';
import type { ChooseAccount, SavedSession } from '../../../shared/bridge/calls/session';
import { savedSessionDetail, useSavedSessions } from '../platform/saved-sessions';
import { AccountPicker } from './AccountPicker';
import { UntrustedText } from '../components/UntrustedText';

export interface SignInProps {
  bridge: Bridge;
  /** Adding an account while signed in: a way back to the inbox. */
  onCancel?: () => void;
  onSignedIn?: () => void;
}

export function SignIn(props: SignInProps) {
  const [choice, setChoice] = useState<ChooseAccount>();
  const [notice, setNotice] = useState<string>();
  const saved = useSavedSessions(props.bridge);
  const done = () => props.onSignedIn?.();

  return (
    <main className="sign-in">
      {choice ? (
        <AccountPicker
          bridge={props.bridge}
          choice={choice}
          onSignedIn={done}
          onBack={(error) => {
            setChoice(undefined);
            setNotice(error);
          }}
        />
      ) : (
        <SignInForm {...props} notice={notice} onChoose={setChoice} onSignedIn={done} />
      )}
      {!choice && saved.length > 0 && <SavedSessionList bridge={props.bridge} sessions={saved} onOpened={done} />}
    </main>
  );
}

function SignInForm(props: SignInProps & { notice: string | undefined; onChoose(choice: ChooseAccount): void; onSignedIn(): void }) {
  const [baseUrl, setBaseUrl] = useState('');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const alert = error ?? props.notice;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const result = await props.bridge.call('session.signIn', { baseUrl, accessToken: token });
    setToken('');
    setBusy(false);
    if (!result.ok) return setError(result.error.message);
    if (result.value.status === 'choose_account') return props.onChoose(result.value);
    props.onSignedIn();
  }

  return (
    <form onSubmit={submit} aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">{props.onCancel ? 'Add an account' : 'Sign in to your inbox'}</h1>
      <label htmlFor="base-url">Service address</label>
      <input id="base-url" type="url" required placeholder="https://support.example.com" autoComplete="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />
      <label htmlFor="access-token">Access token</label>
      <input id="access-token" type="password" required autoComplete="off" spellCheck={false} value={token} onChange={(e) => setToken(e.target.value)} />
      <p className="hint">Find it in your profile settings on the service, under “Access token”.</p>
      {alert && (
        <p role="alert" className="error">
          {alert}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
      {props.onCancel && (
        <button type="button" className="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      )}
    </form>
  );
}

function SavedSessionList(props: { bridge: Bridge; sessions: SavedSession[]; onOpened(): void }) {
  const [error, setError] = useState<string>();

  async function open(s: SavedSession) {
    setError(undefined);
    const result = await props.bridge.call('session.switch', { sessionId: s.id });
    if (!result.ok) return setError(result.error.message);
    props.onOpened();
  }

  return (
    <section className="saved-sessions" aria-labelledby="saved-sessions-title">
      <h2 id="saved-sessions-title">Saved accounts</h2>
      <ul>
        {props.sessions.map((s) => (
          <li key={s.id}>
            <button type="button" onClick={() => void open(s)}>
              <span className="account-name">
                <UntrustedText text={s.accountName} />
              </span>
              <span className="muted">
                <UntrustedText text={savedSessionDetail(s)} />
              </span>
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <p role="alert" className="error">
          <UntrustedText text={error} />
        </p>
      )}
    </section>
  );
}
