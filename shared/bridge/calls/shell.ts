// Minimal definition of `shell.openExternal` so message links can leave the app through main.
// The shell branch defines this call too (with the Electron window work); when both land, keep
// one definition. Main validates the URL (main/core/security/external-url.ts) before opening it.
import { z } from 'zod';

export const shellCalls = {
  'shell.openExternal': {
    input: z.object({ url: z.string().max(2048) }),
    /**
     * `opened`: the OS opened it. False when this host has no OS opener (web mode): `url` is then
     * the validated, normalised address the page may open in a new browser tab itself.
     */
    output: z.object({ opened: z.boolean(), url: z.string() }),
  },
} as const;
