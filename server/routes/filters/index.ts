// Advanced filters (chatwoot-compat §1.2, §1.4, §7): `POST conversations/filter?page=` answers
// `{meta: {mine_count, unassigned_count, all_count}, payload}` (no `data`, no `assigned_count`),
// 25 a page by last activity, over the conversations the caller may see, any status;
// `POST contacts/filter?page=` answers the contact list shape, 15 a page. The conditions are
// store/filters.ts. The body is `{payload: [...]}`.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { visibleInboxIds } from '../../http/auth';
import { intString } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { contactWithInboxes } from '../../presenters/contact';
import { conversationRest } from '../../presenters/conversation';
import { filterContacts } from '../../store/contacts';
import { listConversations } from '../../store/conversations';
import { filterCondition, filterPayload } from '../../store/filters';
import type { RouteDeps } from '../deps';
import { memberOf } from '../account-scope';

const CONTACTS_PAGE_SIZE = 15;
const pageQuery = z.object({ page: intString.optional() });
const body = z.object({ payload: filterPayload });

export function filterRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();

    app.post('/conversations/filter', { schema: { querystring: pageQuery, body } }, async (request) => {
      const scope = memberOf(request);
      const condition = filterCondition('conversation', request.body.payload, deps.clock());
      const { rows, meta } = listConversations(db, scope, { status: 'all', assigneeType: undefined, condition, page: request.query.page ?? 1 });
      return { meta: { mine_count: meta.mine_count, unassigned_count: meta.unassigned_count, all_count: meta.all_count }, payload: rows.map((c) => conversationRest(db, c, scope)) };
    });

    app.post('/contacts/filter', { schema: { querystring: pageQuery, body } }, async (request) => {
      const page = request.query.page ?? 1;
      const condition = filterCondition('contact', request.body.payload, deps.clock());
      const { count, rows } = filterContacts(db, request.caller.accountId, condition, page, CONTACTS_PAGE_SIZE);
      const inboxes = visibleInboxIds(db, request.caller);
      return { meta: { count, current_page: page }, payload: rows.map((c) => contactWithInboxes(db, c, inboxes)) };
    });
  };
}
