// Account labels (chatwoot-compat §1.8): the list under `payload` for everyone, the rest for
// administrators. Titles are lowercased, unique per account.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { boolish, shortText } from '../../http/body';
import { invalid, notFound } from '../../http/errors';
import { parseParams } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { idParams } from '../../http/scope';
import type { LabelRow } from '../../store/labels';
import { deleteLabel, insertLabel, labelById, labelsOfAccount, labelTitled, updateLabel } from '../../store/labels';
import type { RouteDeps } from '../deps';
import { directoryChanged } from '../deps';

const present = (l: LabelRow) => ({ id: l.id, title: l.title, description: l.description, color: l.color, show_on_sidebar: l.show_on_sidebar === 1 });

const fields = z.object({
  title: z
    .string({ error: "can't be blank" })
    .trim()
    .min(1, "can't be blank")
    .max(255)
    .transform((t) => t.toLowerCase())
    .refine((t) => /^[\p{L}\p{N}_-]+$/u.test(t), 'only letters, numbers, hyphens and underscores are allowed'),
  description: shortText(1000).optional(),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a hex colour like #1f93ff').optional(),
  show_on_sidebar: boolish.optional(),
});

export function labelRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const admin = { access: 'administrator' as const, wrap: 'label' };
    const labelIn = (accountId: number, params: unknown): LabelRow => {
      const row = labelById(db, accountId, parseParams(idParams, params, 'path parameter').id);
      if (!row) throw notFound();
      return row;
    };
    const unique = (accountId: number, title: string, selfId?: number) => {
      const clash = labelTitled(db, accountId, title);
      if (clash && clash.id !== selfId) throw invalid('Title has already been taken', ['title']);
    };

    app.get('/labels', async (request) => ({ payload: labelsOfAccount(db, request.caller.accountId).map(present) }));

    app.get('/labels/:id', { config: admin, schema: { params: idParams } }, async (request) => present(labelIn(request.caller.accountId, request.params)));

    app.post('/labels', { config: admin, schema: { body: fields } }, async (request) => {
      const b = request.body;
      unique(request.caller.accountId, b.title);
      const created = insertLabel(db, request.caller.accountId, { title: b.title, description: b.description ?? '', color: b.color ?? '#1f93ff', showOnSidebar: b.show_on_sidebar ?? true });
      directoryChanged(deps, request.caller.accountId, 'label');
      return present(created);
    });

    // The title may be left out: the body is validated over the stored one.
    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/labels/:id',
        config: admin,
        schema: { params: idParams, body: fields },
        preValidation: async (request) => {
          request.body = { title: labelIn(request.caller.accountId, request.params).title, ...(request.body as object) };
        },
        handler: async (request) => {
          const row = labelIn(request.caller.accountId, request.params);
          const b = request.body;
          unique(request.caller.accountId, b.title, row.id);
          const updated = updateLabel(db, row, { title: b.title, description: b.description, color: b.color, showOnSidebar: b.show_on_sidebar });
          directoryChanged(deps, request.caller.accountId, 'label');
          return present(updated);
        },
      });
    }

    app.delete('/labels/:id', { config: admin, schema: { params: idParams } }, async (request, reply) => {
      deleteLabel(db, labelIn(request.caller.accountId, request.params).id);
      directoryChanged(deps, request.caller.accountId, 'label');
      return reply.code(200).send();
    });
  };
}
