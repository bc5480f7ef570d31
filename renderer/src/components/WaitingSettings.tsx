// Waiting-time colours (palette: "Waiting time colours"): from how many minutes a contact's wait
// shows amber, and from how many red. Saved in the session's cache (waiting/settings.ts); a pair
// that makes no sense is refused with the reason, next to the fields.
import { useEffect, useRef, useState } from 'react';
import { defaultWaitingThresholds } from '../model/waiting';
import { useSession } from '../platform/session';
import { saveThresholds } from '../waiting/settings';
import { useWaitingThresholds } from '../waiting/use-waiting';
import { SettingsSheet } from './SettingsSheet';

export function WaitingSettings({ onClose }: { onClose(): void }) {
  const { db } = useSession();
  const current = useWaitingThresholds();
  const [warn, setWarn] = useState(String(current.warnMinutes));
  const [alert, setAlert] = useState(String(current.alertMinutes));
  const [problem, setProblem] = useState<string>();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const save = async (values: { warn: string; alert: string }) => {
    const refused = await saveThresholds(db, { warnMinutes: Number(values.warn), alertMinutes: Number(values.alert) });
    if (refused) setProblem(refused);
    else onClose();
  };
  return (
    <SettingsSheet titleId="waiting-title" title="Waiting time colours" className="waiting-settings" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save({ warn, alert });
        }}
      >
        <p className="hint">How long a contact may wait for a reply before the list and the header say so. For this account only.</p>
        <label>
          Amber after{' '}
          <input ref={first} type="number" min={1} step={1} value={warn} aria-describedby="waiting-problem" onChange={(e) => setWarn(e.target.value)} /> minutes
        </label>
        <label>
          Red after <input type="number" min={1} step={1} value={alert} aria-describedby="waiting-problem" onChange={(e) => setAlert(e.target.value)} /> minutes
        </label>
        <p id="waiting-problem" className="error" role="alert">
          {problem ?? ''}
        </p>
        <div className="actions">
          <button type="submit">Save</button>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setWarn(String(defaultWaitingThresholds.warnMinutes));
              setAlert(String(defaultWaitingThresholds.alertMinutes));
            }}
          >
            Defaults
          </button>
          <button type="button" className="link-button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </SettingsSheet>
  );
}
