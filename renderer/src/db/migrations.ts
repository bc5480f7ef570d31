// Cache versions. Add a version with its upgrade; never edit a shipped one (agents keep their
// cache across app updates, and IndexedDB refuses to open a database at a lower version).
import type Dexie from 'dexie';
import type { Conversation } from '../../../shared/api/records';
import { priorityRank } from '../model/normalize';

/** Version 1 as shipped with the walking skeleton. */
export const V1_STORES = {
  conversations: 'id, status, inboxId, teamId, assigneeId, *labels, lastActivityAt',
  messages: 'id, conversation_id, [conversation_id+id]',
  cursors: 'conversationId',
};

/**
 * Version 2: the inbox. Compound indexes serve the list views directly (a status, or an assignee
 * within a status, in last-activity order; an inbox or team within a status); labels stay
 * multi-entry. The full record moves beside the row (`conversationRecords`) so lists read lean
 * rows. New tables for the directory, contacts, drafts, the tab counts, and the outbox reserved
 * for the write path.
 */
export const V2_STORES = {
  conversations:
    'id, status, inboxId, teamId, assigneeId, contactId, *labels, lastActivityAt, [status+lastActivityAt], [assigneeId+status+lastActivityAt], [inboxId+status], [teamId+status]',
  conversationRecords: 'id',
  messages: 'id, conversation_id, [conversation_id+id]',
  cursors: 'conversationId',
  contacts: 'id',
  inboxes: 'id',
  agents: 'id',
  teams: 'id',
  labels: 'id, title',
  cannedResponses: 'id, short_code',
  drafts: 'conversationId, updatedAt',
  outbox: '++seq, &clientId, conversationId, state, createdAt',
  viewCounts: 'key',
};

interface V1Conversation {
  id: number;
  record: Conversation;
  priority: Conversation['priority'];
  [key: string]: unknown;
}
interface V1Cursor {
  conversationId: number;
  oldestId: number;
  newestId: number;
  hasOlder: boolean;
}

/**
 * Version 3: the sync engine's state. `quiet` holds conversations whose earlier request of unknown
 * outcome may still land (nothing else goes for them until then); `sync` holds catch-up cursors
 * and watermarks. No existing row changes shape (new outbox fields are optional).
 */
export const V3_STORES = { ...V2_STORES, quiet: 'conversationId', sync: 'key' };

/** Version 4: the agent's settings for this session (notification rules, do not disturb), one row per name. */
export const V4_STORES = { ...V3_STORES, settings: 'key' };

/**
 * Version 5: `[status+unreadCount]` on conversations, so the unread badge sums the open
 * conversations' unread counts by counting index entries (platform/unread-badge.ts) instead of
 * reading every open row after every write (10,000 rows, a long task on each triage key). Rows
 * are unchanged.
 */
export const V5_STORES = { ...V4_STORES, conversations: `${V4_STORES.conversations}, [status+unreadCount]` };

/**
 * Version 6: contacts are edited through the outbox. `contactNotes` holds each contact's notes as
 * the service last listed them (by contact). Contact changes queue in `outbox` in lanes of their
 * own (a negative `conversationId`, model/contact-intent.ts), so no outbox index changes.
 */
export const V6_STORES = { ...V5_STORES, contactNotes: 'id, contactId' };

/**
 * Version 7: the bytes of files queued with a message, one row per message by its client id, apart
 * from the outbox so that reading the queue never reads files.
 */
export const V7_STORES = { ...V6_STORES, outboxFiles: 'clientId' };

/**
 * Version 8: the files attached in a composer and not sent yet, one row per conversation, apart
 * from `drafts` (as `outboxFiles` is from the queue) so that reading a draft's text never reads
 * files. No existing row changes.
 */
export const V8_STORES = { ...V7_STORES, draftFiles: 'conversationId' };

/**
 * Declares the versions that carry an upgrade, and the current one. Dexie (3 and later) reads the
 * installed schema from the database itself and applies each declared version above it in turn,
 * so a version without an upgrade needs no declaration: its tables and indexes are in the next
 * declared one. Declaring every version cost each cold open milliseconds before the first read:
 * every `stores()` call parses the stores of all versions declared so far again.
 */
export function declareVersions(db: Dexie) {
  db.version(2)
    .stores(V2_STORES)
    .upgrade(async (tx) => {
      // New indexed fields, derived from the record each row held; the record moves out.
      const records: { id: number; record: Conversation }[] = [];
      await tx
        .table('conversations')
        .toCollection()
        .modify((row: V1Conversation) => {
          const meta = row.record?.meta;
          row.contactId = meta?.sender?.id ?? 0;
          row.contactEmail = meta?.sender?.email ?? '';
          row.assigneeName = meta?.assignee?.available_name || meta?.assignee?.name || '';
          row.priorityRank = priorityRank(row.priority ?? null);
          if (row.record) records.push({ id: row.id, record: row.record });
          delete (row as Partial<V1Conversation>).record;
        });
      await tx.table('conversationRecords').bulkPut(records);
      // Version 1 stored Infinity as the oldest id of an empty history; version 2 says 0 ("none
      // held") and tracks gaps explicitly.
      await tx
        .table('cursors')
        .toCollection()
        .modify((cursor: V1Cursor & { gaps?: unknown }) => {
          if (!Number.isFinite(cursor.oldestId)) cursor.oldestId = 0;
          if (!Number.isFinite(cursor.newestId)) cursor.newestId = 0;
          cursor.gaps = [];
        });
    });
  db.version(8).stores(V8_STORES);
}
