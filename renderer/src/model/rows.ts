// The cache's row shapes, apart from the database that holds them (db/schema.ts), so the pure
// model (intents, overlays, cursors) can name them without importing Dexie or the database.
import type { Contact, ContactNote } from '../../../shared/api/contacts';
import type { Conversation, ConversationCounts, ConversationStatus, Message, Priority } from '../../../shared/api/records';
import type { BridgeErrorKind } from '../../../shared/bridge/result';
import type { Intent, IntentKind } from './intent';

export interface CachedConversation {
  /** The conversation's display id (what URLs and messages use). */
  id: number;
  status: ConversationStatus;
  inboxId: number;
  /** 0 when unassigned / no team / no contact: IndexedDB does not index null. */
  assigneeId: number;
  teamId: number;
  contactId: number;
  labels: string[];
  priority: Priority | null;
  /** low 0 … urgent 3, -1 for none: sortable, and the service's order (NULLS LAST). */
  priorityRank: number;
  lastActivityAt: number;
  createdAt: number;
  /** Epoch seconds, 0 when nobody is waiting. */
  waitingSince: number;
  unreadCount: number;
  contactName: string;
  contactEmail: string;
  /** The contact has a picture on the service (the row's avatar asks main for it); absent in rows cached before it was kept. */
  contactPicture?: boolean;
  /** The assignee's display name ('' when unassigned), for the list's chip. */
  assigneeName: string;
  preview: string;
}

/**
 * The full record as the service sent it, apart from the list row: the list reads thousands of
 * rows at once and should not deserialize every record's messages and attributes to do it.
 */
export interface ConversationRecord {
  id: number;
  record: Conversation;
}

export type CachedMessage = Message;

/** An id range of a conversation's history the cache does not hold: ids in (after, before). */
export interface HistoryGap {
  after: number;
  before: number;
  /**
   * Left by a jump into the middle of the history (a search hit): filled as the agent scrolls to
   * it, never all at once on a refresh (that would load the whole thread between the hit and now).
   */
  lazy?: boolean;
}

/** Per-conversation cursor state: which slice of history is held locally. */
export interface CursorState {
  conversationId: number;
  /** Oldest and newest message id held; 0 when none is held yet. */
  oldestId: number;
  newestId: number;
  /** False once a `before` page came back short: the start of the conversation is cached. */
  hasOlder: boolean;
  /** Holes between oldestId and newestId still to be filled (a latest page that did not connect). */
  gaps: HistoryGap[];
  /**
   * Client time of the last read that reached the newest message (a newest page, a short `after`
   * page): every message created before it is held, or inside a recorded gap. Catch-up moves the
   * cursor past new messages without a gap only when this is after the feed cursor was read.
   */
  completeAt?: number;
}

export type ComposerMode = 'reply' | 'note';

export interface Draft {
  conversationId: number;
  text: string;
  mode: ComposerMode;
  updatedAt: number;
}

/**
 * The write path's queue (renderer/src/actions): every action the agent takes is stored here in
 * the same transaction that applies it to the cache, then sent in order per conversation. It is
 * the cache, so it survives a reload. SYNC-PROTOCOL.md has the rules.
 */
/** A file queued with a message: what the agent picked, its bytes kept until the service has the message. */
export interface QueuedFile {
  name: string;
  /** The type the browser gave it (application/octet-stream when it had none). */
  type: string;
  size: number;
  data: ArrayBuffer;
}

/** The files of one queued message (`outboxFiles`, by the entry's client id). */
export interface OutboxFiles {
  clientId: string;
  files: QueuedFile[];
}

/** The files attached in a conversation's composer and not sent yet (`draftFiles`, by conversation). */
export interface DraftFiles {
  conversationId: number;
  files: QueuedFile[];
}

export interface OutboxEntry {
  /** Queue order (auto-increment). Also names an optimistic message: its local id derives from it. */
  seq?: number;
  /** Client-generated UUID, stable across retries (a message's or a contact note's echo_id, send marker and idempotency key). */
  clientId: string;
  /**
   * The lane the entry goes in (one request of unknown outcome per lane): the conversation's display
   * id, or for a change to a contact (`kind: 'contact'`) the contact's id negated (contact-intent.ts).
   */
  conversationId: number;
  kind: IntentKind;
  payload: Intent;
  /**
   * `queued` / `sending`: on its way. `failed`: a message the service refused, parked until the
   * agent retries or discards it. `conflict`: someone else changed the same thing since the agent
   * acted; parked until the agent applies it anyway or drops it. `confirmed`: done; kept a little
   * while so an answer fetched before it landed cannot undo it.
   */
  state: 'queued' | 'sending' | 'failed' | 'conflict' | 'confirmed';
  /** When the service confirmed it (epoch ms). */
  confirmedAt?: number;
  /** When an answer asked for after the confirmation was stored: from then on the service's own state shows. */
  provenAt?: number;
  createdAt: number;
  attempts: number;
  /** Epoch ms before which the sender leaves it alone (backoff, or a quiet window); 0 = at once. */
  nextAttemptAt: number;
  /** When the first and the latest attempt were handed over (epoch ms), written before each goes. */
  firstSentAt?: number;
  lastSentAt?: number;
  /**
   * The values (model/conflicts.ts keys) earlier attempts of this change handed over, its own and
   * those of changes it superseded: a service showing one of them shows our own write landing
   * late, not another agent's.
   */
  sent?: string[];
  /**
   * An earlier change of ours in this conversation landed with a side effect on this change's field
   * (a team change lets the service pick an assignee; reopening self-assigns): whatever the service
   * shows for the field is then our own doing, the base to build on, never another agent's.
   */
  baseMoved?: boolean;
  /** The latest attempt carried a precondition (`If-Match`): if it lands late, it cannot overwrite anything. */
  guarded?: boolean;
  /** The latest attempt's outcome is unknown (timeout, lost connection, 5xx, a reload while it was on its way). */
  uncertain?: boolean;
  /** For a message: the newest service message id held when it was first sent (the search starts after it). */
  afterId?: number;
  lastError?: string;
  lastErrorKind?: BridgeErrorKind;
  /** The fields a refusal named (the service's `{message, attributes}`): where the contact form shows the error. */
  lastErrorAttributes?: string[];
  /** What the agent is shown for a conflict. */
  conflict?: { theirs: string; mine: string; activity?: string };
  /** The row and record as the agent saw them when acting: the base for conflicts and for a rollback without the service. */
  before?: { row: CachedConversation | undefined; record: Conversation | undefined };
  /** Actions taken together (a bulk action) share it. */
  batchId?: string;
  /** A contact change: the contact as the agent saw it (the rollback when the service cannot be read). */
  contactBefore?: Contact;
}

/** A note on a contact as the service answered it, with the contact it belongs to (indexed). */
export interface CachedContactNote extends ContactNote {
  contactId: number;
}

/**
 * A conversation whose earlier request of unknown outcome may still land (a service without
 * preconditions): nothing else is sent for it before `until` (SYNC-PROTOCOL.md, quiet windows).
 */
export interface QuietWindow {
  conversationId: number;
  until: number;
}

/** Small named values of the session's sync state (catch-up cursors and watermarks). */
/** One of the agent's settings for the session, by name (validated when read: `notifications/settings.ts`). */
export interface SettingValue {
  key: string;
  value: unknown;
}

export interface SyncValue {
  key: string;
  value: string | number;
}

/** The service's tab counts for one filter set (counts ignore the assignee tab). */
export interface ViewCounts {
  key: string;
  counts: ConversationCounts;
  fetchedAt: number;
}
