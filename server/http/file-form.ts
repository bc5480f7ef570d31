// Multipart form data on routes that take files (chatwoot-compat §2.5: a message create is "JSON or
// multipart", `attachments[]` files; the SDKs send every message create as a form, with or without
// files). Fields follow the body policy's names (`body.ts`: Rack's nested names, `private=true`,
// `content_attributes` as a JSON string); files come back with their bytes for the route to store.
// A body busboy cannot read is 400; a file over the limit is 400 like every oversized body.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseNested } from './body';
import { HttpError, badRequest, invalid } from './errors';

export interface FormFile {
  fieldname: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

export interface FileForm {
  params: Record<string, unknown>;
  files: FormFile[];
}

/** Multipart parsing for the routes of this encapsulated scope only. */
export async function acceptFileForms(scope: FastifyInstance, limits: { fileSize: number; files: number }) {
  await scope.register(multipart, { limits: { ...limits, fields: 100, parts: 100 + limits.files, fieldSize: 200_000 } });
}

/** The form's fields (nested by name) and its files under `fileField`; undefined when the body is not multipart. */
export async function readFileForm(request: FastifyRequest, fileField: string): Promise<FileForm | undefined> {
  if (!request.isMultipart()) return undefined;
  const fields = new URLSearchParams();
  const files: FormFile[] = [];
  let failure: HttpError | undefined;
  try {
    // Every part is read to the end before a failure is answered, so a bad part never leaves the
    // request half read.
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.file.truncated) failure ??= badRequest('Attachment is too large');
        else if (part.fieldname !== fileField) failure ??= invalid(`Files are sent as ${fileField}`, [part.fieldname]);
        else files.push({ fieldname: part.fieldname, filename: part.filename, mimetype: part.mimetype, data });
      } else if (part.valueTruncated) {
        failure ??= invalid(`${part.fieldname} is too long`, [part.fieldname]);
      } else {
        fields.append(part.fieldname, typeof part.value === 'string' ? part.value : String(part.value));
      }
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest('Attachment is too large');
    if (code === 'FST_FILES_LIMIT_REACHED') throw invalid('Too many attachments', [fileField]);
    throw badRequest('Request body could not be parsed');
  }
  if (failure) throw failure;
  return { params: parseNested(fields.toString()), files };
}
