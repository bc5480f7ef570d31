// Conversations: the list (filters, sort, page, meta counts), counts alone, message search, one
// conversation, creating one, and deleting one (administrators).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireAdmin } from '../../http/auth';
import { input, parseBody } from '../../http/body';
import { notFound } from '../../http/errors';
import { createOnce, keyedRequest, replayed } from '../../http/idempotency';
import { intString, listParam } from '../../http/params';
import { etag } from '../../http/preconditions';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { conversationParams, visibleConversation } from '../../http/scope';
import { conversationRest } from '../../presenters/conversation';
import { contactById } from '../../presenters/people';
import { epoch } from '../../presenters/time';
import { startConversation, startConversationBody } from '../../store/conversation-create';
import type { ConversationFilters } from '../../store/conversations';
import { deleteConversation, listConversations } from '../../store/conversations';
import { inboxById } from '../../store/inboxes';
import { messagesContaining, senderNameOf } from '../../store/messages';
import { memberOf } from '../account-scope';
import type { RouteDeps } from '../deps';
import { writeContext } from '../deps';

const listQuery = z.object({
  page: intString.optional(),
  status: z.enum(['open', 'resolved', 'pending', 'snoozed', 'all']).optional(),
  assignee_type: z.string().max(50).optional(),
  inbox_id: intString.optional(),
  team_id: intString.optional(),
  q: z.string().max(1000).optional(),
  sort_by: z.string().max(100).optional(),
  // A list (`labels[]=a`, `labels=a,b`: http/params.ts#listParam).
  labels: z.unknown().optional(),
  'labels[]': z.unknown().optional(),
});
/**
 * The list only (chatwoot-compat §7): every conversation updated within that many seconds, no page.
 * The counts ignore it, as in the reference; /meta and /search do not read it. Catch-up for a client
 * of a service without the changes feed.
 */
const updatedWithinQuery = listQuery.extend({ updated_within: z.union([z.literal('0'), intString]).optional() });

function filtersOf(q: z.output<typeof listQuery>): ConversationFilters {
  return {
    status: q.status ?? 'open',
    assigneeType: q.assignee_type,
    inboxId: q.inbox_id,
    teamId: q.team_id,
    labels: listParam(q, 'labels'),
    q: q.q?.trim() || undefined,
    sortBy: q.sort_by,
    page: q.page ?? 1,
  };
}

export function conversationRoutes(deps: RouteDeps) {
  const { db } = deps;
  const conversationOf = (request: FastifyRequest) => visibleConversation(db, request.caller, request.params);

  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();

    app.get('/conversations', { schema: { querystring: updatedWithinQuery } }, async (request) => {
      const scope = memberOf(request);
      const filters = filtersOf(request.query);
      const { updated_within } = request.query;
      if (updated_within !== undefined) filters.updatedAfter = deps.clock() - Number(updated_within) * 1000;
      const { rows, meta } = listConversations(db, scope, filters);
      return { data: { meta, payload: rows.map((c) => conversationRest(db, c, scope)) } };
    });

    // The same counts as the list, without the list and without a `data` wrapper.
    app.get('/conversations/meta', { schema: { querystring: listQuery } }, async (request) => {
      const { meta } = listConversations(db, memberOf(request), { ...filtersOf(request.query), page: 1 });
      return { meta };
    });

    // Conversations whose incoming/outgoing messages contain `q`, with those messages (chatwoot-compat §2.3).
    app.get('/conversations/search', { schema: { querystring: listQuery } }, async (request) => {
      const filters = filtersOf(request.query);
      const q = filters.q;
      const { rows, meta } = listConversations(db, memberOf(request), { ...filters, q: undefined, messageQ: q, status: q ? 'all' : filters.status });
      const like = q ? `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : '%';
      const payload = rows.map((c) => {
        const contact = contactById(db, c.contact_id);
        const inbox = inboxById(db, c.account_id, c.inbox_id);
        return {
          id: c.display_id,
          uuid: c.uuid,
          created_at: epoch(c.created_at),
          contact: contact && { id: contact.id, name: contact.name },
          inbox: inbox && { id: inbox.id, name: inbox.name, channel_type: inbox.channel_type },
          messages: messagesContaining(db, c.id, like).map((m) => {
            const sender = senderNameOf(db, m);
            return { content: m.content, id: m.id, ...(sender === undefined ? {} : { sender_name: sender }), message_type: m.message_type, created_at: epoch(m.created_at) };
          }),
          account_id: c.account_id,
        };
      });
      return { meta: { mine_count: meta.mine_count, unassigned_count: meta.unassigned_count, all_count: meta.all_count }, payload };
    });

    // ETag: the conversation's revision (SYNC-PROTOCOL.md); the writes accept it back as If-Match.
    app.get('/conversations/:conversation_id', { schema: { params: conversationParams } }, async (request, reply) => {
      const c = conversationOf(request);
      reply.header('ETag', etag(c.revision));
      return conversationRest(db, c, memberOf(request));
    });

    // No deduplication (spec: Retries): a retried create is a second conversation, unless the client
    // sends an Idempotency-Key (beyond the spec, http/idempotency.ts). The body is read here, not by a
    // body schema: the key's fingerprint is over the body as sent, and a replay answers before the
    // body is judged.
    app.post('/conversations', { config: { access: 'member-or-bot' } }, async (request, reply) => {
      const { caller } = request;
      const keyed = keyedRequest(request, caller);
      const replay = replayed(deps, reply, keyed);
      if (replay) return replay;
      const body = parseBody(startConversationBody, input(request));
      return createOnce(deps, reply, keyed, () => conversationRest(db, startConversation(writeContext(deps, caller), caller, body), caller));
    });

    app.delete('/conversations/:conversation_id', { schema: { params: conversationParams } }, async (request, reply) => {
      const c = conversationOf(request);
      requireAdmin(memberOf(request));
      if (!deleteConversation(db, c.id)) throw notFound();
      return reply.code(200).send();
    });
  };
}
