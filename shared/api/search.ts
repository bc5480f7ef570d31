// The service's account-wide search, `GET /api/v1/accounts/{id}/search?q=&page=`
// (chatwoot-compat §1.12, partials §2.15): 15 results per type per page. Articles are dropped.
// One malformed hit must not hide the others, so each list keeps the entries that parse.
import { z } from 'zod';
import { freeObject, messageSchema } from './records';

export const searchContactSchema = z.object({
  id: z.number(),
  name: z.string().nullable().catch(null),
  email: z.string().nullish(),
  phone_number: z.string().nullish(),
  identifier: z.string().nullish(),
  additional_attributes: freeObject,
  last_activity_at: z.number().nullish().catch(null),
});
export type SearchContact = z.infer<typeof searchContactSchema>;

export const searchConversationSchema = z.object({
  /** The display id. */
  id: z.number(),
  created_at: z.number().catch(0),
  message: messageSchema.nullish().catch(null),
  contact: z.object({ id: z.number(), name: z.string().nullable().catch(null) }).nullish().catch(null),
  inbox: z.object({ id: z.number(), name: z.string().catch('') }).nullish().catch(null),
  agent: z.object({ id: z.number(), available_name: z.string().nullish(), name: z.string().nullish() }).nullish().catch(null),
});
export type SearchConversation = z.infer<typeof searchConversationSchema>;

/** Keeps the items of a list that parse; drops the rest instead of failing the whole answer. */
const lenientList = <T extends z.ZodType>(item: T) =>
  z
    .array(z.unknown())
    .catch([])
    .transform((items) => items.flatMap((raw) => {
      const parsed = item.safeParse(raw);
      return parsed.success ? [parsed.data as z.output<T>] : [];
    }));

export const searchResultsSchema = z.object({
  payload: z.object({
    conversations: lenientList(searchConversationSchema).optional().transform((v) => v ?? []),
    contacts: lenientList(searchContactSchema).optional().transform((v) => v ?? []),
    messages: lenientList(messageSchema).optional().transform((v) => v ?? []),
  }),
});
export type SearchResults = z.infer<typeof searchResultsSchema>;
