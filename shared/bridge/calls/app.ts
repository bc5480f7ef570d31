// Desktop calls: app settings, the unread badge, and opening links outside the app. In web mode
// they answer what the browser cannot do (`supported: false`, `opened: false`) instead of failing.
import { z } from 'zod';

export const appSettingsSchema = z.object({
  launchAtLogin: z.object({ supported: z.boolean(), enabled: z.boolean() }),
});
export type AppSettings = z.infer<typeof appSettingsSchema>;

export const appCalls = {
  'app.getSettings': { input: z.object({}), output: appSettingsSchema },
  'app.updateSettings': { input: z.object({ launchAtLogin: z.boolean().optional() }), output: appSettingsSchema },
  /** The renderer reports the unread count; main shows it on the dock/taskbar badge or tray. */
  'app.setUnreadCount': { input: z.object({ count: z.number().int().min(0).max(1_000_000) }), output: z.object({ shown: z.boolean() }) },
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
