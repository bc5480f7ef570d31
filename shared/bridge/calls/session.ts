// Session calls: sign in with a base URL and an access token, pick the account, switch between
// saved sessions, sign out. The token goes to main and never comes back: no output schema here has
// a field that could carry it (tests/unit/bridge-token-free.test.ts walks every schema to prove it).
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

const id = z.number().int().positive();
/** Session ids are `host#u<user>#a<account>`; bounded so a bad caller cannot send megabytes. */
export const sessionIdSchema = z.string().min(1).max(300);

export const sessionUserSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionAccountSchema = z.object({ id: z.number(), name: z.string(), role: z.string() });
export type SessionAccount = z.infer<typeof sessionAccountSchema>;

export const sessionInfoSchema = z.object({
  /** Stable key of the saved session (base URL + user + account); names its local cache. */
  id: z.string(),
  baseUrl: z.string(),
  accountId: z.number(),
  user: sessionUserSchema,
  accounts: z.array(sessionAccountSchema),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/**
 * Why a session needs its token again: the service answered 401 (`token_rejected`), or main has
 * no token for it this launch (`token_needed`: the agent chose to enter it each launch).
 */
export const expiryReasons = ['token_rejected', 'token_needed'] as const;
export type ExpiryReason = (typeof expiryReasons)[number];

/** The service's optional help (SYNC-PROTOCOL.md). */
export const serviceFeaturesSchema = z.object({
  /** `Idempotency-Key` on creating POSTs: a repeated send returns the first one's answer. */
  idempotencyKey: z.boolean(),
  /** Conversation `ETag` and `If-Match` on its writes: a write of a stale revision does nothing (412). */
  conversationEtag: z.boolean(),
  /** `GET A/changes`: what changed after a cursor, for catch-up. */
  changesFeed: z.boolean(),
  /**
   * Presence over the live connection beyond Chatwoot's: `update_presence` answered over socket.io
   * too, and who has which conversation open (`viewing`). Absent: availability comes from the
   * agents list (and ActionCable's `presence.update`), and nobody is shown viewing.
   */
  presence: z.boolean(),
});
export type ServiceFeatures = z.infer<typeof serviceFeaturesSchema>;

export const sessionStateSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed_out') }),
  z.object({ status: z.literal('signed_in'), session: sessionInfoSchema }),
  /** Same session id as before: its local cache and queued work stay; sign in again to resume. */
  z.object({ status: z.literal('expired'), session: sessionInfoSchema, reason: z.enum(expiryReasons).optional() }),
]);
export type SessionState = z.infer<typeof sessionStateSchema>;

/** The token is valid and the user belongs to several accounts: main holds it until one is picked. */
export const chooseAccountSchema = z.object({
  status: z.literal('choose_account'),
  /** Single-use handle for `session.chooseAccount`; expires after a few minutes. Not a credential. */
  pendingId: z.string(),
  baseUrl: z.string(),
  user: z.object({ name: z.string(), email: z.string() }),
  accounts: z.array(sessionAccountSchema),
});
export type ChooseAccount = z.infer<typeof chooseAccountSchema>;

export const signInResultSchema = z.discriminatedUnion('status', [...sessionStateSchema.options, chooseAccountSchema]);
export type SignInResult = z.infer<typeof signInResultSchema>;

/** A saved server + account: what the switcher lists. */
export const savedSessionSchema = z.object({
  id: z.string(),
  baseUrl: z.string(),
  accountId: z.number(),
  accountName: z.string(),
  userName: z.string(),
  userEmail: z.string(),
  /** `active`: in use; `ready`: main holds its token, switch any time; `needs_token`: enter it again. */
  status: z.enum(['active', 'ready', 'needs_token']),
});
export type SavedSession = z.infer<typeof savedSessionSchema>;

/**
 * Where tokens are kept. `os`: the OS keychain encrypts them. `weak`: the OS offers no real
 * encryption (Linux without a keyring), so storing needs the agent's consent. `memory`: never
 * written (web mode): tokens are entered each launch.
 */
export const tokenStorageSchema = z.object({
  protection: z.enum(['os', 'weak', 'memory']),
  /** `ask`: not decided yet; `store_weak`: the agent agreed to weak storage; `each_launch`: declined. */
  choice: z.enum(['not_needed', 'ask', 'store_weak', 'each_launch']),
  /** Sessions whose tokens are held in memory only, waiting for the choice. */
  unsaved: z.number().int().min(0),
});
export type TokenStorage = z.infer<typeof tokenStorageSchema>;

const sessionIdsSchema = z.object({ sessionIds: z.array(z.string()) });

export const sessionCalls = {
  'session.get': { input: z.object({}), output: sessionStateSchema },
  /**
   * What the active session's service advertises beyond the spec (`X-Inbox-Extensions`, SYNC-PROTOCOL.md),
   * as last seen on one of its responses; all false until one was seen, or for a service without it.
   */
  'session.features': { input: z.object({}), output: serviceFeaturesSchema },
  /** Validates the token with GET /api/v1/profile. Several accounts and no `accountId`: `choose_account`. */
  'session.signIn': {
    input: z.object({
      baseUrl: baseUrlSchema,
      accessToken: accessTokenSchema,
      accountId: id.optional(),
      /** Signing in again to this session (expired, or token entered each launch): a token of another user is refused. */
      sessionId: sessionIdSchema.optional(),
    }),
    output: signInResultSchema,
  },
  'session.chooseAccount': { input: z.object({ pendingId: z.string().min(1).max(100), accountId: id }), output: sessionStateSchema },
  'session.list': { input: z.object({}), output: z.object({ sessions: z.array(savedSessionSchema) }) },
  'session.switch': { input: z.object({ sessionId: sessionIdSchema }), output: sessionStateSchema },
  /** Deletes the session's token and asks the renderer to delete its cache (`session.cacheObsolete`). */
  'session.signOut': { input: z.object({ sessionId: sessionIdSchema.optional() }), output: sessionStateSchema },
  /** Caches of signed-out sessions not yet deleted (the renderer may have been closed at sign-out). */
  'session.obsoleteCaches': { input: z.object({}), output: sessionIdsSchema },
  /** The renderer deleted `inbox:<sessionId>`; answers the ids still to delete. */
  'session.cacheDeleted': { input: z.object({ sessionId: sessionIdSchema }), output: sessionIdsSchema },
  'session.tokenStorage': { input: z.object({}), output: tokenStorageSchema },
  'session.setTokenStorage': { input: z.object({ choice: z.enum(['store_weak', 'each_launch']) }), output: tokenStorageSchema },
} as const;
