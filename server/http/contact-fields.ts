// Contact fields sent by contacts themselves (Client contact create/update, widget contact update):
// types are checked by zod (a wrong type is a 400), values by the validation rules the reference
// service applies (a bad email or phone number is a 422 {message, attributes}).
import { z } from 'zod';
import { avatarChangeOf, avatarUrlField } from './contact-form';
import { invalid } from './errors';
import type { ContactPatch } from '../store/writes';

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

export const contactFields = {
  name: text(255).nullish(),
  email: text(255).nullish(),
  phone_number: text(32).nullish(),
  identifier: text(255).nullish(),
  identifier_hash: text(128).nullish(),
  // A URL is recorded, never fetched (contact-form.ts); a picture comes as a multipart file part, so
  // a string `avatar` is accepted and ignored, as before.
  avatar_url: avatarUrlField,
  avatar: text(2048).nullish(),
  custom_attributes: z.record(z.string(), z.unknown()).nullish(),
  additional_attributes: z.record(z.string(), z.unknown()).nullish(),
};
export const contactBody = z.object(contactFields);
export type ContactBody = z.infer<typeof contactBody>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const E164 = /^\+[1-9]\d{1,14}$/;

/** 422 for values the reference service rejects; blank strings clear a field. */
export function contactPatchOf(body: ContactBody, opts: { withIdentifier: boolean }): ContactPatch {
  const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());
  const email = blankToNull(body.email);
  const phone = blankToNull(body.phone_number);
  if (email && !EMAIL.test(email)) throw invalid('Email Invalid email', ['email']);
  if (phone && !E164.test(phone)) throw invalid('Phone number should be in e164 format', ['phone_number']);
  const patch: ContactPatch = {};
  if (body.name != null) patch.name = body.name.trim();
  if (email !== undefined) patch.email = email === null ? null : email.toLowerCase();
  if (phone !== undefined) patch.phoneNumber = phone;
  if (opts.withIdentifier && body.identifier !== undefined) patch.identifier = blankToNull(body.identifier) ?? null;
  if (body.custom_attributes) patch.customAttributes = body.custom_attributes;
  if (body.additional_attributes) patch.additionalAttributes = body.additional_attributes;
  const avatar = avatarChangeOf(body, undefined, '');
  if (avatar) patch.avatar = avatar;
  return patch;
}
