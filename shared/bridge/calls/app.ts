// Desktop calls: app settings, the unread badge, and opening links outside the app. In web mode
// they answer what the browser cannot do (`supported: false`, `opened: false`) instead of failing.
import { z } from 'zod';

export const appSettingsSchema = z.object({
  launchAtLogin: z.object({ supported: z.boolean(), enabled: z.boolean() }),
  /** Main can raise OS notifications (`app.notify`); false in web mode, where the page uses the browser's. */
  osNotifications: z.boolean(),
});
export type AppSettings = z.infer<typeof appSettingsSchema>;

/**
 * The live-update socket main holds: `connecting` (no connection yet), `connected`, `offline`
 * (dropped or refused; main keeps retrying while a session is signed in). `recovered`: the last
 * connection was a recovery that replayed what was missed.
 */
export const liveStatusSchema = z.object({
  state: z.enum(['connecting', 'connected', 'offline']),
  recovered: z.boolean().optional(),
});
export type LiveStatus = z.infer<typeof liveStatusSchema>;

/** A notification's tag: what the app names it by to replace or close it. */
const notificationTag = z.string().regex(/^[\w:-]{1,100}$/);

/** Plain text only: main strips control characters and truncates again before showing it. */
export const notifyInputSchema = z.object({
  title: z.string().min(1).max(200),
  body: z.string().max(500),
  /** Clicking the notification opens this conversation (`app.notificationClicked`). */
  conversationId: z.number().int().positive().optional(),
  /** A later notification with the same tag replaces this one (a conversation's burst stays one). */
  tag: notificationTag.optional(),
  /** No sound from the OS (the app plays its own, once per alert, none for an update in place). */
  silent: z.boolean().optional(),
});

export const appCalls = {
  'app.getSettings': { input: z.object({}), output: appSettingsSchema },
  'app.updateSettings': { input: z.object({ launchAtLogin: z.boolean().optional() }), output: appSettingsSchema },
  /** The renderer reports the unread count; main shows it on the dock/taskbar badge or tray. */
  'app.setUnreadCount': { input: z.object({ count: z.number().int().min(0).max(1_000_000) }), output: z.object({ shown: z.boolean() }) },
  /** The live-update socket's state now; later changes come as `live.status` events. */
  'app.liveStatus': { input: z.object({}), output: liveStatusSchema },
  /**
   * The conversation the agent has open (null: none), for colleagues to see (the presence
   * extension: main says it over the live connection). `told: false` where the service does not
   * offer it: nothing was sent.
   */
  'app.setViewing': { input: z.object({ conversationId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullable() }), output: z.object({ told: z.boolean() }) },
  /** Raises an OS notification (desktop app). `shown: false` where main cannot (web mode): the page may use the browser's. */
  'app.notify': { input: notifyInputSchema, output: z.object({ shown: z.boolean() }) },
  /** Takes a notification off the screen (the agent opened its conversation). `closed: false` where none is shown. */
  'app.closeNotification': { input: z.object({ tag: notificationTag }), output: z.object({ closed: z.boolean() }) },
  /**
   * Opens a link from a message in the OS browser or mail client. Main allows only http:, https:
   * and mailto: (anything else is `invalid_input`). `opened: false` in web mode: the page opens
   * `url` (the validated address, re-serialised by main) itself in a new tab with rel="noopener noreferrer".
   */
  'shell.openExternal': {
    input: z.object({ url: z.string().min(1).max(2048) }),
    output: z.object({ opened: z.boolean(), url: z.string() }),
  },
} as const;
