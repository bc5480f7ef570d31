// The header's account control: which account this is, the other saved accounts to switch to,
// add an account, desktop notifications, launch at login (where the desktop offers it), sign out. A disclosure (button +
// panel): Escape or a click outside closes it and focus returns to the button.
import { useEffect, useRef, useState } from 'react';
import type { AppSettings } from '../../../shared/bridge/calls/app';
import { savedSessionDetail, useSavedSessions } from '../platform/saved-sessions';
import { NotificationsToggle } from './NotificationsToggle';
import { useSession } from '../platform/session';
import { useSessionUi } from '../platform/session-ui';
import { UntrustedText } from './UntrustedText';
import { useUi } from '../state/ui';

export function SessionSwitcher() {
  const { bridge, session } = useSession();
  const { addAccount } = useSessionUi();
  const saved = useSavedSessions(bridge);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string>();
  const [settings, setSettings] = useState<AppSettings>();
  const toggle = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const account = session.accounts.find((a) => a.id === session.accountId)?.name ?? 'Account';
  const others = saved.filter((s) => s.id !== session.id);

  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) toggle.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    void bridge.call('app.getSettings', {}).then((r) => r.ok && setSettings(r.value));
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close();
    const onPointer = (e: PointerEvent) => {
      if (!panel.current?.contains(e.target as Node) && !toggle.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, bridge]);

  const run = async (action: () => Promise<{ ok: boolean; error?: { message: string } }>) => {
    setError(undefined);
    const result = await action();
    if (!result.ok) setError(result.error?.message ?? 'That did not work.');
    else setOpen(false);
  };

  return (
    <div className="session-switcher">
      <button ref={toggle} type="button" className="switcher-toggle" aria-expanded={open} aria-controls="session-switcher-panel" onClick={() => setOpen(!open)}>
        <span className="visually-hidden">Accounts: signed in to </span>
        <UntrustedText text={account} />{' '}
        <span className="muted">
          · <UntrustedText text={session.user.email} />
        </span>
      </button>
      {open && (
        <div ref={panel} id="session-switcher-panel" className="switcher-panel" role="group" aria-label="Accounts">
          {others.length > 0 && (
            <ul aria-label="Switch to">
              {others.map((s) => (
                <li key={s.id}>
                  <button type="button" onClick={() => void run(() => bridge.call('session.switch', { sessionId: s.id }))}>
                    Switch to <UntrustedText text={s.accountName} />
                    <span className="muted">
                      {' '}
                      <UntrustedText text={savedSessionDetail(s)} />
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <button
            type="button"
            onClick={() => {
              setOpen(false);
              addAccount();
            }}
          >
            Add an account…
          </button>
          {settings && (
            <NotificationsToggle
              osNotifications={settings.osNotifications}
              onSettings={() => {
                close(false);
                useUi.getState().setOverlay('notifications');
              }}
            />
          )}
          {settings?.launchAtLogin.supported && (
            <label className="choice">
              <input
                type="checkbox"
                checked={settings.launchAtLogin.enabled}
                onChange={(e) => void bridge.call('app.updateSettings', { launchAtLogin: e.target.checked }).then((r) => (r.ok ? setSettings(r.value) : setError(r.error.message)))}
              />
              Start Agent Inbox when I log in
            </label>
          )}
          <button type="button" onClick={() => void run(() => bridge.call('session.signOut', { sessionId: session.id }))}>
            Sign out of <UntrustedText text={account} />
          </button>
          <p className="hint">Signing out deletes this account’s token and what is saved of it on this computer.</p>
          {error && (
            <p role="alert" className="error">
              <UntrustedText text={error} />
            </p>
          )}
        </div>
      )}
    </div>
  );
}
