// Global search (chatwoot-compat §1.12, §2.15): conversations, contacts and messages, 15 per type
// per page; messages only from the last 3 months and only from inboxes the caller may see. The
// finders are store/search.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/open';
import { json } from '../../db/open';
import { visibleInboxIds } from '../../http/auth';
import { invalid } from '../../http/errors';
import { intString } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { contactSearchResult } from '../../presenters/contact';
import { messageRest } from '../../presenters/message';
import { availableName, contactById } from '../../presenters/people';
import { epoch } from '../../presenters/time';
import { inboxById } from '../../store/inboxes';
import type { SearchTerms } from '../../store/search';
import { firstMessageOf, SEARCH_PAGE_SIZE, searchContacts, searchConversations, searchMessages } from '../../store/search';
import { roleIn, userById } from '../../store/users';
import type { RouteDeps } from '../deps';

const THREE_MONTHS = 90 * 86_400_000;
const searchQuery = z.object({ q: z.string().max(1000).optional(), page: intString.optional() });
type Kind = 'conversations' | 'contacts' | 'messages';

function conversations(db: Db, s: SearchTerms) {
  return searchConversations(db, s).map((c) => {
    const first = firstMessageOf(db, c.id);
    const contact = contactById(db, c.contact_id);
    const inbox = inboxById(db, c.account_id, c.inbox_id);
    const agent = c.assignee_id == null ? undefined : userById(db, c.assignee_id);
    return {
      id: c.display_id,
      account_id: c.account_id,
      created_at: epoch(c.created_at),
      message: first ? messageRest(db, first, c.display_id) : null,
      ...(contact ? { contact: contactSearchResult(contact) } : {}),
      ...(inbox ? { inbox: { id: inbox.id, channel_id: inbox.channel_id, name: inbox.name, channel_type: inbox.channel_type } } : {}),
      ...(agent ? { agent: { id: agent.id, available_name: availableName(agent), email: agent.email, name: agent.name, role: roleIn(db, c.account_id, agent.id) ?? 'agent' } } : {}),
      additional_attributes: json.parse(c.additional_attributes),
    };
  });
}

export function searchRoutes(deps: RouteDeps) {
  const { db } = deps;
  const finders: Record<Kind, (s: SearchTerms) => unknown[]> = {
    conversations: (s) => conversations(db, s),
    contacts: (s) => searchContacts(db, s).map(contactSearchResult),
    messages: (s) => searchMessages(db, s, deps.clock() - THREE_MONTHS).map((m) => messageRest(db, m)),
  };
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const terms = (request: FastifyRequest, query: z.output<typeof searchQuery>): SearchTerms => {
      const q = query.q?.trim() ?? '';
      if (!q) throw invalid('Specify search string with parameter q', ['q']);
      return {
        accountId: request.caller.accountId,
        inboxIds: visibleInboxIds(db, request.caller),
        q,
        like: `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`,
        offset: ((query.page ?? 1) - 1) * SEARCH_PAGE_SIZE,
      };
    };

    // This service has no help center, so `articles` is always empty.
    app.get('/search', { schema: { querystring: searchQuery } }, async (request) => {
      const s = terms(request, request.query);
      return { payload: { conversations: finders.conversations(s), contacts: finders.contacts(s), messages: finders.messages(s), articles: [] } };
    });

    for (const kind of Object.keys(finders) as Kind[]) {
      app.get(`/search/${kind}`, { schema: { querystring: searchQuery } }, async (request) => ({ payload: { [kind]: finders[kind](terms(request, request.query)) } }));
    }
  };
}
