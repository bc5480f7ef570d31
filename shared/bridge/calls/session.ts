// Session calls: sign in with a base URL and an access token. The token goes to main and never
// comes back: no output schema here has a field that could carry it.
import { z } from 'zod';

/** Only http(s) service URLs; no credentials, query or fragment smuggled into the base URL. */
export const baseUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .pipe(z.url({ protocol: /^https?$/, error: 'Enter the service address, starting with https:// or http://' }))
  // No credentials, query or fragment smuggled into the base URL: main appends API paths to it.
  .refine((value) => !/[?#@\\]/.test(value), 'The service address cannot contain ?, #, @ or \\')
  .transform((value) => value.replace(/\/+$/, ''));

export const accessTokenSchema = z
  .string()
  .trim()
  .min(1, 'Enter your access token')
  .max(512)
  .regex(/^[\x21-\x7e]+$/, 'An access token has no spaces or special characters');

export const sessionUserSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionAccountSchema = z.object({ id: z.number(), name: z.string(), role: z.string() });

export const sessionInfoSchema = z.object({
  /** Stable key of the saved session (base URL + user + account); names its local cache. */
  id: z.string(),
  baseUrl: z.string(),
  accountId: z.number(),
  user: sessionUserSchema,
  accounts: z.array(sessionAccountSchema),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

export const sessionStateSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed_out') }),
  z.object({ status: z.literal('signed_in'), session: sessionInfoSchema }),
  z.object({ status: z.literal('expired'), session: sessionInfoSchema }),
]);
export type SessionState = z.infer<typeof sessionStateSchema>;

export const sessionCalls = {
  'session.get': { input: z.object({}), output: sessionStateSchema },
  'session.signIn': {
    input: z.object({ baseUrl: baseUrlSchema, accessToken: accessTokenSchema, accountId: z.number().int().positive().optional() }),
    output: sessionStateSchema,
  },
  'session.signOut': { input: z.object({}), output: sessionStateSchema },
} as const;
