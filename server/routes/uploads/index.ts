// Attachment upload (chatwoot-compat §1.15 `POST A/upload`): a multipart `attachment` file, whose
// bytes are kept in SQLite (at most 40 MB, the reference's default upload limit), or an
// `external_url`, which is recorded as given and never fetched (fetching arbitrary URLs from the
// server would be a request-forgery hole). Answers `{file_url, blob_key, blob_id}`; a message can
// then list the blob key in `attachments`. Stored bytes are served at an unguessable URL (the key
// is a 256-bit secret), like a storage service's signed URL, as downloads that never run in our origin.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { input, parseBody } from '../../http/body';
import { badRequest, invalid, notFound } from '../../http/errors';
import { baseUrlOf } from '../../http/scope';
import { cleanFileName, recordExternalUpload, storedFileByKey, storeUploadedFile, uploadUrl } from '../../store/uploads';
import type { RouteDeps } from '../deps';

export const MAX_UPLOAD_BYTES = 40 * 1024 * 1024;
const externalBody = z.object({ external_url: z.string({ error: 'No file or URL provided' }).max(2048).regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL') });
const safeInline = /^(image\/(png|jpeg|gif|webp|bmp)|audio\/[\w.+-]+|video\/[\w.+-]+)$/;

/** `POST A/upload`, in the account scope. */
export function uploadRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (app: FastifyInstance) => {
    // Multipart parsing only where a file is expected (this plugin's own context).
    await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, parts: 21 } });

    // The body is a file or JSON, so it is read here rather than by a body schema (a multipart
    // request has no parsed body for one to judge).
    app.post('/upload', async (request) => {
      const { accountId } = request.caller;
      const now = deps.clock();
      let upload;
      if (request.isMultipart()) {
        const file = await request.file();
        if (!file || file.fieldname !== 'attachment') throw invalid('No file or URL provided', ['attachment']);
        const data = await file.toBuffer();
        // The size limit cuts the file short; @fastify/multipart's toBuffer only throws when the
        // cut is seen between two chunks, so a file whose last chunk read ended at the limit came
        // back whole-looking and was stored cut, with a 200.
        if (file.file.truncated) throw badRequest('Attachment is too large');
        upload = storeUploadedFile(db, { accountId, filename: file.filename, mimetype: file.mimetype, data, now });
      } else {
        const { external_url } = parseBody(externalBody, input(request));
        upload = recordExternalUpload(db, { accountId, filename: cleanFileName(decodeURIComponent(new URL(external_url).pathname).replace(/\/$/, '')), url: external_url, now });
      }
      return { file_url: uploadUrl(upload, baseUrlOf(request)), blob_key: upload.blob_key, blob_id: upload.id };
    });
  };
}

/** `GET /rails/active_storage/blobs/{key}/{filename}`: no token, the key is the credential. */
export function blobRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (app: FastifyInstance) => {
    app.get('/rails/active_storage/blobs/:key/:filename', async (request, reply) => {
      const { key } = request.params as { key: string };
      const row = /^[\w-]{43}$/.test(key) ? storedFileByKey(db, key) : undefined;
      if (!row) throw notFound();
      const inline = safeInline.test(row.content_type);
      return reply
        .header('content-type', inline ? row.content_type : 'application/octet-stream')
        .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(row.filename)}`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=3600')
        .send(row.data);
    });
  };
}
