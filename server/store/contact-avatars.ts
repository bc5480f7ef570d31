// A contact's avatar. The image bytes are an uploads row, so they are kept and served exactly as
// attachment uploads are (routes/uploads/: an unguessable key, an image content type, a sandboxing
// CSP). The contact's `thumbnail` is the absolute URL of those bytes, or null without an avatar. An
// `avatar_url` is recorded as given and never fetched nor rendered: thumbnail only ever points at
// bytes this service serves (see server/README.md).
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { ContactRow } from './contacts';
import { insertUploadBytes, uploadUrl } from './uploads';

/** An image already checked (magic bytes, size) by http/contact-form.ts. */
export interface AvatarImage {
  data: Buffer;
  contentType: string;
  extension: string;
}

/**
 * What a write does to the avatar: `image` a new picture (null removes it), `url` the recorded
 * avatar_url (null clears it), `baseUrl` where the service is reached (for the absolute thumbnail).
 */
export interface AvatarChange {
  image?: AvatarImage | null;
  url?: string | null;
  baseUrl?: string;
}

/** The image formats an avatar may be, by their magic bytes (a declared type is not trusted). */
const SIGNATURES: { contentType: string; extension: string; matches: (b: Buffer) => boolean }[] = [
  { contentType: 'image/png', extension: 'png', matches: (b) => b.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')) },
  { contentType: 'image/jpeg', extension: 'jpg', matches: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { contentType: 'image/gif', extension: 'gif', matches: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')) },
  { contentType: 'image/webp', extension: 'webp', matches: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
];

export function sniffImage(data: Buffer): AvatarImage | null {
  const kind = SIGNATURES.find((s) => s.matches(data));
  return kind ? { data, contentType: kind.contentType, extension: kind.extension } : null;
}

/**
 * Applies an avatar change inside the caller's transaction and returns the changes a
 * contact.updated event reports (`thumbnail` only: the recorded avatar_url is shown to no one).
 */
export function applyAvatar(db: Db, c: ContactRow, change: AvatarChange | undefined, now: number): Record<string, [unknown, unknown]> {
  if (!change) return {};
  if (change.url !== undefined && change.url !== c.avatar_external_url) {
    stmt(db, 'UPDATE contacts SET avatar_external_url = ? WHERE id = ?').run(change.url, c.id);
  }
  if (change.image === undefined || (change.image === null && c.avatar_upload_id === null)) return {};
  let uploadId: number | null = null;
  let thumbnail: string | null = null;
  if (change.image) {
    const key = randomBytes(32).toString('base64url');
    const filename = `avatar.${change.image.extension}`;
    const { data, contentType } = change.image;
    uploadId = insertUploadBytes(db, { accountId: c.account_id, key, filename, contentType, data, now });
    thumbnail = uploadUrl({ blob_key: key, filename, external_url: null }, change.baseUrl ?? '');
  }
  stmt(db, 'UPDATE contacts SET avatar_upload_id = ?, thumbnail = ?, updated_at = ? WHERE id = ?').run(uploadId, thumbnail, now, c.id);
  // The old picture's bytes go with it: its URL stops serving.
  if (c.avatar_upload_id !== null) stmt(db, 'DELETE FROM uploads WHERE id = ?').run(c.avatar_upload_id);
  return { thumbnail: [c.thumbnail ?? '', thumbnail ?? ''] };
}

/** A deleted contact's avatar bytes are deleted with it. */
export function deleteAvatarOf(db: Db, c: ContactRow): void {
  if (c.avatar_upload_id !== null) stmt(db, 'DELETE FROM uploads WHERE id = ?').run(c.avatar_upload_id);
}
