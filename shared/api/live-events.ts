// Live-update events (chatwoot-compat §4.3) as the app consumes them. The socket's payloads are the
// push shapes (§2.2 conversation push data, §2.6 message push data, §2.7b contact), which differ
// from REST: ISO `first_reply_created_at` and `updated_at`, no `last_non_activity_message`, meta
// keys always present. The REST record schemas are lenient enough to read them (unknown keys are
// dropped, odd fields fall back), so they are reused; what only pushes carry is added here.
//
// Everything here arrives from the network and is untrusted: main parses each event with
// `parseLiveEvent` and drops what does not fit, so the renderer only ever sees these shapes.
// No schema here has a field that could carry a credential: the push's `contact_inbox` (which
// Chatwoot sends with the contact's `pubsub_token`) is not part of any of them.
import { z } from 'zod';
import { contactSchema } from './contacts';
import { conversationSchema, messageSchema, senderSchema } from './records';

const accountId = z.number().int().positive();

/** The small conversation summary a message push carries (§2.6 `conversation`). */
export const pushMessageConversationSchema = z
  .object({
    assignee_id: z.number().nullable().catch(null),
    unread_count: z.number().int().min(0).optional().catch(undefined),
    last_activity_at: z.number().optional().catch(undefined),
  })
  .catch({ assignee_id: null });

/** Conversation events whose payload is the conversation push data. */
export const conversationEventNames = [
  'conversation.created',
  'conversation.updated',
  'conversation.status_changed',
  'conversation.read',
  'conversation.contact_changed',
  'conversation.mentioned',
  'assignee.changed',
  'team.changed',
] as const;
export const messageEventNames = ['message.created', 'message.updated'] as const;
export const typingEventNames = ['conversation.typing_on', 'conversation.typing_off'] as const;
export const contactEventNames = ['contact.created', 'contact.updated'] as const;
/** The account's labels, inboxes or teams changed: read the directory again. */
export const DIRECTORY_EVENT = 'account.cache_invalidated';
export const PRESENCE_EVENT = 'presence.update';

/** An agent's availability (chatwoot-compat §3): anything else reads as offline. */
export const availabilitySchema = z.enum(['online', 'busy', 'offline']).catch('offline');
export type Availability = z.infer<typeof availabilitySchema>;
const idKey = z.string().regex(/^[1-9]\d{0,14}$/);
const bounded = <T extends z.ZodType>(record: T, max: number) => record.refine((o) => Object.keys(o as object).length <= max, `at most ${max} entries`);

