// The local cache: one IndexedDB database per signed-in session (service + user + account), so
// signing out of one account can drop exactly its data. Screens render from here first.
// Versions and their upgrades live in migrations.ts; the row shapes of the current version here.
import Dexie from 'dexie';
import type { Table } from 'dexie';
import type { Contact } from '../../../shared/api/contacts';
import type { Agent, CannedResponse, Inbox, Label, Team } from '../../../shared/api/directory';
import type { Conversation, ConversationCounts, ConversationStatus, Message, Priority } from '../../../shared/api/records';
import { declareVersions } from './migrations';

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
}

export type ComposerMode = 'reply' | 'note';

export interface Draft {
  conversationId: number;
  text: string;
  mode: ComposerMode;
  updatedAt: number;
}

/**
 * Reserved for the write path (phase 2): every action is queued here before it is sent, so none
 * is lost or sent twice across restarts. Nothing writes to it yet.
 */
export interface OutboxEntry {
  seq?: number;
  /** Client-generated, stable across retries (echo_id for messages). */
  clientId: string;
  conversationId: number;
  kind: string;
  payload: unknown;
  state: 'queued' | 'sending' | 'failed' | 'sent';
  createdAt: number;
  attempts: number;
  lastError?: string;
}

/** The service's tab counts for one filter set (counts ignore the assignee tab). */
export interface ViewCounts {
  key: string;
  counts: ConversationCounts;
  fetchedAt: number;
}

export class InboxDb extends Dexie {
  conversations!: Table<CachedConversation, number>;
  conversationRecords!: Table<ConversationRecord, number>;
  messages!: Table<CachedMessage, number>;
  cursors!: Table<CursorState, number>;
  contacts!: Table<Contact, number>;
  inboxes!: Table<Inbox, number>;
  agents!: Table<Agent, number>;
  teams!: Table<Team, number>;
  labels!: Table<Label, number>;
  cannedResponses!: Table<CannedResponse, number>;
  drafts!: Table<Draft, number>;
  outbox!: Table<OutboxEntry, number>;
  viewCounts!: Table<ViewCounts, string>;

  constructor(name: string) {
    super(name);
    declareVersions(this);
  }
}

const open = new Map<string, InboxDb>();

export function dbForSession(sessionId: string): InboxDb {
  let db = open.get(sessionId);
  if (!db) open.set(sessionId, (db = new InboxDb(`inbox:${sessionId}`)));
  return db;
}
