// Contact writes that may carry an avatar image (spec: Client "Update a contact", `avatar` sent as
// form data; chatwoot-compat §1.4 Application contact create/update `avatar(file)`): multipart
// form-data with an `avatar` file part and the other parameters as form fields. JSON bodies are
// untouched. Only PNG, JPEG, GIF and WebP are kept, recognised by their magic bytes (a declared
// content type is the sender's word, not the file's); a file that is not one, or is over 5 MB, is a
// 422 naming `avatar`. A body busboy cannot read is a 400, never a 5xx.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AvatarChange, AvatarImage } from '../store/contact-avatars';
import { sniffImage } from '../store/contact-avatars';
import { HttpError, badRequest, invalid } from './errors';

export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

/**
 * Multipart parsing for the routes of this encapsulated scope only, so every other route keeps
 * answering a multipart body with 400 (unsupported content type).
 */
export async function acceptContactForms(scope: FastifyInstance) {
  await scope.register(multipart, { limits: { fileSize: MAX_AVATAR_BYTES, files: 1, fields: 50, parts: 51, fieldSize: 65_536 } });
}

export interface ContactForm {
  params: Record<string, unknown>;
  avatar?: AvatarImage;
}

/** Hashes a form may send as a JSON string (`custom_attributes={"plan":"pro"}`). */
const JSON_FIELDS = new Set(['custom_attributes', 'additional_attributes']);
/** Rails bracket form for one level of nesting: `custom_attributes[plan]=pro`. */
const BRACKET = /^(\w{1,64})\[([^[\]]{1,255})\]$/;

/** Own-property assignment: a field named `__proto__` must not reach the prototype. */
const define = (target: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

function setField(params: Record<string, unknown>, name: string, value: string) {
  const nested = BRACKET.exec(name);
  if (nested) {
    const [, outer, inner] = nested as unknown as [string, string, string];
    const current = Object.hasOwn(params, outer) ? params[outer] : undefined;
    const hash = current && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, unknown>) : define(params, outer, {})[outer];
    define(hash as Record<string, unknown>, inner, value);
    return;
  }
  let parsed: unknown = value;
  if (JSON_FIELDS.has(name)) {
    try {
      parsed = JSON.parse(value);
    } catch {
      // Left as the string: validation then names the field (422).
    }
  }
  define(params, name, parsed);
}

/** The form's fields and its checked avatar; undefined when the body is not multipart. */
export async function readContactForm(request: FastifyRequest): Promise<ContactForm | undefined> {
  if (!request.isMultipart()) return undefined;
  const params: Record<string, unknown> = {};
  let avatar: AvatarImage | undefined;
  let failure: HttpError | undefined;
  try {
    // Every part is read to the end before a failure is answered, so a bad part never leaves the
    // request half read.
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname !== 'avatar') failure ??= invalid('Only an avatar file may be sent', [part.fieldname]);
        else avatar = sniffImage(data) ?? undefined;
        if (part.fieldname === 'avatar' && !avatar) failure ??= invalid('Avatar must be a PNG, JPEG, GIF or WebP image', ['avatar']);
      } else if (part.valueTruncated) {
        failure ??= invalid(`${part.fieldname} is too long`, [part.fieldname]);
      } else {
        setField(params, part.fieldname, typeof part.value === 'string' ? part.value : String(part.value));
      }
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw invalid(`Avatar is too large (${MAX_AVATAR_BYTES / 1024 / 1024} MB at most)`, ['avatar']);
    throw badRequest('Request body could not be parsed');
  }
  if (failure) throw failure;
  return avatar ? { params, avatar } : { params };
}

/** avatar_url: only http(s) is recorded; '' or null clears it. */
export const avatarUrlField = z
  .union([z.literal(''), z.null(), z.string().max(2048, 'must be at most 2048 characters').regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL')])
  .transform((v) => v || null)
  .optional();

/** The avatar part of a contact write: a new image and/or a recorded URL; undefined when neither was sent. */
export function avatarChangeOf(fields: { avatar_url?: string | null | undefined }, image: AvatarImage | undefined, baseUrl: string): AvatarChange | undefined {
  const url = fields.avatar_url;
  if (url === undefined && !image) return undefined;
  return { ...(image ? { image } : {}), ...(url !== undefined ? { url } : {}), baseUrl };
}
