// Raising a notification. The desktop app asks main (`app.notify`: an OS notification whose click
// focuses the window and comes back as `app.notificationClicked`, with "Mark read" where the OS
// offers actions). Web mode's host cannot reach the OS, so the page uses the browser's
// Notification API, and only once the agent granted it; permission is asked only from the agent's
// own action (the toggle), never on load. Both are raised silent: the app plays its own sound
// (sound.ts), so it is heard even where the OS mutes notification sounds, and an update in place
// (same tag) makes no sound at all.
import type { Bridge } from '../../../shared/bridge/contract';

export type NotifyOutcome = 'os' | 'browser' | 'none';

export interface Raised {
  tag: string;
  title: string;
  body: string;
  conversationId?: number;
}

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

/** Raises notifications for one session; remembers the browser's by tag, to replace or close them. */
export function createRaiser(bridge: Bridge, open: (conversationId: number | undefined) => void) {
  const shownInBrowser = new Map<string, Notification>();
  return {
    async raise(n: Raised): Promise<NotifyOutcome> {
      const asked = await bridge.call('app.notify', { title: n.title, body: n.body, tag: n.tag, silent: true, ...(n.conversationId ? { conversationId: n.conversationId } : {}) });
      if (asked.ok && asked.value.shown) return 'os';
      const api = browserNotifications();
      if (!api || api.permission !== 'granted') return 'none';
      // Title and body are text to the browser; the tag replaces the earlier one of the same conversation.
      const shown = new api(n.title, { body: n.body, tag: n.tag, silent: true });
      shownInBrowser.set(n.tag, shown);
      shown.onclick = () => {
        window.focus();
        open(n.conversationId);
        shown.close();
      };
      shown.onclose = () => {
        if (shownInBrowser.get(n.tag) === shown) shownInBrowser.delete(n.tag);
      };
      return 'browser';
    },
    close(tag: string): void {
      void bridge.call('app.closeNotification', { tag });
      shownInBrowser.get(tag)?.close();
      shownInBrowser.delete(tag);
    },
  };
}
export type Raiser = ReturnType<typeof createRaiser>;
