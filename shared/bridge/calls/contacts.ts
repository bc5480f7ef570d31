// Contact reads for the contact panel: the contact, its labels, its notes, and its latest conversations.
import { z } from 'zod';
import { contactConversationsSchema, contactLabelsSchema, contactNoteListSchema, contactShowSchema } from '../../api/contacts';

const input = z.object({ contactId: z.number().int().positive() });

export const contactCalls = {
  'contacts.get': { input, output: contactShowSchema },
  'contacts.conversations': { input, output: contactConversationsSchema },
  'contacts.labels': { input, output: contactLabelsSchema },
  'contacts.notes': { input, output: contactNoteListSchema },
} as const;
