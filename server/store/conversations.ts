// Conversation queries: lookup by display id, the filtered list with its meta counts, and the
// derived values (labels, unread count, last messages) the presenters need.
import type { Condition } from './filters';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import { rows } from '../db/rows';
import type { AccountScope } from '../http/auth';
import { visibleInboxIds } from '../http/auth';
import type { Precondition } from '../http/preconditions';
import { matchesRevision, preconditionFailed } from '../http/preconditions';
import type { MessageRow } from './messages';

export interface ConversationRow {
  id: number;
  account_id: number;
  display_id: number;
  inbox_id: number;
  contact_id: number;
  contact_inbox_id: number | null;
  uuid: string;
  status: 'open' | 'resolved' | 'pending' | 'snoozed';
  priority: 'low' | 'medium' | 'high' | 'urgent' | null;
  assignee_id: number | null;
  assignee_agent_bot_id: number | null;
  team_id: number | null;
  snoozed_until: number | null;
  custom_attributes: string;
  additional_attributes: string;
  agent_last_seen_at: number | null;
  assignee_last_seen_at: number | null;
  contact_last_seen_at: number | null;
  first_reply_created_at: number | null;
  waiting_since: number | null;
  last_activity_at: number;
  created_at: number;
  updated_at: number;
  /** Bumped by triggers when state an agent can set changes (migration 5): the ETag. */
  revision: number;
  /** The change sequence value of the row's latest insert or update (migration 5): the changes feed's order. */
  change_seq: number;
}

const PAGE_SIZE = 25;

export function conversationByDisplayId(db: Db, accountId: number, displayId: number) {
  return stmt(db, 'SELECT * FROM conversations WHERE account_id = ? AND display_id = ?').get(accountId, displayId) as
    | ConversationRow
    | undefined;
}

export const conversationById = (db: Db, id: number) => rows<ConversationRow>(db, 'SELECT * FROM conversations WHERE id = ?').get(id);

/** A conversation's inbox and, when that is an API inbox, its webhook_url (webhook recipients, every event). */
export const conversationWebhookRouting = (db: Db, id: number) =>
  stmt(db, "SELECT c.inbox_id, i.webhook_url FROM conversations c LEFT JOIN inboxes i ON i.id = c.inbox_id AND i.channel_type = 'Channel::Api' WHERE c.id = ?").get(id) as
    | { inbox_id: number; webhook_url: string | null }
    | undefined;

/**
 * What the notifier reads of a new message and its conversation's assignee, in one statement (it
 * runs on every message): nothing when either is gone.
 */
export const messageWithAssignee = (db: Db, messageId: number, conversationId: number) =>
  stmt(db, 'SELECT m.id, m.message_type, m.private, m.content, m.sender_type, m.sender_id, c.assignee_id FROM messages m, conversations c WHERE m.id = ? AND c.id = ?').get(messageId, conversationId) as
    | { id: number; message_type: number; private: number; content: string | null; sender_type: string | null; sender_id: number | null; assignee_id: number | null }
    | undefined;

export function revisionOf(db: Db, conversationId: number): number {
  return (stmt(db, 'SELECT revision FROM conversations WHERE id = ?').get(conversationId) as { revision: number }).revision;
}

/**
 * The If-Match check: 412 with the current ETag unless the conversation is at a revision the caller
 * named. Call it inside the write's transaction, so nothing can change between the check and the write.
 */
export function requireRevision(db: Db, conversationId: number, precondition: Precondition | undefined): void {
  if (!precondition) return;
  const revision = revisionOf(db, conversationId);
  if (!matchesRevision(precondition, revision)) throw preconditionFailed(revision);
}

export function labelsOf(db: Db, conversationId: number): string[] {
  return (stmt(db, 'SELECT title FROM conversation_labels WHERE conversation_id = ? ORDER BY title').all(conversationId) as { title: string }[]).map(
    (r) => r.title,
  );
}

