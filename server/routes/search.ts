// Global search (chatwoot-compat §1.12, §2.15): conversations, contacts and messages, 15 per type
// per page; messages only from the last 3 months and only from inboxes the caller may see.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/open';
import { json, stmt } from '../db/open';
import type { AccountScope } from '../http/auth';
import { visibleInboxIds } from '../http/auth';
import { userById } from '../store/users';
import { invalid } from '../http/errors';
import { intString, parseParams } from '../http/params';
import { scoped } from '../http/scope';
import { contactSearchResult } from '../presenters/contact';
import type { MessageRow } from '../presenters/message';
import { messageRest } from '../presenters/message';
import type { ContactRow } from '../presenters/people';
import { availableName } from '../presenters/people';
import { epoch } from '../presenters/time';
import type { ConversationRow } from '../store/conversations';
import type { RouteDeps } from './deps';

const S = '/api/v1/accounts/:account_id/search';
const PER_PAGE = 15;
const THREE_MONTHS = 90 * 86_400_000;
const searchQuery = z.object({ q: z.string().max(1000).optional(), page: intString.optional() });

type Kind = 'conversations' | 'contacts' | 'messages';
interface Search {
  scope: AccountScope;
  like: string;
  q: string;
  offset: number;
  now: number;
}

const placeholders = (ids: number[]) => ids.map(() => '?').join(',') || 'NULL';

function conversations(db: Db, s: Search) {
  const inboxes = visibleInboxIds(db, s.scope);
  const rows = db
    .prepare(
      `SELECT c.* FROM conversations c JOIN contacts ct ON ct.id = c.contact_id
       WHERE c.account_id = ? AND c.inbox_id IN (${placeholders(inboxes)})
         AND (CAST(c.display_id AS TEXT) = ? OR ct.name LIKE ? ESCAPE '\\' OR ct.email LIKE ? ESCAPE '\\' OR ct.phone_number LIKE ? ESCAPE '\\' OR ct.identifier LIKE ? ESCAPE '\\')
       ORDER BY c.created_at DESC, c.id DESC LIMIT ? OFFSET ?`,
    )
    .all(s.scope.accountId, ...inboxes, s.q, s.like, s.like, s.like, s.like, PER_PAGE, s.offset) as ConversationRow[];
  return rows.map((c) => {
    const first = stmt(db, 'SELECT * FROM messages WHERE conversation_id = ? ORDER BY id LIMIT 1').get(c.id) as MessageRow | undefined;
    const contact = stmt(db, 'SELECT * FROM contacts WHERE id = ?').get(c.contact_id) as ContactRow | undefined;
    const inbox = stmt(db, 'SELECT id, channel_id, name, channel_type FROM inboxes WHERE id = ?').get(c.inbox_id) as Record<string, unknown> | undefined;
    const agent = c.assignee_id == null ? undefined : userById(db, c.assignee_id);
    const role = agent ? (stmt(db, 'SELECT role FROM account_users WHERE account_id = ? AND user_id = ?').get(c.account_id, agent.id) as { role: string } | undefined) : undefined;
    return {
      id: c.display_id,
      account_id: c.account_id,
      created_at: epoch(c.created_at),
      message: first ? messageRest(db, first, c.display_id) : null,
      ...(contact ? { contact: contactSearchResult(contact) } : {}),
      ...(inbox ? { inbox } : {}),
      ...(agent ? { agent: { id: agent.id, available_name: availableName(agent), email: agent.email, name: agent.name, role: role?.role ?? 'agent' } } : {}),
      additional_attributes: json.parse(c.additional_attributes),
    };
  });
}

function contacts(db: Db, s: Search) {
  const rows = stmt(
    db,
    `SELECT * FROM contacts WHERE account_id = ?
       AND (COALESCE(email, '') != '' OR COALESCE(phone_number, '') != '' OR COALESCE(identifier, '') != '')
       AND (name LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' OR phone_number LIKE ? ESCAPE '\\' OR identifier LIKE ? ESCAPE '\\')
     ORDER BY last_activity_at DESC NULLS LAST, id DESC LIMIT ? OFFSET ?`,
  ).all(s.scope.accountId, s.like, s.like, s.like, s.like, PER_PAGE, s.offset) as ContactRow[];
  return rows.map(contactSearchResult);
}

function messages(db: Db, s: Search) {
  const inboxes = visibleInboxIds(db, s.scope);
  const rows = db
    .prepare(
      `SELECT * FROM messages WHERE account_id = ? AND inbox_id IN (${placeholders(inboxes)}) AND message_type IN (0, 1)
         AND created_at >= ? AND content LIKE ? ESCAPE '\\'
       ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    )
    .all(s.scope.accountId, ...inboxes, s.now - THREE_MONTHS, s.like, PER_PAGE, s.offset) as MessageRow[];
  return rows.map((m) => messageRest(db, m));
}

const finders: Record<Kind, (db: Db, s: Search) => unknown[]> = { conversations, contacts, messages };

export function searchRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { db } = deps;
  const prepare = (request: Parameters<typeof scoped>[1]): Search => {
    const scope = scoped(db, request);
    const query = parseParams(searchQuery, request.query, 'query parameter');
    const q = query.q?.trim() ?? '';
    if (!q) throw invalid('Specify search string with parameter q', ['q']);
    return { scope, q, like: `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`, offset: ((query.page ?? 1) - 1) * PER_PAGE, now: deps.clock() };
  };

  // This service has no help center, so `articles` is always empty.
  app.get(S, async (request) => {
    const s = prepare(request);
    return { payload: { conversations: conversations(db, s), contacts: contacts(db, s), messages: messages(db, s), articles: [] } };
  });

  for (const kind of Object.keys(finders) as Kind[]) {
    app.get(`${S}/${kind}`, async (request) => ({ payload: { [kind]: finders[kind](db, prepare(request)) } }));
  }
}
