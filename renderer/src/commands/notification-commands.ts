// Notification commands in the palette: the settings screen, pausing for an hour and resuming, and
// per conversation: mute, or notify on any activity. Each reads the session's settings as the
// inbox last saw them and changes them through the session's notification center.
import { pauseFor, resume } from '../notifications/quiet-time';
import type { NotifySettings } from '../notifications/settings';
import type { Command, CommandRegistry } from './registry';

export interface NotificationCommandContext {
  settings: NotifySettings | undefined;
  update(change: (s: NotifySettings) => NotifySettings): void;
  now(): number;
}

interface Ctx {
  selectedId: number | undefined;
  notifications: NotificationCommandContext;
  setOverlay(o: 'notifications'): void;
}

const HOUR = 3_600_000;
const paused = (ctx: Ctx) => (ctx.notifications.settings?.dnd.pausedUntil ?? 0) > ctx.notifications.now();
const listed = (list: 'muted' | 'watched') => (ctx: Ctx) => ctx.selectedId !== undefined && Boolean(ctx.notifications.settings?.[list].includes(ctx.selectedId));
const toggled = (list: 'muted' | 'watched', on: boolean) => (ctx: Ctx) => {
  const id = ctx.selectedId!;
  ctx.notifications.update((s) => ({ ...s, [list]: on ? [...s[list].filter((x) => x !== id), id] : s[list].filter((x) => x !== id) }));
};

export function registerNotificationCommands<C extends Ctx>(registry: CommandRegistry<C>): CommandRegistry<C> {
  const commands: Command<C>[] = [
    { id: 'notifications.settings', title: 'Notification settings', group: 'Notifications', keywords: 'sound do not disturb rules quiet hours', run: (ctx) => ctx.setOverlay('notifications') },
    {
      id: 'notifications.pause',
      title: 'Pause notifications for 1 hour',
      group: 'Notifications',
      keywords: 'do not disturb dnd quiet mute',
      enabled: (ctx) => Boolean(ctx.notifications.settings) && !paused(ctx),
      run: (ctx) => ctx.notifications.update((s) => ({ ...s, dnd: pauseFor(s.dnd, ctx.notifications.now(), HOUR) })),
    },
    {
      id: 'notifications.resume',
      title: 'Resume notifications',
      group: 'Notifications',
      keywords: 'do not disturb dnd unpause',
      enabled: paused,
      run: (ctx) => ctx.notifications.update((s) => ({ ...s, dnd: resume(s.dnd, ctx.notifications.now()) })),
    },
    { id: 'notifications.mute', title: 'Mute notifications for this conversation', group: 'Notifications', keywords: 'silence', enabled: (ctx) => ctx.selectedId !== undefined && !listed('muted')(ctx), run: toggled('muted', true) },
    { id: 'notifications.unmute', title: 'Unmute this conversation', group: 'Notifications', enabled: listed('muted'), run: toggled('muted', false) },
    { id: 'notifications.watch', title: 'Notify me on any activity here', group: 'Notifications', keywords: 'follow watch subscribe', enabled: (ctx) => ctx.selectedId !== undefined && !listed('watched')(ctx), run: toggled('watched', true) },
    { id: 'notifications.unwatch', title: 'Stop notifying me on any activity here', group: 'Notifications', keywords: 'unfollow unwatch', enabled: listed('watched'), run: toggled('watched', false) },
  ];
  return registry.register(...commands);
}