/** Incoming messages since the agent last looked, capped at 10 as the reference service does. */
export function unreadCount(db: Db, c: ConversationRow): number {
  const row = stmt(
    db,
    `SELECT COUNT(*) AS n FROM (SELECT 1 FROM messages WHERE conversation_id = ? AND message_type = 0 AND created_at > ? LIMIT 10)`,
  ).get(c.id, c.agent_last_seen_at ?? 0) as { n: number };
  return row.n;
}

export function lastMessage(db: Db, conversationId: number, opts: { chatOnly?: boolean; nonActivity?: boolean } = {}) {
  const where = opts.chatOnly ? 'AND message_type != 2 AND private = 0' : opts.nonActivity ? 'AND message_type != 2' : '';
  return stmt(db, `SELECT * FROM messages WHERE conversation_id = ? ${where} ORDER BY id DESC LIMIT 1`).get(conversationId) as
    | MessageRow
    | undefined;
}

export interface ConversationFilters {
  status: 'open' | 'resolved' | 'pending' | 'snoozed' | 'all';
  assigneeType: string | undefined;
  inboxId?: number;
  teamId?: number;
  labels?: string[];
  q?: string;
  /** Only conversations with an incoming or outgoing message containing this text. */
  messageQ?: string;
  sortBy?: string;
  /** An advanced filter's condition (store/filters.ts). */
  condition?: Condition;
  page: number;
  /**
   * `updated_within` (chatwoot-compat §7): only conversations updated after this time (ms), all of them
   * (no page). As the reference, it narrows the list only, not the counts.
   */
  updatedAfter?: number;
}

// A Map, not an object literal: `sort_by=constructor` must not find Object.prototype's members.
const SORTS = new Map<string, string>([
  ['last_activity_at_desc', 'c.last_activity_at DESC, c.id DESC'],
  ['last_activity_at_asc', 'c.last_activity_at ASC, c.id ASC'],
  ['created_at_desc', 'c.created_at DESC, c.id DESC'],
  ['created_at_asc', 'c.created_at ASC, c.id ASC'],
  ['priority_desc', `CASE c.priority WHEN 'urgent' THEN 3 WHEN 'high' THEN 2 WHEN 'medium' THEN 1 WHEN 'low' THEN 0 END DESC NULLS LAST, c.last_activity_at DESC`],
  ['priority_asc', `CASE c.priority WHEN 'urgent' THEN 3 WHEN 'high' THEN 2 WHEN 'medium' THEN 1 WHEN 'low' THEN 0 END ASC NULLS LAST, c.last_activity_at DESC`],
  ['waiting_since_desc', 'c.waiting_since DESC NULLS LAST, c.created_at ASC'],
  ['waiting_since_asc', 'c.waiting_since ASC NULLS LAST, c.created_at ASC'],
  ['latest', 'c.last_activity_at DESC, c.id DESC'],
  ['sort_on_created_at', 'c.created_at ASC, c.id ASC'],
  ['sort_on_priority', `CASE c.priority WHEN 'urgent' THEN 3 WHEN 'high' THEN 2 WHEN 'medium' THEN 1 WHEN 'low' THEN 0 END DESC NULLS LAST, c.last_activity_at DESC`],
  ['sort_on_waiting_since', 'c.waiting_since ASC NULLS LAST, c.created_at ASC'],
]);
const DEFAULT_SORT = SORTS.get('last_activity_at_desc')!;

/**
 * The list and its counts. Counts are computed after every filter except `assignee_type`
 * (chatwoot-compat §7), so the Mine / Unassigned / All tabs can show them side by side.
 */
