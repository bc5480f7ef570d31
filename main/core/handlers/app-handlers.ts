// Bridge calls about the desktop: settings, the unread badge, opening links outside the app.
import type { AppSettings, LiveStatus } from '../../../shared/bridge/calls/app';
import { fail, ok } from '../../../shared/bridge/result';
import type { DesktopHost } from '../desktop/host';
import { notificationText } from '../../../shared/text/notification-text';
import type { Logger } from '../redact';
import { isSafeExternalUrl } from '../security/external-url';
import type { Handlers } from './types';

export interface AppHandlerHooks {
  liveStatus(): LiveStatus;
  /** The conversation the agent has open, for the live connection's presence (answers whether the service is told). */
  setViewing(conversationId: number | null): boolean;
  /** The agent clicked a notification about this conversation (main emits `app.notificationClicked`). */
  notificationClicked(conversationId: number): void;
  /** The agent chose an action on it (main emits `app.notificationAction`). */
  notificationAction(conversationId: number, action: 'markRead'): void;
}

export function appHandlers(desktop: DesktopHost, logger: Logger, hooks: AppHandlerHooks): Handlers<'app' | 'shell'> {
  const settings = async (): Promise<AppSettings> => ({
    launchAtLogin: desktop.launchAtLogin ? { supported: true, enabled: await desktop.launchAtLogin.get() } : { supported: false, enabled: false },
    osNotifications: Boolean(desktop.notify),
  });
  return {
    'app.getSettings': async () => ok(await settings()),
    'app.updateSettings': async (input) => {
      if (input.launchAtLogin !== undefined) {
        if (!desktop.launchAtLogin) return fail('invalid_input', 'Launch at login is not available here.');
        await desktop.launchAtLogin.set(input.launchAtLogin);
      }
      return ok(await settings());
    },
    'app.setUnreadCount': async (input) => ok({ shown: desktop.setUnreadCount?.(input.count) ?? false }),
    'app.liveStatus': async () => ok(hooks.liveStatus()),
    'app.setViewing': async (input) => ok({ told: hooks.setViewing(input.conversationId) }),
    'app.notify': async (input) => {
      if (!desktop.notify) return ok({ shown: false });
      const title = notificationText(input.title, 120);
      if (!title) return fail('invalid_input', 'A notification needs a title.');
      const { conversationId } = input;
      const shown = desktop.notify(
        { title, body: notificationText(input.body, 240), ...(input.tag ? { tag: input.tag } : {}), ...(input.silent !== undefined ? { silent: input.silent } : {}) },
        () => {
          if (conversationId !== undefined) hooks.notificationClicked(conversationId);
        },
        conversationId === undefined ? undefined : (action) => hooks.notificationAction(conversationId, action),
      );
      return ok({ shown });
    },
    'app.closeNotification': async (input) => ok({ closed: desktop.closeNotification?.(input.tag) ?? false }),
    'shell.openExternal': async (input) => {
      if (!isSafeExternalUrl(input.url)) return fail('invalid_input', 'Only web (http, https) and mail (mailto) links open outside the app.');
      const url = new URL(input.url).toString();
      // Web mode: no OS opener here; the page opens the link itself (rel="noopener noreferrer").
      if (!desktop.openExternal) return ok({ opened: false, url });
      try {
        await desktop.openExternal(url);
        return ok({ opened: true, url });
      } catch (err) {
        logger.warn('the OS could not open a link', err);
        return fail('internal', 'The link could not be opened. No application on this computer handles it.');
      }
    },
  };
}
