// Canned responses (chatwoot-compat §1.9): a bare array of raw models, no role check, no show route;
// short codes unique per account.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { invalid, notFound } from '../../http/errors';
import { parseParams } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { idParams } from '../../http/scope';
import { iso } from '../../presenters/time';
import type { CannedRow } from '../../store/labels';
import { cannedById, cannedOfAccount, cannedWithCode, deleteCanned, saveCanned } from '../../store/labels';
import type { RouteDeps } from '../deps';

const present = (r: CannedRow) => ({ id: r.id, content: r.content, short_code: r.short_code, account_id: r.account_id, created_at: iso(r.created_at), updated_at: iso(r.updated_at) });
const fields = z.object({
  short_code: z.string({ error: "can't be blank" }).trim().min(1, "can't be blank").max(255),
  content: z.string({ error: "can't be blank" }).trim().min(1, "can't be blank").max(65_535),
});
const listQuery = z.object({ search: z.string().max(500).optional() });

export function cannedResponseRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const config = { wrap: 'canned_response' };
    const cannedIn = (accountId: number, params: unknown): CannedRow => {
      const row = cannedById(db, accountId, parseParams(idParams, params, 'path parameter').id);
      if (!row) throw notFound();
      return row;
    };
    const save = (accountId: number, body: z.output<typeof fields>, id?: number) => {
      const clash = cannedWithCode(db, accountId, body.short_code);
      if (clash && clash.id !== id) throw invalid('Short code has already been taken', ['short_code']);
      return present(saveCanned(db, accountId, body, deps.clock(), id));
    };

    app.get('/canned_responses', { schema: { querystring: listQuery } }, async (request) => {
      const search = request.query.search?.trim().toLowerCase();
      // Ranked as the reference service: short_code prefix > short_code contains > content contains.
      const rank = (r: CannedRow) =>
        !search ? 1 : r.short_code.toLowerCase().startsWith(search) ? 1 : r.short_code.toLowerCase().includes(search) ? 0.5 : r.content.toLowerCase().includes(search) ? 0.2 : 0;
      return cannedOfAccount(db, request.caller.accountId)
        .map((r) => ({ r, score: rank(r) }))
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score)
        .map(({ r }) => present(r));
    });

    app.post('/canned_responses', { config, schema: { body: fields } }, async (request) => save(request.caller.accountId, request.body));

    // Fields left out keep their values: the body is validated over the stored response.
    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/canned_responses/:id',
        config,
        schema: { params: idParams, body: fields },
        preValidation: async (request) => {
          const row = cannedIn(request.caller.accountId, request.params);
          request.body = { short_code: row.short_code, content: row.content, ...(request.body as object) };
        },
        handler: async (request) => save(request.caller.accountId, request.body, cannedIn(request.caller.accountId, request.params).id),
      });
    }

    app.delete('/canned_responses/:id', { schema: { params: idParams } }, async (request, reply) => {
      deleteCanned(db, cannedIn(request.caller.accountId, request.params).id);
      return reply.code(200).send();
    });
  };
}
