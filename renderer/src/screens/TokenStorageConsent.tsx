// The OS offers no real encryption (Linux without a keyring): before the token is stored in a
// weaker form, the agent decides. Until then main holds it in memory only.
import { useEffect, useRef, useState } from 'react';
import type { Bridge } from '../../../shared/bridge/contract';
import { useTokenStorage } from '../platform/saved-sessions';
import { UntrustedText } from '../components/UntrustedText';

export function TokenStorageConsent(props: { bridge: Bridge }) {
  const [storage, setStorage] = useTokenStorage(props.bridge);
  const [error, setError] = useState<string>();
  const first = useRef<HTMLButtonElement>(null);
  const asking = storage?.protection === 'weak' && storage.choice === 'ask' && storage.unsaved > 0;
  useEffect(() => {
    if (asking) first.current?.focus();
  }, [asking]);
  if (!asking) return null;

  async function choose(choice: 'store_weak' | 'each_launch') {
    const result = await props.bridge.call('session.setTokenStorage', { choice });
    if (result.ok) setStorage(result.value);
    else setError(result.error.message);
  }

  return (
    <div className="modal-backdrop">
      <div role="alertdialog" aria-modal="true" aria-labelledby="consent-title" aria-describedby="consent-description" className="modal">
        <h2 id="consent-title">Keep your access token on this computer?</h2>
        <div id="consent-description">
          <p>This computer has no system keyring, so Agent Inbox cannot encrypt your token properly.</p>
          <p>
            It can keep the token in a file only your user account can open. That is weak protection: anyone who can read your files can read the token. Or you can
            enter the token each time you start the app.
          </p>
        </div>
        {error && (
          <p role="alert" className="error">
            <UntrustedText text={error} />
          </p>
        )}
        <div className="actions">
          <button ref={first} type="button" onClick={() => void choose('each_launch')}>
            Enter it each launch
          </button>
          <button type="button" className="secondary" onClick={() => void choose('store_weak')}>
            Keep it with weak protection
          </button>
        </div>
      </div>
    </div>
  );
}
