// "Desktop notifications" in the account menu. The desktop app raises OS notifications through
// main; in web mode the browser's permission is needed, and it is asked for here, when the agent
// ticks the box (an explicit action), never on load. Turning it off is kept across restarts.
import { useState } from 'react';
import { browserPermission, requestBrowserPermission } from '../live/notifier';
import { usePreferences } from '../state/preferences';

export function NotificationsToggle({ osNotifications }: { osNotifications: boolean }) {
  const enabled = usePreferences((s) => s.notifications);
  const setEnabled = usePreferences((s) => s.setNotifications);
  const [permission, setPermission] = useState(browserPermission);
  const usable = osNotifications || permission === 'granted';
  const unsupported = !osNotifications && permission === 'unsupported';

  const change = async (on: boolean) => {
    if (!on || osNotifications) return setEnabled(on);
    const answer = await requestBrowserPermission();
    setPermission(answer);
    setEnabled(answer === 'granted');
  };

  return (
    <>
      <label className="choice">
        <input type="checkbox" checked={enabled && usable} disabled={unsupported} onChange={(e) => void change(e.target.checked)} aria-describedby="notifications-hint" />
        Desktop notifications
      </label>
      <p id="notifications-hint" className={`hint${!osNotifications && permission === 'denied' ? ' warn' : ''}`}>
        {unsupported
          ? 'This browser cannot show notifications.'
          : !osNotifications && permission === 'denied'
            ? 'This browser blocks notifications for this page: allow them in its site settings, then tick the box again.'
            : 'New messages for you or nobody, assignments and mentions, while the window is in the background.'}
      </p>
    </>
  );
}
