// Uploaded files (POST A/upload) and the attachment metadata messages carry. File bytes live in
// SQLite beside their metadata (capped, see routes/uploads/); a blob key is an unguessable bearer
// name, like a storage service's signed URL, so the app can show an image without a token.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/open';
import { stmt } from '../db/open';

/** Attachment metadata for a new message (the bytes stay wherever `dataUrl` points). */
export interface NewAttachment {
  fileType: 'image' | 'audio' | 'video' | 'file' | 'location' | 'fallback';
  extension?: string | null;
  dataUrl?: string | null;
  thumbUrl?: string | null;
  fileSize?: number | null;
  width?: number | null;
  height?: number | null;
  fallbackTitle?: string | null;
}

export interface UploadRow {
  id: number;
  account_id: number;
  blob_key: string;
  filename: string;
  content_type: string;
  byte_size: number;
  checksum: string | null;
  external_url: string | null;
  created_at: number;
}

export const uploadByKey = (db: Db, accountId: number, key: string) =>
  stmt(db, 'SELECT id, account_id, blob_key, filename, content_type, byte_size, checksum, external_url, created_at FROM uploads WHERE account_id = ? AND blob_key = ?').get(accountId, key) as
    | UploadRow
    | undefined;

/** Stores a file's bytes under its blob key; answers the new upload's id. */
export function insertUploadBytes(db: Db, f: { accountId: number; key: string; filename: string; contentType: string; data: Buffer; now: number }): number {
  const checksum = createHash('sha256').update(f.data).digest('hex');
  return Number(
    stmt(db, 'INSERT INTO uploads (account_id, blob_key, filename, content_type, byte_size, checksum, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
      f.accountId,
      f.key,
      f.filename,
      f.contentType,
      f.data.length,
      checksum,
      f.data,
      f.now,
    ).lastInsertRowid,
  );
}

/** The last path segment, without control characters or quotes, at most 255 characters. */
export const cleanFileName = (name: string) =>
  [...(name.split(/[\\/]/).pop() ?? '')]
    .filter((ch) => ch.charCodeAt(0) >= 32 && ch !== '"')
    .join('')
    .slice(0, 255) || 'file';

/** Stores an uploaded file under a new unguessable blob key (a declared type that is not a MIME type is octet-stream). */
export function storeUploadedFile(db: Db, f: { accountId: number; filename: string; mimetype: string; data: Buffer; now: number }): UploadRow {
  const key = randomBytes(32).toString('base64url');
  const contentType = /^[\w.+-]+\/[\w.+-]+$/.test(f.mimetype) ? f.mimetype.toLowerCase() : 'application/octet-stream';
  insertUploadBytes(db, { accountId: f.accountId, key, filename: cleanFileName(f.filename), contentType, data: f.data, now: f.now });
  return uploadByKey(db, f.accountId, key)!;
}

/** An upload that only records an external URL (never fetched). */
export function recordExternalUpload(db: Db, f: { accountId: number; filename: string; url: string; now: number }): UploadRow {
  const key = randomBytes(32).toString('base64url');
  stmt(db, "INSERT INTO uploads (account_id, blob_key, filename, content_type, byte_size, external_url, created_at) VALUES (?, ?, ?, 'application/octet-stream', 0, ?, ?)").run(
    f.accountId,
    key,
    f.filename,
    f.url,
    f.now,
  );
  return uploadByKey(db, f.accountId, key)!;
}

/** A message attachment made from an upload (its bytes, or the URL it was recorded from). */
export function attachmentOfUpload(upload: UploadRow, baseUrl: string): NewAttachment {
  return {
    fileType: fileTypeOf(upload.content_type),
    extension: extensionOf(upload.filename),
    dataUrl: uploadUrl(upload, baseUrl),
    fileSize: upload.byte_size,
    fallbackTitle: upload.filename,
  };
}

/** Where an upload can be fetched: its stored bytes, or the external URL it was created from. */
export function uploadUrl(u: Pick<UploadRow, 'blob_key' | 'filename' | 'external_url'>, baseUrl: string): string {
  return u.external_url ?? `${baseUrl}/rails/active_storage/blobs/${u.blob_key}/${encodeURIComponent(u.filename)}`;
}

/** File type from the MIME type, as the reference service derives it (chatwoot-compat §2.5). */
export function fileTypeOf(contentType: string | undefined): NewAttachment['fileType'] {
  const mime = (contentType ?? '').toLowerCase();
  if (['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/webp'].includes(mime)) return 'image';
  if (['video/ogg', 'video/mp4', 'video/webm', 'video/quicktime'].includes(mime)) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'file';
}

export function extensionOf(filename: string | undefined | null): string | null {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(filename ?? '');
  return match ? match[1]!.toLowerCase() : null;
}

/** A stored file's bytes by blob key (an external-URL upload has none). */
export const storedFileByKey = (db: Db, key: string) =>
  stmt(db, 'SELECT filename, content_type, data FROM uploads WHERE blob_key = ? AND data IS NOT NULL').get(key) as { filename: string; content_type: string; data: Buffer } | undefined;
