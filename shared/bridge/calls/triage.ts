// Conversation writes (triage): status with snooze, priority, assignee, team, the label set, and
// the read markers. Each one sets an end state ("status = resolved", "labels = [a, b]"), so the
// renderer's outbox may repeat one after an unknown outcome and land in the same place. Main never
// retries them itself (a POST goes once). Inputs are bounded; outputs are lenient like records.ts.
import { z } from 'zod';
import { agentSchema } from '../../api/directory';
import { conversationSchema, conversationStatuses, priorities } from '../../api/records';
import { etagSchema } from './conversations';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** The service's largest accepted time (9999-12-31), in epoch seconds. */
const MAX_EPOCH_SECONDS = 253_402_300_799;
export const MAX_LABELS = 100;
export const MAX_LABEL_LENGTH = 255;

/** `ifMatch`: the revision the write was decided on; the service refuses it (`conflict`) if the conversation changed since. */
const ifMatch = { ifMatch: etagSchema.optional() };
const conversationRef = z.object({ conversationId: id, ...ifMatch });

export const toggleStatusInputSchema = z
  .object({
    conversationId: id,
    ...ifMatch,
    status: z.enum(conversationStatuses),
    /** Epoch seconds; only with `snoozed`. Absent while snoozed means "until the next reply". */
    snoozedUntil: z.number().int().min(1).max(MAX_EPOCH_SECONDS).optional(),
  })
  .refine((v) => v.snoozedUntil === undefined || v.status === 'snoozed', { message: 'snoozedUntil goes with status snoozed only', path: ['snoozedUntil'] });

/** The full set to keep: trimmed, no blanks, no duplicates (the service replaces the whole set). */
export const labelSetSchema = z
  .array(z.string().trim().min(1, 'A label cannot be blank').max(MAX_LABEL_LENGTH))
  .max(MAX_LABELS)
  .refine((labels) => new Set(labels).size === labels.length, 'Each label once');

/** `toggle_status` answers the status it ended in (chatwoot-compat §1.2; no `meta` key). */
export const toggleStatusResultSchema = z.object({
  payload: z.object({
    success: z.boolean().nullable().catch(null),
    conversation_id: z.number().catch(0),
    current_status: z.enum(conversationStatuses),
    snoozed_until: z.string().nullable().catch(null),
  }),
});

/** `head :ok`: nothing to read. Whatever a proxy adds is dropped. */
const empty = z.unknown().transform(() => null);

export const triageCalls = {
  'conversations.toggleStatus': { input: toggleStatusInputSchema, output: toggleStatusResultSchema },
  'conversations.togglePriority': {
    input: z.object({ conversationId: id, ...ifMatch, priority: z.enum(priorities).nullable() }),
    output: empty,
  },
  /** `assigneeId: null` unassigns. Answers the agent, or null when unassigned. */
  'conversations.assign': {
    input: z.object({ conversationId: id, ...ifMatch, assigneeId: id.nullable() }),
    output: agentSchema.nullable().catch(null),
  },
  /** `teamId: null` removes the team. Answers the team (raw model), or null. */
  'conversations.assignTeam': {
    input: z.object({ conversationId: id, ...ifMatch, teamId: id.nullable() }),
    output: z.object({ id: z.number(), name: z.string().catch('') }).nullable().catch(null),
  },
  /** Replaces the whole set (the service has no add or remove): send the full intended set. */
  'conversations.setLabels': {
    input: z.object({ conversationId: id, ...ifMatch, labels: labelSetSchema }),
    output: z.object({ payload: z.array(z.string()).catch([]) }),
  },
  /** The agent read it (`update_last_seen`): unread count 0. Answers the conversation. */
  'conversations.updateLastSeen': { input: conversationRef, output: conversationSchema },
  /** Back to unread: last seen moves before the newest incoming message. Answers the conversation. */
  'conversations.markUnread': { input: conversationRef, output: conversationSchema },
  /**
   * The agent is typing (`on`) or stopped (`toggle_typing_status`): colleagues see it, and the
   * contact too unless it is a private note. Transient: never queued, never retried.
   */
  'conversations.typing': { input: z.object({ conversationId: id, on: z.boolean(), private: z.boolean() }), output: empty },
} as const;
