// Sending a reply or a private note. The service does not deduplicate (spec: Retries), so a send
// carries the client's id for it twice: as `echo_id` (echoed in the answer and the live event, not
// stored) and as a marker in `content_attributes` (stored and returned with the message, chatwoot-compat
// §2.4/§2.5). After an unknown outcome the renderer's outbox looks for the marker before it sends again.
import { z } from 'zod';
import { messageSchema } from '../../api/records';

/** The key of the send marker inside `content_attributes`. */
export const CLIENT_MESSAGE_ID_KEY = 'client_message_id';
/** The service's limit (chatwoot-compat §2.5). */
export const MAX_MESSAGE_LENGTH = 150_000;

/** A client id: a UUID, so a marker can never be mistaken for another client's. */
export const clientIdSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a lowercase UUID');

export const messageCreateInputSchema = z.object({
  conversationId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  content: z
    .string()
    .max(MAX_MESSAGE_LENGTH, `A message holds at most ${MAX_MESSAGE_LENGTH} characters`)
    .refine((s) => s.trim().length > 0, 'A message cannot be blank'),
  /** A private note for the team, never shown to the contact. */
  private: z.boolean(),
  clientId: clientIdSchema,
});
export type MessageCreateInput = z.infer<typeof messageCreateInputSchema>;

export const messageCalls = {
  'messages.create': { input: messageCreateInputSchema, output: messageSchema },
} as const;