/** What main forwards to the renderer: one validated event, tagged by the service's event name. */
export const liveEventSchema = z.union([
  z.object({
    type: z.enum(messageEventNames),
    accountId,
    message: messageSchema,
    conversation: pushMessageConversationSchema,
  }),
  z.object({ type: z.enum(conversationEventNames), accountId, conversation: conversationSchema }),
  z.object({
    type: z.enum(typingEventNames),
    accountId,
    conversationId: z.number(),
    /** Who is typing (an agent or the contact); null when the service could not say. */
    user: senderSchema.nullable(),
    /** An agent writing a private note. */
    isPrivate: z.boolean(),
  }),
  z.object({ type: z.enum(contactEventNames), accountId, contact: contactSchema }),
  /**
   * Presence (chatwoot-compat §4.3): each listed user's availability (users not listed are
   * offline); with the presence extension, `viewing`: conversation display id → the agents who have it open.
   */
  z.object({
    type: z.literal(PRESENCE_EVENT),
    accountId,
    users: bounded(z.record(idKey, availabilitySchema), 10_000),
    viewing: bounded(z.record(idKey, z.array(z.number().int().positive()).max(100)), 10_000).optional(),
  }),
  /** Which collections changed (`label`, `inbox`, `team`), as far as the service says. */
  z.object({ type: z.literal(DIRECTORY_EVENT), accountId, changed: z.array(z.string().max(40)).max(10) }),
  z.object({
    type: z.literal('notification.created'),
    accountId,
    notification: z.object({
      id: z.number(),
      /** conversation_assignment, conversation_mention, … (chatwoot-compat §2.14). */
      notificationType: z.string().max(100),
      /** The conversation's display id, when the notification is about one. */
      conversationId: z.number().nullable(),
      title: z.string(),
      body: z.string(),
      /** Who assigned or mentioned (the service's `secondary_actor`), when it says. */
      actorName: z.string().max(200).nullable().optional(),
      /** A mention's note: its message id and text. */
      messageId: z.number().nullable().optional(),
      quote: z.string().max(2_000).nullable().optional(),
      /** Epoch seconds. */
      createdAt: z.number().nullable().optional(),
    }),
  }),
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;
export type LiveEventType = LiveEvent['type'];

// The socket payloads, lenient where the app does not depend on a field.
const withAccount = { account_id: accountId };
const messagePushSchema = messageSchema.extend({ ...withAccount, conversation: pushMessageConversationSchema.optional() });
const conversationPushSchema = conversationSchema.extend(withAccount);
const typingPushSchema = z.object({
  ...withAccount,
  conversation: z.object({ id: z.number() }).loose(),
  user: senderSchema.nullable().catch(null),
  is_private: z.boolean().catch(false),
});
const contactPushSchema = contactSchema.extend(withAccount);
const presencePushSchema = z.object({
  ...withAccount,
  users: z.record(z.string(), z.unknown()).catch({}),
  viewing: z.record(z.string(), z.unknown()).optional().catch(undefined),
});
const directoryPushSchema = z.object({ ...withAccount, cache_keys: z.record(z.string(), z.unknown()).catch({}) });
const text = (max: number) =>
  z
    .string()
    .nullish()
    .transform((s) => (s ?? '').slice(0, max));
const notificationPushSchema = z.object({
  ...withAccount,
  notification: z.object({
    id: z.number(),
    notification_type: z.string().max(100),
    // primary_actor_id is the conversation's database id; its push data carries the display id.
    primary_actor: z.object({ id: z.number() }).loose().nullish().catch(null),
    push_message_title: text(500),
    push_message_body: text(2_000),
    // A user (assignments) or a message (mentions: its sender is who mentioned); anything else is ignored.
    secondary_actor: z
      .object({
        id: z.number().optional(),
        name: z.string().nullish(),
        available_name: z.string().nullish(),
        content: z.string().nullish(),
        message_type: z.unknown().optional(),
        sender: z.object({ name: z.string().nullish(), available_name: z.string().nullish() }).loose().nullish().catch(null),
      })
      .loose()
      .nullish()
      .catch(null),
    created_at: z.number().nullish().catch(null),
  }),
});

/** Who acted, and the note quoted, from a notification's secondary actor (chatwoot-compat §2.14). */
function actorOf(actor: z.infer<typeof notificationPushSchema>['notification']['secondary_actor']) {
  if (!actor) return { actorName: null, messageId: null, quote: null };
  const isMessage = actor.content !== undefined || actor.message_type !== undefined;
  const name = (isMessage ? actor.sender?.available_name || actor.sender?.name : actor.available_name || actor.name) || null;
  return { actorName: name?.slice(0, 200) ?? null, messageId: isMessage ? (actor.id ?? null) : null, quote: isMessage ? (actor.content ?? '').slice(0, 2_000) || null : null };
}

const has = <T extends string>(names: readonly T[], name: string): name is T => (names as readonly string[]).includes(name);

/**
 * One socket event → the event the renderer gets, or undefined: an event the app does not use
 * (`ignored`) or a payload that does not fit (`malformed`, with the first issue for the log).
 */
export function parseLiveEvent(name: string, data: unknown): { ok: true; event: LiveEvent } | { ok: false; reason: 'ignored' | 'malformed'; issue?: string } {
  const bad = (error: z.ZodError) => {
    const issue = error.issues[0];
    return { ok: false as const, reason: 'malformed' as const, issue: issue ? `${issue.path.join('.') || 'payload'}: ${issue.message}` : 'invalid' };
  };
  if (has(messageEventNames, name)) {
    const p = messagePushSchema.safeParse(data);
    if (!p.success) return bad(p.error);
    const { account_id, conversation, ...message } = p.data;
    return { ok: true, event: { type: name, accountId: account_id, message, conversation: conversation ?? { assignee_id: null } } };
  }
  if (has(conversationEventNames, name)) {
    const p = conversationPushSchema.safeParse(data);
    if (!p.success) return bad(p.error);
    return { ok: true, event: { type: name, accountId: p.data.account_id, conversation: p.data } };
  }
  if (has(typingEventNames, name)) {
    const p = typingPushSchema.safeParse(data);
    if (!p.success) return bad(p.error);
    return { ok: true, event: { type: name, accountId: p.data.account_id, conversationId: p.data.conversation.id, user: p.data.user, isPrivate: p.data.is_private } };
  }
  if (has(contactEventNames, name)) {
    const p = contactPushSchema.safeParse(data);
    if (!p.success) return bad(p.error);
    const { account_id, ...contact } = p.data;
    return { ok: true, event: { type: name, accountId: account_id, contact } };
  }
  if (name === PRESENCE_EVENT) {
    const p = presencePushSchema.safeParse(data);
    if (!p.success) return bad(p.error);
    // Entries that do not fit (a key that is not an id, a list that is not of ids) are left out, not the whole report.
    const users = Object.fromEntries(Object.entries(p.data.users).filter(([k]) => idKey.safeParse(k).success).map(([k, v]) => [k, availabilitySchema.parse(v)]));
    const viewing = p.data.viewing
      ? Object.fromEntries(Object.entries(p.data.viewing).filter(([k, v]) => idKey.safeParse(k).success && Array.isArray(v)).map(([k, v]) => [k, (v as unknown[]).filter((x): x is number => Number.isSafeInteger(x) && (x as number) > 0).slice(0, 100)]))
      : undefined;
    const event = liveEventSchema.safeParse({ type: name, accountId: p.data.account_id, users, ...(viewing ? { viewing } : {}) });
    return event.success ? { ok: true, event: event.data } : bad(event.error);
  }
  if (name === DIRECTORY_EVENT) {
    const p = directoryPushSchema.safeParse(data);
    if (!p.success) return bad(p.error);
    return { ok: true, event: { type: name, accountId: p.data.account_id, changed: Object.keys(p.data.cache_keys).slice(0, 10).map((k) => k.slice(0, 40)) } };
  }
  if (name === 'notification.created') {
    const p = notificationPushSchema.safeParse(data);
    if (!p.success) return bad(p.error);
    const n = p.data.notification;
    return {
      ok: true,
      event: {
        type: name,
        accountId: p.data.account_id,
        notification: {
          id: n.id,
          notificationType: n.notification_type,
          conversationId: n.primary_actor?.id ?? null,
          title: n.push_message_title,
          body: n.push_message_body,
          ...actorOf(n.secondary_actor),
          createdAt: n.created_at ?? null,
        },
      },
    };
  }
  return { ok: false, reason: 'ignored' };
}