export function listConversations(db: Db, scope: AccountScope, f: ConversationFilters) {
  const inboxIds = visibleInboxIds(db, scope);
  const where: string[] = ['c.account_id = ?', `c.inbox_id IN (${inboxIds.map(() => '?').join(',') || 'NULL'})`];
  const args: unknown[] = [scope.accountId, ...inboxIds];
  if (f.status !== 'all') {
    where.push('c.status = ?');
    args.push(f.status);
  }
  if (f.inboxId !== undefined) {
    where.push('c.inbox_id = ?');
    args.push(f.inboxId);
  }
  if (f.teamId !== undefined) {
    where.push('c.team_id = ?');
    args.push(f.teamId);
  }
  for (const label of f.labels ?? []) {
    where.push('EXISTS (SELECT 1 FROM conversation_labels l WHERE l.conversation_id = c.id AND l.title = ?)');
    args.push(label);
  }
  if (f.q) {
    const like = `%${f.q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    where.push(
      `(EXISTS (SELECT 1 FROM contacts ct WHERE ct.id = c.contact_id AND (ct.name LIKE ? ESCAPE '\\' OR ct.email LIKE ? ESCAPE '\\'))
        OR CAST(c.display_id AS TEXT) = ?
        OR EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.content LIKE ? ESCAPE '\\'))`,
    );
    args.push(like, like, f.q, like);
  }
  if (f.condition) {
    where.push(f.condition.sql);
    args.push(...f.condition.args);
  }
  if (f.messageQ) {
    const like = `%${f.messageQ.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    where.push(`EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.message_type IN (0, 1) AND m.content LIKE ? ESCAPE '\\')`);
    args.push(like);
  }
  const base = `FROM conversations c WHERE ${where.join(' AND ')}`;
  const counts = db
    .prepare(
      `SELECT COUNT(*) AS all_count,
              COALESCE(SUM(c.assignee_id IS NULL), 0) AS unassigned_count,
              COALESCE(SUM(c.assignee_id = ?), 0) AS mine_count ${base}`,
    )
    .get(scope.user.id, ...args) as { all_count: number; unassigned_count: number; mine_count: number };

  let assigneeClause = '';
  const listArgs = [...args];
  if (f.assigneeType === 'me') {
    assigneeClause = ' AND c.assignee_id = ?';
    listArgs.push(scope.user.id);
  } else if (f.assigneeType === 'unassigned') assigneeClause = ' AND c.assignee_id IS NULL';
  else if (f.assigneeType === 'assigned') assigneeClause = ' AND c.assignee_id IS NOT NULL';

  const order = SORTS.get(f.sortBy ?? '') ?? DEFAULT_SORT;
  const rows = (
    f.updatedAfter === undefined
      ? db.prepare(`SELECT c.* ${base}${assigneeClause} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...listArgs, PAGE_SIZE, (f.page - 1) * PAGE_SIZE)
      : db.prepare(`SELECT c.* ${base}${assigneeClause} AND c.updated_at > ? ORDER BY ${order}`).all(...listArgs, f.updatedAfter)
  ) as ConversationRow[];
  return {
    rows,
    meta: {
      mine_count: counts.mine_count,
      assigned_count: counts.all_count - counts.unassigned_count,
      unassigned_count: counts.unassigned_count,
      all_count: counts.all_count,
    },
  };
}

/** Deletes a conversation and everything hanging off it. False if it was already gone. */
export function deleteConversation(db: Db, conversationId: number): boolean {
  return db.transaction(() => {
    stmt(db, 'DELETE FROM attachments WHERE message_id IN (SELECT id FROM messages WHERE conversation_id = ?)').run(conversationId);
    stmt(db, 'DELETE FROM messages WHERE conversation_id = ?').run(conversationId);
    stmt(db, 'DELETE FROM conversation_labels WHERE conversation_id = ?').run(conversationId);
    stmt(db, "DELETE FROM notifications WHERE primary_actor_type = 'Conversation' AND primary_actor_id = ?").run(conversationId);
    stmt(db, 'DELETE FROM transcript_requests WHERE conversation_id = ?').run(conversationId);
    stmt(db, 'UPDATE reporting_events SET conversation_id = NULL WHERE conversation_id = ?').run(conversationId);
    return stmt(db, 'DELETE FROM conversations WHERE id = ?').run(conversationId).changes > 0;
  })();
}

/** The contact's conversations in the account, the latest activity first. */
export const conversationsOfContact = (db: Db, accountId: number, contactId: number) =>
  stmt(db, 'SELECT * FROM conversations WHERE contact_id = ? AND account_id = ? ORDER BY last_activity_at DESC, id DESC').all(contactId, accountId) as ConversationRow[];
