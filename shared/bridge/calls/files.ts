// Files from the service, fetched by main and handed over as bytes: a message's attachment and a
// contact's picture. The renderer names what it wants by ids (never a URL): main reads the message
// or the contact itself, fetches from the service's own origin only, checks the bytes' type by
// content, and answers either the bytes (base64, bounded) or why it did not fetch them. The page
// turns the bytes into a `blob:` URL, so it still loads nothing from the network.
import { z } from 'zod';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** The most main hands over for one attachment (bytes); larger ones are `too_large`. */
export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;
/** The most main hands over for one contact's picture (the service takes 5 MB avatars). */
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

/**
 * What the bytes are, by their content (never by the name or the declared type): `image`, `audio`,
 * `video` and `pdf` are shown in the app with exactly `mime`; `file` is anything else (text, markup,
 * archives, documents), handed over as `application/octet-stream` to be saved, never rendered.
 */
export const fileKinds = ['image', 'audio', 'video', 'pdf', 'file'] as const;
export type FileKind = (typeof fileKinds)[number];

/**
 * Why main did not hand a file over: `other_host` (its address is not the service's own origin, or a
 * redirect left it), `too_large`, `program` (an executable or installer: never handed over),
 * `contains_secret` (the bytes hold a credential main keeps), `unsupported` (a contact's picture that
 * is not an image), `no_file` (no such attachment, or no picture), `bad_address` (not an http(s)
 * address, or one with credentials in it).
 */
export const fileRefusals = ['other_host', 'too_large', 'program', 'contains_secret', 'unsupported', 'no_file', 'bad_address'] as const;
export type FileRefusal = (typeof fileRefusals)[number];

/** Base64 of at most `bytes` bytes. */
const base64Of = (bytes: number) => z.base64().max(Math.ceil(bytes / 3) * 4);

const fetchedFile = (maxBytes: number) =>
  z.discriminatedUnion('status', [
    z.object({
      status: z.literal('ok'),
      kind: z.enum(fileKinds),
      mime: z.string().max(100).regex(/^[a-z]+\/[a-z0-9.+-]+$/),
      size: z.number().int().min(0).max(maxBytes),
      data: base64Of(maxBytes),
    }),
    z.object({ status: z.literal('refused'), reason: z.enum(fileRefusals) }),
  ]);

export const attachmentFileSchema = fetchedFile(MAX_ATTACHMENT_BYTES);
export type AttachmentFile = z.infer<typeof attachmentFileSchema>;
export const avatarFileSchema = fetchedFile(MAX_AVATAR_BYTES);
export type AvatarFile = z.infer<typeof avatarFileSchema>;

export const fileCalls = {
  /** One attachment of one message, by ids; main looks the message up on the service. */
  'files.attachment': { input: z.object({ conversationId: id, messageId: id, attachmentId: id }), output: attachmentFileSchema },
  /** A contact's picture (`thumbnail`, never `avatar_url`); main reads the contact on the service. */
  'files.avatar': { input: z.object({ contactId: id }), output: avatarFileSchema },
} as const;
