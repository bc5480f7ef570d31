// The local cache: one IndexedDB database per signed-in session (service + user + account), so
// signing out of one account can drop exactly its data. Screens render from here first.
import Dexie from 'dexie';
import type { Table } from 'dexie';
import type { Conversation, ConversationStatus, Message, Priority } from '../../../shared/api/records';

export interface CachedConversation {
  /** The conversation's display id (what URLs and messages use). */
  id: number;
  status: ConversationStatus;
  inboxId: number;
  /** 0 when unassigned / no team: IndexedDB does not index null. */
  assigneeId: number;
  teamId: number;
  labels: string[];
  priority: Priority | null;
  lastActivityAt: number;
  createdAt: number;
  waitingSince: number;
  unreadCount: number;
  contactName: string;
  preview: string;
  record: Conversation;
}

export type CachedMessage = Message;

/** Per-conversation cursor state: which slice of history is held locally. */
export interface CursorState {
  conversationId: number;
  oldestId: number;
  newestId: number;
  /** False once a `before` page came back short: the start of the conversation is cached. */
  hasOlder: boolean;
}

export class InboxDb extends Dexie {
  conversations!: Table<CachedConversation, number>;
  messages!: Table<CachedMessage, number>;
  cursors!: Table<CursorState, number>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({
      conversations: 'id, status, inboxId, teamId, assigneeId, *labels, lastActivityAt',
      messages: 'id, conversation_id, [conversation_id+id]',
      cursors: 'conversationId',
    });
  }
}

const open = new Map<string, InboxDb>();

export function dbForSession(sessionId: string): InboxDb {
  let db = open.get(sessionId);
  if (!db) open.set(sessionId, (db = new InboxDb(`inbox:${sessionId}`)));
  return db;
}
