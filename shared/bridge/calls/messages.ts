// Sending a reply or a private note. The service does not deduplicate (spec: Retries), so a send
// carries the client's id for it twice: as `echo_id` (echoed in the answer and the live event, not
// stored) and as a marker in `content_attributes` (stored and returned with the message, chatwoot-compat
// §2.4/§2.5). After an unknown outcome the renderer's outbox looks for the marker before it sends again.
import { z } from 'zod';
import { messageSchema } from '../../api/records';
import { MAX_MESSAGE_LENGTH, MAX_UPLOAD_FILE_BYTES, MAX_UPLOAD_FILES, MAX_UPLOAD_TOTAL_BYTES } from './message-limits';

export { CLIENT_MESSAGE_ID_KEY, MAX_MESSAGE_LENGTH, MAX_UPLOAD_FILE_BYTES, MAX_UPLOAD_FILES, MAX_UPLOAD_TOTAL_BYTES } from './message-limits';

/** A client id: a UUID, so a marker can never be mistaken for another client's. */
export const clientIdSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a lowercase UUID');


/** Bytes in a base64 text (without decoding it). */
export const base64Bytes = (b64: string) => Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

/**
 * A file the agent attached: its name as the agent's computer gave it, the type the page read for
 * it (the service decides what it is; main sends it as declared), and its bytes in base64.
 */
export const outgoingFileSchema = z.object({
  // A name is shown and sent as a header parameter: no control characters, which could break either.
  // eslint-disable-next-line no-control-regex
  name: z.string().min(1).max(255).regex(/^[^\x00-\x1f\x7f]+$/, 'must not hold control characters'),
  type: z.string().max(255).regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type'),
  data: z.base64().max(Math.ceil(MAX_UPLOAD_FILE_BYTES / 3) * 4, `A file holds at most ${MAX_UPLOAD_FILE_BYTES / 1024 / 1024} MB here`),
});
export type OutgoingFile = z.infer<typeof outgoingFileSchema>;

export const messageCreateInputSchema = z
  .object({
    conversationId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    /** The text, or a file's caption; blank only when files go with it. */
    content: z.string().max(MAX_MESSAGE_LENGTH, `A message holds at most ${MAX_MESSAGE_LENGTH} characters`),
    /** A private note for the team, never shown to the contact. */
    private: z.boolean(),
    clientId: clientIdSchema,
    /** Files: the message then goes as multipart form data with `attachments[]`, as Chatwoot's own dashboard sends it. */
    attachments: z.array(outgoingFileSchema).min(1).max(MAX_UPLOAD_FILES, `At most ${MAX_UPLOAD_FILES} files per message`).optional(),
  })
  .superRefine((m, ctx) => {
    if (!m.attachments && m.content.trim().length === 0) ctx.addIssue({ code: 'custom', path: ['content'], message: 'A message cannot be blank' });
    const total = (m.attachments ?? []).reduce((sum, f) => sum + base64Bytes(f.data), 0);
    if (total > MAX_UPLOAD_TOTAL_BYTES) ctx.addIssue({ code: 'custom', path: ['attachments'], message: `The files of one message hold at most ${MAX_UPLOAD_TOTAL_BYTES / 1024 / 1024} MB together` });
  });
export type MessageCreateInput = z.infer<typeof messageCreateInputSchema>;

/** How much of a message's files main has handed to the service so far (bytes of the request body). */
export const uploadProgressSchema = z.object({ clientId: clientIdSchema, sent: z.number().int().min(0), total: z.number().int().min(0) });
export type UploadProgress = z.infer<typeof uploadProgressSchema>;

export const messageCalls = {
  'messages.create': { input: messageCreateInputSchema, output: messageSchema },
} as const;
