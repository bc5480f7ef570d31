// Conversations: the list (filters, sort, page, meta counts), counts alone, message search, one
// conversation, creating one, and deleting one (administrators).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { stmt } from '../db/open';
import { requireAdmin } from '../http/auth';
import { input, parseBody } from '../http/body';
import { notFound } from '../http/errors';
import { createOnce, keyedRequest, replayed } from '../http/idempotency';
import { intString, listParam, parseParams } from '../http/params';
import { etag } from '../http/preconditions';
import { callerScoped, scoped, visibleConversation } from '../http/scope';
import { conversationRest } from '../presenters/conversation';
import { epoch } from '../presenters/time';
import type { ConversationFilters } from '../store/conversations';
import { deleteConversation, listConversations } from '../store/conversations';
import { startConversation, startConversationBody } from '../store/conversation-create';
import type { MessageRow } from '../presenters/message';
import type { RouteDeps } from './deps';
import { writeContext } from './deps';

const A = '/api/v1/accounts/:account_id/conversations';

const listQuery = z.object({
  page: intString.optional(),
  status: z.enum(['open', 'resolved', 'pending', 'snoozed', 'all']).optional(),
  assignee_type: z.string().max(50).optional(),
  inbox_id: intString.optional(),
  team_id: intString.optional(),
  q: z.string().max(1000).optional(),
  sort_by: z.string().max(100).optional(),
});
/**
 * The list only (chatwoot-compat §7): every conversation updated within that many seconds, no page.
 * The counts ignore it, as in the reference; /meta and /search do not read it. Catch-up for a client
 * of a service without the changes feed.
 */
const updatedWithinQuery = z.object({ updated_within: z.union([z.literal('0'), intString]).optional() });

function filtersOf(raw: Record<string, unknown>): ConversationFilters {
  const q = parseParams(listQuery, raw, 'query parameter');
  return {
    status: q.status ?? 'open',
    assigneeType: q.assignee_type,
    inboxId: q.inbox_id,
    teamId: q.team_id,
    labels: listParam(raw, 'labels'),
    q: q.q?.trim() || undefined,
    sortBy: q.sort_by,
    page: q.page ?? 1,
  };
}

export function conversationRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { db } = deps;

  app.get(A, async (request) => {
    const scope = scoped(db, request);
    const raw = (request.query ?? {}) as Record<string, unknown>;
    const filters = filtersOf(raw);
    const { updated_within } = parseParams(updatedWithinQuery, raw, 'query parameter');
    if (updated_within !== undefined) filters.updatedAfter = deps.clock() - Number(updated_within) * 1000;
    const { rows, meta } = listConversations(db, scope, filters);
    return { data: { meta, payload: rows.map((c) => conversationRest(db, c, scope)) } };
  });

  // The same counts as the list, without the list and without a `data` wrapper.
  app.get(`${A}/meta`, async (request) => {
    const scope = scoped(db, request);
    const { meta } = listConversations(db, scope, { ...filtersOf((request.query ?? {}) as Record<string, unknown>), page: 1 });
    return { meta };
  });

  // Conversations whose incoming/outgoing messages contain `q`, with those messages (chatwoot-compat §2.3).
  app.get(`${A}/search`, async (request) => {
    const scope = scoped(db, request);
    const raw = (request.query ?? {}) as Record<string, unknown>;
    const filters = filtersOf(raw);
    const q = filters.q;
    const { rows, meta } = listConversations(db, scope, { ...filters, q: undefined, messageQ: q, status: q ? 'all' : filters.status });
    const like = q ? `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : '%';
    const payload = rows.map((c) => {
      const contact = stmt(db, 'SELECT id, name FROM contacts WHERE id = ?').get(c.contact_id) as { id: number; name: string };
      const inbox = stmt(db, 'SELECT id, name, channel_type FROM inboxes WHERE id = ?').get(c.inbox_id) as { id: number; name: string; channel_type: string };
      const messages = stmt(
        db,
        `SELECT * FROM messages WHERE conversation_id = ? AND message_type IN (0, 1) AND content LIKE ? ESCAPE '\\' ORDER BY id LIMIT 100`,
      ).all(c.id, like) as MessageRow[];
      return {
        id: c.display_id,
        uuid: c.uuid,
        created_at: epoch(c.created_at),
        contact,
        inbox,
        messages: messages.map((m) => ({ content: m.content, id: m.id, ...senderName(m), message_type: m.message_type, created_at: epoch(m.created_at) })),
        account_id: c.account_id,
      };
    });
    return { meta: { mine_count: meta.mine_count, unassigned_count: meta.unassigned_count, all_count: meta.all_count }, payload };
  });

  const senderName = (m: MessageRow) => {
    if (m.sender_id == null) return {};
    const table = m.sender_type === 'User' ? 'users' : m.sender_type === 'Contact' ? 'contacts' : m.sender_type === 'AgentBot' ? 'agent_bots' : null;
    const row = table ? (stmt(db, `SELECT name FROM ${table} WHERE id = ?`).get(m.sender_id) as { name: string } | undefined) : undefined;
    return row ? { sender_name: row.name } : {};
  };

  // ETag: the conversation's revision (SYNC-PROTOCOL.md); the writes accept it back as If-Match.
  app.get(`${A}/:conversation_id`, async (request, reply) => {
    const scope = scoped(db, request);
    const c = visibleConversation(db, scope, request.params);
    reply.header('ETag', etag(c.revision));
    return conversationRest(db, c, scope);
  });

  // No deduplication (spec: Retries): a retried create is a second conversation, unless the client
  // sends an Idempotency-Key (beyond the spec, http/idempotency.ts).
  app.post(A, async (request, reply) => {
    const caller = callerScoped(db, request);
    const keyed = keyedRequest(request, caller);
    const replay = replayed(deps, reply, keyed);
    if (replay) return replay;
    const body = parseBody(startConversationBody, input(request));
    return createOnce(deps, reply, keyed, () => conversationRest(db, startConversation(writeContext(deps, caller), caller, body), caller));
  });

  app.delete(`${A}/:conversation_id`, async (request, reply) => {
    const scope = scoped(db, request);
    const c = visibleConversation(db, scope, request.params);
    requireAdmin(scope);
    if (!deleteConversation(db, c.id)) throw notFound();
    return reply.code(200).send();
  });

}
