// Account webhooks (Application API, administrators only; chatwoot-compat §1.14, §5.1; spec: Events).
// Validation failures are 422 {message, attributes}: an unknown event name is exactly
// {message: "Subscriptions Invalid events", attributes: ["subscriptions"]}, a URL the account
// already has is {message: "Url has already been taken", attributes: ["url"]}. Only http and
// https URLs are accepted.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/open';
import { input, wrapped } from '../../http/body';
import { HttpError, notFound, unprocessable } from '../../http/errors';
import { intString, parseParams } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { idParams } from '../../http/scope';
import { inboxById } from '../../store/inboxes';
import type { WebhookRow } from '../../store/webhooks';
import { deleteWebhook, insertWebhook, updateWebhook, webhookById, webhooksOf, webhookUrlTaken } from '../../store/webhooks';
import { WEBHOOK_EVENTS } from '../../webhooks/events';
import type { RouteDeps } from '../deps';

const webhookFields = z.object({
  url: z.string().max(2048).nullish(),
  name: z.string().max(255).nullish(),
  inbox_id: intString.nullish(),
  subscriptions: z.array(z.string().max(100)).max(100).nullish(),
});

function present(db: Db, w: WebhookRow) {
  const row = w.inbox_id == null ? undefined : inboxById(db, w.account_id, w.inbox_id);
  const inbox = row && { id: row.id, name: row.name };
  return { id: w.id, name: w.name, url: w.url, account_id: w.account_id, subscriptions: JSON.parse(w.subscriptions) as string[], ...(inbox ? { inbox } : {}) };
}

/**
 * `{webhook: {...}}` or its fields flat (Rails' parameter wrapping); nothing at all is 422 {error},
 * as the reference answers ParameterMissing. Read in the handler, not a body schema: a malformed
 * field is 400 {error} here, where a route schema's body failure is 422.
 */
function webhookParam(request: FastifyRequest) {
  const params = input(request);
  const webhook = 'webhook' in params ? params.webhook : wrapped(params, 'webhook');
  if (webhook === undefined || webhook === null || typeof webhook !== 'object' || Array.isArray(webhook) || !Object.keys(webhook).length) {
    throw unprocessable('param is missing or the value is empty: webhook');
  }
  return parseParams(webhookFields, webhook, 'webhook');
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && Boolean(u.hostname);
  } catch {
    return false;
  }
}

/** Every failing rule at once, as Rails joins full messages. */
function validate(db: Db, accountId: number, w: { url: string; subscriptions: string[]; inbox_id: number | null }, selfId?: number) {
  const errors: [string, string][] = [];
  if (!w.url.trim()) errors.push(['url', "Url can't be blank"]);
  else if (!isHttpUrl(w.url)) errors.push(['url', 'Url is invalid']);
  else if (webhookUrlTaken(db, accountId, w.url, selfId)) {
    errors.push(['url', 'Url has already been taken']);
  }
  const allowed = new Set<string>(WEBHOOK_EVENTS);
  if (!w.subscriptions.length || w.subscriptions.some((s) => !allowed.has(s))) errors.push(['subscriptions', 'Subscriptions Invalid events']);
  if (w.inbox_id != null && !inboxById(db, accountId, w.inbox_id)) {
    errors.push(['inbox', 'Inbox must exist']);
  }
  if (errors.length) throw new HttpError(422, { message: errors.map((e) => e[1]).join(', '), attributes: [...new Set(errors.map((e) => e[0]))] });
}

export function webhookRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const config = { access: 'administrator' as const };
    const byId = (request: FastifyRequest) => {
      const row = webhookById(db, request.caller.accountId, parseParams(idParams, request.params, 'path parameter').id);
      if (!row) throw notFound();
      return row;
    };

    app.get('/webhooks', { config }, async (request) => ({ payload: { webhooks: webhooksOf(db, request.caller.accountId).map((w) => present(db, w)) } }));

    app.post('/webhooks', { config }, async (request) => {
      const { accountId } = request.caller;
      const input = webhookParam(request);
      const w = { url: input.url ?? '', subscriptions: input.subscriptions ?? [], inbox_id: input.inbox_id ?? null };
      validate(db, accountId, w);
      return { payload: { webhook: present(db, insertWebhook(db, accountId, { ...w, name: input.name ?? null }, deps.clock())) } };
    });

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/webhooks/:id',
        config,
        schema: { params: idParams },
        handler: async (request) => {
          const row = byId(request);
          const input = webhookParam(request);
          const w = {
            url: input.url === undefined ? row.url : (input.url ?? ''),
            subscriptions: input.subscriptions === undefined ? (JSON.parse(row.subscriptions) as string[]) : (input.subscriptions ?? []),
            inbox_id: input.inbox_id === undefined ? row.inbox_id : input.inbox_id,
          };
          validate(db, request.caller.accountId, w, row.id);
          const name = input.name === undefined ? row.name : input.name;
          return { payload: { webhook: present(db, updateWebhook(db, row, { ...w, name }, deps.clock())) } };
        },
      });
    }

    app.delete('/webhooks/:id', { config, schema: { params: idParams } }, async (request, reply) => {
      deleteWebhook(db, byId(request).id);
      return reply.code(200).send();
    });
  };
}
