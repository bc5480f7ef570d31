// Raising a notification. The desktop app asks main (`app.notify`: an OS notification whose
// click focuses the window and comes back as `app.notificationClicked`). Web mode's host cannot
// reach the OS, so the page uses the browser's Notification API, and only once the agent granted
// it; permission is asked only from the agent's own action (the toggle), never on load.
import type { Bridge } from '../../../shared/bridge/contract';
import type { NotificationContent } from './notification-decision';

export type NotifyOutcome = 'os' | 'browser' | 'none';

/** The browser's Notification API where the page has one. */
const browserNotifications = (): typeof Notification | undefined => (typeof Notification === 'function' ? Notification : undefined);

export const browserPermission = (): NotificationPermission | 'unsupported' => browserNotifications()?.permission ?? 'unsupported';

/** Asks the browser; call from a click or key handler only. */
export async function requestBrowserPermission(): Promise<NotificationPermission | 'unsupported'> {
  const api = browserNotifications();
  if (!api) return 'unsupported';
  if (api.permission !== 'default') return api.permission;
  return api.requestPermission();
}

export async function raiseNotification(bridge: Bridge, content: NotificationContent, open: (conversationId: number) => void): Promise<NotifyOutcome> {
  const asked = await bridge.call('app.notify', { title: content.title, body: content.body, conversationId: content.conversationId });
  if (asked.ok && asked.value.shown) return 'os';
  const api = browserNotifications();
  if (!api || api.permission !== 'granted') return 'none';
  // Title and body are text to the browser; `tag` replaces an older notification of the same conversation.
  const n = new api(content.title, { body: content.body, tag: `conversation-${content.conversationId}` });
  n.onclick = () => {
    window.focus();
    open(content.conversationId);
    n.close();
  };
  return 'browser';
}
