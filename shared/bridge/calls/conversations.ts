// Conversation reads. Arguments are named and validated; main turns them into a request to the
// signed-in service. The renderer never supplies a URL or a path.
import { z } from 'zod';
import { conversationListSchema, conversationSchema, conversationStatuses, messageListSchema } from '../../api/records';

const id = z.number().int().positive();

export const conversationListInputSchema = z.object({
  page: z.number().int().min(1).max(100_000).default(1),
  status: z.enum([...conversationStatuses, 'all']).default('open'),
  assigneeType: z.enum(['me', 'unassigned', 'assigned', 'all']).default('all'),
  inboxId: id.optional(),
  teamId: id.optional(),
  labels: z.array(z.string().min(1).max(255)).max(50).optional(),
  q: z.string().max(500).optional(),
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

export const conversationCalls = {
  'conversations.list': { input: conversationListInputSchema, output: conversationListSchema },
  'conversations.get': { input: z.object({ conversationId: id }), output: conversationSchema },
  'messages.list': { input: messageListInputSchema, output: messageListSchema },
} as const;
