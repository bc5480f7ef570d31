// Conversation reads: the list (filters, sort, page, meta counts), one conversation, its messages.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import { authenticate, requireAccount, userById } from '../http/auth';
import type { AccountScope } from '../http/auth';
import { notFound } from '../http/errors';
import { intString, listParam, parseParams } from '../http/params';
import { conversationRest } from '../presenters/conversation';
import type { MessageRow } from '../presenters/message';
import { messageRest } from '../presenters/message';
import { contactById, contactPush, userPush } from '../presenters/people';
import { iso } from '../presenters/time';
import { canSee, conversationByDisplayId, labelsOf, listConversations } from '../store/conversations';
import { json } from '../db/open';

const accountParams = z.object({ account_id: intString });
const conversationParams = accountParams.extend({ conversation_id: intString });

const listQuery = z.object({
  page: intString.optional(),
  status: z.enum(['open', 'resolved', 'pending', 'snoozed', 'all']).optional(),
  assignee_type: z.string().max(50).optional(),
  inbox_id: intString.optional(),
  team_id: intString.optional(),
  q: z.string().max(1000).optional(),
  sort_by: z.string().max(100).optional(),
});

const messagesQuery = z.object({ before: intString.optional(), after: z.union([z.literal('0'), intString]).optional() });

export function scoped(db: Db, request: Parameters<typeof authenticate>[1]): AccountScope {
  const { account_id } = parseParams(accountParams, request.params, 'path parameter');
  return requireAccount(db, authenticate(db, request), account_id);
}

/** A conversation the caller may see, by its display id; 404 otherwise (another account, another inbox). */
export function visibleConversation(db: Db, scope: AccountScope, params: unknown) {
  const { conversation_id } = parseParams(conversationParams, params, 'path parameter');
  const c = conversationByDisplayId(db, scope.accountId, conversation_id);
  if (!c || !canSee(db, scope, c)) throw notFound();
  return c;
}

/** Message history by id cursors (spec, Pagination): 20 latest / 20 before / 100 after / 1000 between. */
export function messagePage(db: Db, conversationId: number, before?: number, after?: number): MessageRow[] {
  if (before !== undefined && after !== undefined) {
    return stmt(db, 'SELECT * FROM messages WHERE conversation_id = ? AND id >= ? AND id < ? ORDER BY id ASC LIMIT 1000').all(
      conversationId,
      after,
      before,
    ) as MessageRow[];
  }
  if (after !== undefined) {
    return stmt(db, 'SELECT * FROM messages WHERE conversation_id = ? AND id > ? ORDER BY id ASC LIMIT 100').all(conversationId, after) as MessageRow[];
  }
  const older = before === undefined
    ? stmt(db, 'SELECT * FROM messages WHERE conversation_id = ? ORDER BY id DESC LIMIT 20').all(conversationId)
    : stmt(db, 'SELECT * FROM messages WHERE conversation_id = ? AND id < ? ORDER BY id DESC LIMIT 20').all(conversationId, before);
  return (older as MessageRow[]).reverse();
}

export function conversationRoutes(app: FastifyInstance, db: Db) {
  app.get('/api/v1/accounts/:account_id/conversations', async (request) => {
    const scope = scoped(db, request);
    const raw = (request.query ?? {}) as Record<string, unknown>;
    const q = parseParams(listQuery, raw, 'query parameter');
    const { rows, meta } = listConversations(db, scope, {
      status: q.status ?? 'open',
      assigneeType: q.assignee_type,
      inboxId: q.inbox_id,
      teamId: q.team_id,
      labels: listParam(raw, 'labels'),
      q: q.q?.trim() || undefined,
      sortBy: q.sort_by,
      page: q.page ?? 1,
    });
    return { data: { meta, payload: rows.map((c) => conversationRest(db, c, scope)) } };
  });

  app.get('/api/v1/accounts/:account_id/conversations/:conversation_id', async (request) => {
    const scope = scoped(db, request);
    return conversationRest(db, visibleConversation(db, scope, request.params), scope);
  });

  app.get('/api/v1/accounts/:account_id/conversations/:conversation_id/messages', async (request) => {
    const scope = scoped(db, request);
    const c = visibleConversation(db, scope, request.params);
    const { before, after } = parseParams(messagesQuery, request.query, 'query parameter');
    const contact = contactById(db, c.contact_id);
    const assignee = c.assignee_id == null ? undefined : userById(db, c.assignee_id);
    return {
      meta: {
        labels: labelsOf(db, c.id),
        additional_attributes: json.parse(c.additional_attributes),
        contact: contact ? contactPush(contact) : null,
        ...(assignee ? { assignee: userPush(assignee) } : {}),
        agent_last_seen_at: iso(c.agent_last_seen_at),
        assignee_last_seen_at: iso(c.assignee_last_seen_at),
      },
      payload: messagePage(db, c.id, before, after === undefined ? undefined : Number(after)).map((m) => messageRest(db, m, c.display_id)),
    };
  });
}
