// Contact writes (chatwoot-compat §1.4): the contact's details and custom attributes (PATCH merges
// attributes, so removing one is its own call), its labels (the whole set, replaced), and its
// notes. Like the conversation writes, each goes to the service once (main never retries a POST);
// the renderer's outbox decides about repeats. Inputs are bounded here, never judged: whether an
// email or a phone number is valid is the service's to say (its 422 names the field).
import { z } from 'zod';
import { contactNoteSchema, contactShowSchema } from '../../api/contacts';
import { clientIdSchema } from './messages';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const MAX_CONTACT_ATTRIBUTES = 100;
export const MAX_CONTACT_NOTE_LENGTH = 65_535;

/** A custom attribute's name and value as the agent types them (text, number, yes/no). */
export const attributeKeySchema = z.string().trim().min(1, 'An attribute needs a name').max(255);
const attributeValueSchema = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);

export const contactUpdateInputSchema = z.object({
  contactId: id,
  name: z.string().max(255).optional(),
  /** null or '' clears it. */
  email: z.string().max(320).nullable().optional(),
  phoneNumber: z.string().max(40).nullable().optional(),
  /** Merged into the contact's attributes (set these, keep the rest). */
  customAttributes: z.record(attributeKeySchema, attributeValueSchema).refine((o) => Object.keys(o).length <= MAX_CONTACT_ATTRIBUTES, 'Too many attributes').optional(),
});

/** `head :ok` or an empty body: nothing to read. */
const empty = z.unknown().transform(() => null);

export const contactWriteCalls = {
  'contacts.update': { input: contactUpdateInputSchema, output: contactShowSchema },
  /** `destroy_custom_attributes`: drops these attributes. Answers the contact. */
  'contacts.removeAttributes': { input: z.object({ contactId: id, keys: z.array(attributeKeySchema).min(1).max(MAX_CONTACT_ATTRIBUTES) }), output: contactShowSchema },
  /** Replaces the contact's whole label set. Answers it. */
  'contacts.setLabels': {
    input: z.object({ contactId: id, labels: z.array(z.string().trim().min(1).max(255)).max(100).refine((l) => new Set(l).size === l.length, 'Each label once') }),
    output: z.object({ payload: z.array(z.string()).catch([]) }),
  },
  /** A note; `clientId` goes as the `Idempotency-Key` (a service that honours it answers a repeat with the first note). */
  'contacts.createNote': {
    input: z.object({
      contactId: id,
      content: z.string().max(MAX_CONTACT_NOTE_LENGTH).refine((s) => s.trim().length > 0, 'A note cannot be blank'),
      clientId: clientIdSchema,
    }),
    output: contactNoteSchema,
  },
  'contacts.deleteNote': { input: z.object({ contactId: id, noteId: id }), output: empty },
} as const;
