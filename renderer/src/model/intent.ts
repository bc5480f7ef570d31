// What an action intends, and how that end state looks in the cache. Pure: the same functions
// apply an action the moment the agent takes it, and re-apply still-queued actions on top of
// whatever the service answers later (so a revalidation never flashes the old state back).
import type { Conversation, ConversationStatus, Priority } from '../../../shared/api/records';
import { CLIENT_MESSAGE_ID_KEY } from '../../../shared/bridge/calls/message-limits';
import { plainText, priorityRank } from './normalize';
import type { CachedConversation, CachedMessage } from './rows';
import type { ContactIntent } from './contact-intent';
import { describeContactIntent } from './contact-intent';
import type { LabelChange } from './labels';
import { normalizeLabels, withLabelChange } from './labels';

export type { LabelChange } from './labels';
export { combineLabelChanges, normalizeLabels, withLabelChange } from './labels';

export interface Person {
  id: number;
  name: string;
}

/** Every action sets an end state; none says "toggle" (a repeat must land in the same place). */
export type Intent =
  /** `snoozedUntil` in epoch seconds; null while snoozed means "until the next reply". */
  | { kind: 'status'; status: ConversationStatus; snoozedUntil: number | null }
  | { kind: 'priority'; priority: Priority | null }
  | { kind: 'assignee'; assignee: Person | null }
  | { kind: 'team'; team: Person | null }
  /**
   * The whole set: the service replaces it, so the set we want is what we send. With `change`,
   * the set was unknown when the agent acted (the conversation not cached yet): the change applies
   * to whatever set it meets (the cache's, the service's), and `labels` holds only the additions.
   */
  | { kind: 'labels'; labels: string[]; change?: LabelChange }
  | { kind: 'read' }
  | { kind: 'unread' }
  /** `files`: what goes with it (names, types, sizes; the bytes wait in `outboxFiles`). */
  | { kind: 'message'; content: string; private: boolean; sender: Person; files?: FileSummary[] }
  /** A change to a conversation's contact: its own lane, applied to the contacts table (contact-intent.ts). */
  | ContactIntent;

/** A file queued with a message, as the optimistic bubble and the outbox list show it. */
export interface FileSummary {
  name: string;
  type: string;
  size: number;
}

export type IntentKind = Intent['kind'];

/**
 * Optimistic messages live in the messages table under ids no service message can have, above
 * 2^52 (service ids are row ids), so they sort after every real message in the history.
 */
export const LOCAL_MESSAGE_ID_BASE = 2 ** 52;
export const localMessageId = (seq: number) => LOCAL_MESSAGE_ID_BASE + seq;
export const isLocalMessage = (m: Pick<CachedMessage, 'id'>) => m.id >= LOCAL_MESSAGE_ID_BASE;

/** The send marker a message carries (ours, or one the service kept for us). */
export const markerOf = (m: Pick<CachedMessage, 'content_attributes'>): string | undefined => {
  const v = m.content_attributes?.[CLIENT_MESSAGE_ID_KEY];
  return typeof v === 'string' ? v : undefined;
};

const iso = (epochSeconds: number | null) => (epochSeconds === null ? null : new Date(epochSeconds * 1000).toISOString());

export interface Cached {
  row: CachedConversation | undefined;
  record: Conversation | undefined;
}

/** The cache's row and record after `intent`, at `nowMs`. Either may be missing (never cached). */
export function applyIntent(cached: Cached, intent: Intent, nowMs: number): Cached {
  const row = cached.row ? { ...cached.row } : undefined;
  const record = cached.record ? { ...cached.record, meta: { ...cached.record.meta } } : undefined;
  const nowS = Math.floor(nowMs / 1000);
  switch (intent.kind) {
    case 'status':
      if (row) row.status = intent.status;
      if (record) {
        record.status = intent.status;
        record.snoozed_until = intent.status === 'snoozed' ? iso(intent.snoozedUntil) : null;
      }
      break;
    case 'priority':
      if (row) {
        row.priority = intent.priority;
        row.priorityRank = priorityRank(intent.priority);
      }
      if (record) record.priority = intent.priority;
      break;
    case 'assignee':
      if (row) {
        row.assigneeId = intent.assignee?.id ?? 0;
        row.assigneeName = intent.assignee?.name ?? '';
      }
      if (record) record.meta.assignee = intent.assignee ? { id: intent.assignee.id, name: intent.assignee.name, available_name: intent.assignee.name } : null;
      break;
    case 'team':
      if (row) row.teamId = intent.team?.id ?? 0;
      if (record) record.meta.team = intent.team ? { id: intent.team.id, name: intent.team.name } : null;
      break;
    case 'labels': {
      const { change } = intent;
      const labels = normalizeLabels(intent.labels);
      if (row) row.labels = change ? withLabelChange(row.labels, change) : labels;
      if (record) record.labels = change ? withLabelChange(record.labels, change) : labels;
      break;
    }
    case 'read':
      if (row) row.unreadCount = 0;
      if (record) {
        record.unread_count = 0;
        record.agent_last_seen_at = nowS;
      }
      break;
    case 'unread':
      // The service moves "last seen" before the newest incoming message: at least one unread.
      if (row) row.unreadCount = Math.max(1, row.unreadCount);
      if (record) record.unread_count = Math.max(1, record.unread_count);
      break;
    case 'message':
      if (row) {
        row.lastActivityAt = Math.max(row.lastActivityAt, nowS);
        row.preview = (plainText(intent.content) || (intent.files ?? []).map((f) => f.name).join(', ')).slice(0, 160);
        // A reply answers whoever was waiting; a note does not.
        if (!intent.private) row.waitingSince = 0;
      }
      if (record) record.last_activity_at = Math.max(record.last_activity_at, nowS);
      break;
  }
  return { row, record };
}

