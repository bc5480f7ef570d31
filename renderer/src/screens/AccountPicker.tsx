// The token is valid and the user belongs to several accounts: pick one. Main holds the token;
// this screen only has an opaque, single-use id for the pending sign-in.
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { Bridge } from '../../../shared/bridge/contract';
import type { ChooseAccount } from '../../../shared/bridge/calls/session';
import { hostOf } from '../platform/saved-sessions';
import { UntrustedText } from '../components/UntrustedText';

export function AccountPicker(props: { bridge: Bridge; choice: ChooseAccount; onBack(error?: string): void; onSignedIn(): void }) {
  const { choice } = props;
  const [accountId, setAccountId] = useState(choice.accounts[0]?.id);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (accountId === undefined) return;
    setBusy(true);
    setError(undefined);
    const result = await props.bridge.call('session.chooseAccount', { pendingId: choice.pendingId, accountId });
    setBusy(false);
    if (result.ok) return props.onSignedIn();
    // The pending sign-in expired or was used: back to the form, which says why.
    if (result.error.kind === 'invalid_input') return props.onBack(result.error.message);
    setError(result.error.message);
  }

  return (
    <form onSubmit={submit} aria-labelledby="pick-account-title" className="account-picker">
      <h1 id="pick-account-title" tabIndex={-1} ref={heading}>
        Choose an account
      </h1>
      <p>
        <UntrustedText text={choice.user.name} /> (<UntrustedText text={choice.user.email} />) belongs to several accounts on {hostOf(choice.baseUrl)}.
      </p>
      <fieldset>
        <legend>Account</legend>
        {choice.accounts.map((a) => (
          <label key={a.id} className="choice">
            <input type="radio" name="account" value={a.id} checked={accountId === a.id} onChange={() => setAccountId(a.id)} />
            <span>
              <UntrustedText text={a.name} />
            </span>{' '}
            <span className="muted">{a.role}</span>
          </label>
        ))}
      </fieldset>
      {error && (
        <p role="alert" className="error">
          <UntrustedText text={error} />
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Opening…' : 'Continue'}
      </button>
      <button type="button" className="secondary" onClick={() => props.onBack()}>
        Back
      </button>
    </form>
  );
}
