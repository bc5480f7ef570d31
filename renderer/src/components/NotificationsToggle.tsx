// "Desktop notifications" in the account menu: the session's master switch. The desktop app raises
// OS notifications through main; in web mode the browser's permission is needed, and it is asked
// for here, when the agent ticks the box (an explicit action), never on load. The rules, sound and
// do not disturb are on the settings screen (palette: "Notification settings").
import { useState } from 'react';
import { browserPermission, requestBrowserPermission } from '../notifications/raise';
import { useNotifySettings } from '../notifications/use-settings';

export function NotificationsToggle({ osNotifications, onSettings }: { osNotifications: boolean; onSettings?(): void }) {
  const [settings, update] = useNotifySettings();
  const [permission, setPermission] = useState(browserPermission);
  const enabled = settings?.enabled ?? true;
  const usable = osNotifications || permission === 'granted';
  const unsupported = !osNotifications && permission === 'unsupported';

  const change = async (on: boolean) => {
    if (!on || osNotifications) return update((s) => ({ ...s, enabled: on }));
    const answer = await requestBrowserPermission();
    setPermission(answer);
    await update((s) => ({ ...s, enabled: answer === 'granted' }));
  };

  return (
    <>
      <label className="choice">
        <input type="checkbox" checked={enabled && usable} disabled={unsupported || !settings} onChange={(e) => void change(e.target.checked)} aria-describedby="notifications-hint" />
        Desktop notifications
      </label>
      <p id="notifications-hint" className={`hint${!osNotifications && permission === 'denied' ? ' warn' : ''}`}>
        {unsupported
          ? 'This browser cannot show notifications.'
          : !osNotifications && permission === 'denied'
            ? 'This browser blocks notifications for this page: allow them in its site settings, then tick the box again.'
            : 'New messages for you, assignments and mentions. While you look at the app, as a toast with a sound.'}
      </p>
      {onSettings && (
        <button type="button" className="link-button" onClick={onSettings}>
          Notification settings…
        </button>
      )}
    </>
  );
}