/**
 * Puts back the fields `kind` changes from `before` (a fallback rollback when the service cannot
 * be asked for the truth), leaving every other field as it is now.
 */
export function restoreFields(now: Cached, before: Cached, kind: IntentKind): Cached {
  const row = now.row && before.row ? { ...now.row } : now.row;
  const record = now.record && before.record ? { ...now.record, meta: { ...now.record.meta } } : now.record;
  const b = before;
  if (row && b.row) {
    if (kind === 'status') row.status = b.row.status;
    if (kind === 'priority') Object.assign(row, { priority: b.row.priority, priorityRank: b.row.priorityRank });
    if (kind === 'assignee') Object.assign(row, { assigneeId: b.row.assigneeId, assigneeName: b.row.assigneeName });
    if (kind === 'team') row.teamId = b.row.teamId;
    if (kind === 'labels') row.labels = b.row.labels;
    if (kind === 'read' || kind === 'unread') row.unreadCount = b.row.unreadCount;
  }
  if (record && b.record) {
    if (kind === 'status') Object.assign(record, { status: b.record.status, snoozed_until: b.record.snoozed_until });
    if (kind === 'priority') record.priority = b.record.priority;
    if (kind === 'assignee') record.meta.assignee = b.record.meta.assignee ?? null;
    if (kind === 'team') record.meta.team = b.record.meta.team ?? null;
    if (kind === 'labels') record.labels = b.record.labels;
    if (kind === 'read' || kind === 'unread') Object.assign(record, { unread_count: b.record.unread_count, agent_last_seen_at: b.record.agent_last_seen_at });
  }
  return { row, record };
}

/** The optimistic message a send shows until the service's own copy replaces it. */
export function optimisticMessage(intent: Extract<Intent, { kind: 'message' }>, conversationId: number, seq: number, clientId: string, nowMs: number): CachedMessage {
  return {
    id: localMessageId(seq),
    content: intent.content,
    conversation_id: conversationId,
    message_type: 1,
    content_type: 'text',
    status: 'sending',
    content_attributes: { [CLIENT_MESSAGE_ID_KEY]: clientId },
    created_at: Math.floor(nowMs / 1000),
    private: intent.private,
    sender: { id: intent.sender.id, name: intent.sender.name, available_name: intent.sender.name, type: 'user' },
    echo_id: clientId,
    // Shown by name and size until the service's copy (with addresses main can fetch) replaces it.
    ...(intent.files ? { attachments: intent.files.map((f, i) => ({ id: -(i + 1), file_type: fileTypeOf(f.type), data_url: null, file_size: f.size, fallback_title: f.name })) } : {}),
  };
}

/** The service's file types (chatwoot-compat §2.5), from a MIME type. */
export function fileTypeOf(mime: string): string {
  if (/^image\/(jpeg|png|gif|bmp|webp)$/i.test(mime)) return 'image';
  if (/^video\//i.test(mime)) return 'video';
  if (/^audio\//i.test(mime)) return 'audio';
  return 'file';
}

const statusVerb: Record<ConversationStatus, string> = { open: 'reopen', resolved: 'resolve', pending: 'mark as pending', snoozed: 'snooze' };

/** "resolve", "set the labels of": what the agent asked for, for messages about it. */
export function describeIntent(intent: Intent): string {
  switch (intent.kind) {
    case 'status':
      return statusVerb[intent.status];
    case 'priority':
      return 'set the priority of';
    case 'assignee':
      return intent.assignee ? `assign ${intent.assignee.name} to` : 'unassign';
    case 'team':
      return intent.team ? `move to team ${intent.team.name}` : 'remove the team of';
    case 'labels':
      return 'set the labels of';
    case 'read':
      return 'mark as read';
    case 'unread':
      return 'mark as unread';
    case 'message':
      return intent.private ? 'add a note to' : 'send a reply to';
    case 'contact':
      return describeContactIntent(intent);
  }
}
