// Saved filters (chatwoot-compat §1.10): each user's own, per account and filter type; a bare array,
// no paging; at most 1000 per user per account; delete answers 204.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { json } from '../../db/open';
import { attributesObject, oneOf } from '../../http/body';
import { invalid, notFound } from '../../http/errors';
import { parseParams } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { idParams } from '../../http/scope';
import { iso } from '../../presenters/time';
import type { CustomFilterRow } from '../../store/custom-filters';
import { customFilterCount, customFiltersOf, deleteCustomFilter, insertCustomFilter, ownCustomFilter, updateCustomFilter } from '../../store/custom-filters';
import type { RouteDeps } from '../deps';
import { memberOf } from '../account-scope';

const LIMIT = 1000;
const filterTypes = ['conversation', 'contact', 'report'] as const;

const present = (f: CustomFilterRow) => ({ id: f.id, name: f.name, filter_type: f.filter_type, query: json.parse(f.query), created_at: iso(f.created_at), updated_at: iso(f.updated_at) });
const fields = z.object({
  name: z.string({ error: "can't be blank" }).trim().min(1, "can't be blank").max(255),
  filter_type: oneOf(filterTypes).optional(),
  query: attributesObject,
});
const listQuery = z.object({ filter_type: oneOf(filterTypes).optional() });

export function customFilterRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const config = { wrap: 'custom_filter' };
    /** The caller's own filter named in the path; anyone else's is 404. */
    const own = (request: Parameters<typeof memberOf>[0]): CustomFilterRow => {
      const scope = memberOf(request);
      const row = ownCustomFilter(db, scope.accountId, scope.user.id, parseParams(idParams, request.params, 'path parameter').id);
      if (!row) throw notFound();
      return row;
    };

    app.get('/custom_filters', { schema: { querystring: listQuery } }, async (request) => {
      const scope = memberOf(request);
      return customFiltersOf(db, scope.accountId, scope.user.id, request.query.filter_type ?? 'conversation').map(present);
    });

    app.get('/custom_filters/:id', { schema: { params: idParams } }, async (request) => present(own(request)));

    app.post('/custom_filters', { config, schema: { body: fields } }, async (request) => {
      const scope = memberOf(request);
      if (customFilterCount(db, scope.accountId, scope.user.id) >= LIMIT) {
        throw invalid(`Account Limit reached. The maximum number of allowed custom filters for a user per account is ${LIMIT}.`, ['account_id']);
      }
      const { name, filter_type, query } = request.body;
      return present(insertCustomFilter(db, scope.accountId, scope.user.id, { name, filter_type: filter_type ?? 'conversation', query }, deps.clock()));
    });

    // Fields not sent keep their values: the body is validated over the stored filter.
    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/custom_filters/:id',
        config,
        schema: { params: idParams, body: fields },
        preValidation: async (request) => {
          const row = own(request);
          // Not validated yet: the stored values under what was sent.
          (request as { body: unknown }).body = { name: row.name, filter_type: row.filter_type, query: json.parse(row.query), ...(request.body as object) };
        },
        handler: async (request) => {
          const row = own(request);
          const { name, filter_type, query } = request.body;
          return present(updateCustomFilter(db, row.id, { name, filter_type: filter_type ?? row.filter_type, query }, deps.clock()));
        },
      });
    }

    app.delete('/custom_filters/:id', { schema: { params: idParams } }, async (request, reply) => {
      deleteCustomFilter(db, own(request).id);
      return reply.code(204).send();
    });
  };
}
