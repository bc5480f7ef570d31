// Global search (chatwoot-compat §1.12): the three finders, 15 per page, over what the caller may
// see (inbox ids given), with `like` an escaped LIKE pattern.
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { MessageRow } from './messages';
import type { ContactRow } from './contacts';
import type { ConversationRow } from './conversations';

export const SEARCH_PAGE_SIZE = 15;
const placeholders = (ids: number[]) => ids.map(() => '?').join(',') || 'NULL';

export interface SearchTerms {
  accountId: number;
  inboxIds: number[];
  /** The text as given (a conversation's number matches it exactly). */
  q: string;
  like: string;
  offset: number;
}

/** Conversations whose number is the text, or whose contact's name, email, phone or identifier contains it; newest first. */
export function searchConversations(db: Db, s: SearchTerms): ConversationRow[] {
  return db
    .prepare(
      `SELECT c.* FROM conversations c JOIN contacts ct ON ct.id = c.contact_id
       WHERE c.account_id = ? AND c.inbox_id IN (${placeholders(s.inboxIds)})
         AND (CAST(c.display_id AS TEXT) = ? OR ct.name LIKE ? ESCAPE '\\' OR ct.email LIKE ? ESCAPE '\\' OR ct.phone_number LIKE ? ESCAPE '\\' OR ct.identifier LIKE ? ESCAPE '\\')
       ORDER BY c.created_at DESC, c.id DESC LIMIT ? OFFSET ?`,
    )
    .all(s.accountId, ...s.inboxIds, s.q, s.like, s.like, s.like, s.like, SEARCH_PAGE_SIZE, s.offset) as ConversationRow[];
}

/** "Resolved" contacts (an email, phone or identifier) matching, most recently active first. */
export function searchContacts(db: Db, s: SearchTerms): ContactRow[] {
  return stmt(
    db,
    `SELECT * FROM contacts WHERE account_id = ?
       AND (COALESCE(email, '') != '' OR COALESCE(phone_number, '') != '' OR COALESCE(identifier, '') != '')
       AND (name LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' OR phone_number LIKE ? ESCAPE '\\' OR identifier LIKE ? ESCAPE '\\')
     ORDER BY last_activity_at DESC NULLS LAST, id DESC LIMIT ? OFFSET ?`,
  ).all(s.accountId, s.like, s.like, s.like, s.like, SEARCH_PAGE_SIZE, s.offset) as ContactRow[];
}

/** Incoming and outgoing messages containing the text, created since `since`, newest first. */
export function searchMessages(db: Db, s: SearchTerms, since: number): MessageRow[] {
  return db
    .prepare(
      `SELECT * FROM messages WHERE account_id = ? AND inbox_id IN (${placeholders(s.inboxIds)}) AND message_type IN (0, 1)
         AND created_at >= ? AND content LIKE ? ESCAPE '\\'
       ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    )
    .all(s.accountId, ...s.inboxIds, since, s.like, SEARCH_PAGE_SIZE, s.offset) as MessageRow[];
}

export const firstMessageOf = (db: Db, conversationId: number) => stmt(db, 'SELECT * FROM messages WHERE conversation_id = ? ORDER BY id LIMIT 1').get(conversationId) as MessageRow | undefined;
