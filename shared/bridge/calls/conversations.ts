// Conversation reads. Arguments are named and validated; main turns them into a request to the
// signed-in service. The renderer never supplies a URL or a path.
import { z } from 'zod';
import { conversationListSchema, conversationSchema, conversationStatuses, messageListSchema, messageSchema } from '../../api/records';

const id = z.number().int().positive();

export const conversationListInputSchema = z.object({
  page: z.number().int().min(1).max(100_000).default(1),
  status: z.enum([...conversationStatuses, 'all']).default('open'),
  assigneeType: z.enum(['me', 'unassigned', 'assigned', 'all']).default('all'),
  inboxId: id.optional(),
  teamId: id.optional(),
  labels: z.array(z.string().min(1).max(255)).max(50).optional(),
  q: z.string().max(500).optional(),
  /** Every conversation updated within this many seconds, unpaginated (chatwoot-compat §7): catch-up. */
  updatedWithin: z.number().int().min(1).max(366 * 86_400).optional(),
  sortBy: z
    .enum([
      'last_activity_at_desc',
      'last_activity_at_asc',
      'created_at_desc',
      'created_at_asc',
      'priority_desc',
      'priority_asc',
      'waiting_since_desc',
      'waiting_since_asc',
    ])
    .optional(),
});
export type ConversationListInput = z.input<typeof conversationListInputSchema>;

/** Message cursors exactly as the spec's Pagination section: message ids, no page. */
export const messageListInputSchema = z.object({
  conversationId: id,
  before: id.optional(),
  after: z.number().int().min(0).optional(),
});
export type MessageListInput = z.infer<typeof messageListInputSchema>;

/** An entity tag as HTTP writes it (`"12"`, `W/"12"`), or `*`. */
export const etagSchema = z
  .string()
  .max(200)
  .regex(/^(\*|(W\/)?"[\x21\x23-\x7e]*")$/, 'must be an entity tag');

/** The changes feed (SYNC-PROTOCOL.md): what changed after a cursor, in change order. */
export const changesSchema = z.object({
  meta: z.object({ cursor: z.string().min(1).max(200), more: z.boolean() }),
  payload: z.object({
    conversations: z.array(conversationSchema).catch([]),
    messages: z.array(messageSchema).catch([]),
    removed: z.array(z.number()).catch([]),
  }),
});
export type Changes = z.infer<typeof changesSchema>;

export const conversationCalls = {
  'conversations.list': { input: conversationListInputSchema, output: conversationListSchema },
  'conversations.get': { input: z.object({ conversationId: id }), output: conversationSchema },
  /** The conversation with its revision (`ETag`) where the service gives one (null elsewhere), for a write that must not overtake. */
  'conversations.read': { input: z.object({ conversationId: id }), output: z.object({ conversation: conversationSchema, etag: etagSchema.nullable().catch(null) }) },
  /** Catch-up through the service's changes feed (only where `session.features` says it has one). */
  'changes.list': {
    input: z.object({ since: z.string().min(1).max(200).optional(), limit: z.number().int().min(1).max(1000).optional() }),
    output: changesSchema,
  },
  'messages.list': { input: messageListInputSchema, output: messageListSchema },
} as const;
