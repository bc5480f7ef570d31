// Record shapes of the Customer Messaging Service as the app consumes them.
//
// The spec leaves conversation and message fields "not shown"; these follow
// ../shared/reference/chatwoot-compat.md (§2) so the app also works against real installations.
// Everything here arrives from the network and is untrusted: main parses every response with these
// schemas before anything crosses the bridge. Unknown keys are dropped; fields the app does not
// depend on fall back (`.catch`) instead of failing a whole list because one installation differs.
import { z } from 'zod';
import { conversationStatuses, messageTypes, priorities } from './record-values';

// The fixed values live apart from the schemas (record-values.ts: the renderer imports them there).
export { conversationStatuses, messageTypes, priorities } from './record-values';
export type { ConversationStatus, MessageTypeName, Priority } from './record-values';

export const epochSeconds = z.number().catch(0);
export const nullableString = z.string().nullable().catch(null);
export const freeObject = z.record(z.string(), z.unknown()).catch({});

const messageType = z.union([
  z.number().int().min(0).max(3),
  z.enum(['incoming', 'outgoing', 'activity', 'template']).transform((name) => messageTypes[name]),
]);

/** A user, contact or bot as embedded in other records (push_event_data shapes). */
export const senderSchema = z.object({
  id: z.number(),
  name: nullableString,
  available_name: z.string().nullish(),
  email: z.string().nullish(),
  thumbnail: z.string().nullish(),
  avatar_url: z.string().nullish(),
  type: z.string().nullish(),
});
export type Sender = z.infer<typeof senderSchema>;

export const attachmentSchema = z.object({
  id: z.number(),
  message_id: z.number().optional(),
  file_type: z.string().catch('file'),
  extension: z.string().nullish(),
  data_url: z.string().nullish(),
  thumb_url: z.string().nullish(),
  file_size: z.number().nullish(),
  fallback_title: z.string().nullish(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const messageSchema = z.object({
  id: z.number(),
  content: z.string().nullable().catch(null),
  inbox_id: z.number().optional(),
  conversation_id: z.number(),
  message_type: messageType,
  content_type: z.string().catch('text'),
  status: z.string().nullish(),
  content_attributes: freeObject,
  created_at: epochSeconds,
  private: z.boolean().catch(false),
  source_id: z.string().nullish(),
  sender: senderSchema.nullish(),
  attachments: z.array(attachmentSchema).optional(),
  echo_id: z.string().optional(),
});
export type Message = z.infer<typeof messageSchema>;

export const teamSlimSchema = z.object({ id: z.number(), name: z.string() });

export const conversationSchema = z.object({
  id: z.number(),
  account_id: z.number().optional(),
  uuid: z.string().optional(),
  inbox_id: z.number(),
  status: z.enum(conversationStatuses),
  priority: z.enum(priorities).nullable().catch(null),
  labels: z.array(z.string()).catch([]),
  meta: z
    .object({
      sender: senderSchema.nullish(),
      assignee: senderSchema.nullish(),
      assignee_type: z.string().nullish(),
      team: teamSlimSchema.nullish(),
      channel: z.string().nullish(),
      hmac_verified: z.boolean().nullish(),
    })
    .catch({}),
  messages: z.array(messageSchema).catch([]),
  last_non_activity_message: messageSchema.nullish().catch(null),
  unread_count: z.number().catch(0),
  agent_last_seen_at: epochSeconds,
  contact_last_seen_at: epochSeconds,
  last_activity_at: epochSeconds,
  timestamp: epochSeconds,
  created_at: epochSeconds,
  /**
   * When the service last changed the conversation (epoch seconds with a fraction; REST and push
   * alike, chatwoot-compat §2.1/§2.2). The cache never lets an answer older than the one it holds
   * replace it. Absent from services that do not send it.
   */
  updated_at: z.number().optional().catch(undefined),
  waiting_since: epochSeconds,
  snoozed_until: nullableString,
  muted: z.boolean().catch(false),
  can_reply: z.boolean().catch(true),
  custom_attributes: freeObject,
  additional_attributes: freeObject,
});
export type Conversation = z.infer<typeof conversationSchema>;

export const conversationCountsSchema = z.object({
  mine_count: z.number().catch(0),
  unassigned_count: z.number().catch(0),
  assigned_count: z.number().catch(0),
  all_count: z.number().catch(0),
});
export type ConversationCounts = z.infer<typeof conversationCountsSchema>;

export const conversationListSchema = z.object({
  data: z.object({ meta: conversationCountsSchema, payload: z.array(conversationSchema) }),
});
export type ConversationList = z.infer<typeof conversationListSchema>;

export const messageListSchema = z.object({
  meta: freeObject.optional(),
  payload: z.array(messageSchema),
});
export type MessageList = z.infer<typeof messageListSchema>;

export const roles = ['administrator', 'agent'] as const;
export type Role = (typeof roles)[number];

export const profileAccountSchema = z.object({
  id: z.number(),
  name: z.string(),
  role: z.string().catch('agent'),
  status: z.string().optional(),
});

/**
 * The profile as the service returns it. It carries `access_token` and `pubsub_token`: main reads
 * them and never forwards this record; the bridge carries `SessionUser` instead.
 */
export const profileSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string().catch(''),
  available_name: z.string().nullish(),
  account_id: z.number().nullish(),
  role: z.string().nullish(),
  pubsub_token: z.string().nullish(),
  accounts: z.array(profileAccountSchema).catch([]),
});
export type Profile = z.infer<typeof profileSchema>;
