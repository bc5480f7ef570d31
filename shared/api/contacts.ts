// A contact as the Application API returns it (chatwoot-compat §2.7a) and the contact's
// conversations (§1.4: latest 20, full conversation records). Untrusted, parsed by main.
import { z } from 'zod';
import { conversationSchema, freeObject } from './records';

export const contactSchema = z.object({
  id: z.number(),
  name: z.string().nullable().catch(null),
  email: z.string().nullish(),
  phone_number: z.string().nullish(),
  identifier: z.string().nullish(),
  thumbnail: z.string().nullish(),
  blocked: z.boolean().catch(false),
  availability_status: z.string().nullish(),
  additional_attributes: freeObject,
  custom_attributes: freeObject,
  /** Epoch seconds; the key is absent when the contact never wrote. */
  last_activity_at: z.number().nullish().catch(null),
  created_at: z.number().catch(0),
});
/** The contact, and its labels once they were read (`GET contacts/{id}/labels`; not in the contact record). */
export type Contact = z.infer<typeof contactSchema> & { labels?: string[] };

export const contactShowSchema = z.object({ payload: contactSchema });
export const contactConversationsSchema = z.object({ payload: z.array(conversationSchema) });
export const contactLabelsSchema = z.object({ payload: z.array(z.string()).catch([]) });

/** A note on a contact (§2.13): who wrote it (the agent partial, when the service says) and when (epoch seconds). */
export const contactNoteSchema = z.object({
  id: z.number(),
  content: z.string().catch(''),
  user: z.object({ id: z.number(), name: z.string().catch(''), available_name: z.string().nullish() }).nullish().catch(null),
  created_at: z.number().catch(0),
  updated_at: z.number().catch(0),
});
export type ContactNote = z.infer<typeof contactNoteSchema>;
/** `GET contacts/{id}/notes`: a bare array, latest first. */
export const contactNoteListSchema = z.array(contactNoteSchema);
