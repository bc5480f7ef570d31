// Account webhooks (Application API, administrators only; chatwoot-compat §1.14, §5.1; spec: Events).
// Validation failures are 422 {message, attributes}: an unknown event name is exactly
// {message: "Subscriptions Invalid events", attributes: ["subscriptions"]}, a URL the account
// already has is {message: "Url has already been taken", attributes: ["url"]}. Only http and
// https URLs are accepted.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/open';
import { inboxById } from '../store/inboxes';
import type { WebhookRow } from '../store/webhooks';
import { deleteWebhook, insertWebhook, updateWebhook, webhookById, webhooksOf, webhookUrlTaken } from '../store/webhooks';
import type { AccountScope } from '../http/auth';
import { HttpError, notAuthorized, notFound, unprocessable } from '../http/errors';
import { intString, parseParams } from '../http/params';
import { input, wrapped } from '../http/body';
import { WEBHOOK_EVENTS } from '../webhooks/events';
import { scoped } from '../http/scope';

const webhookFields = z.object({
  url: z.string().max(2048).nullish(),
  name: z.string().max(255).nullish(),
  inbox_id: intString.nullish(),
  subscriptions: z.array(z.string().max(100)).max(100).nullish(),
});
const idParams = z.object({ account_id: intString, id: intString });

function adminScope(db: Db, request: FastifyRequest): AccountScope {
  const scope = scoped(db, request);
  if (scope.role !== 'administrator') throw notAuthorized();
  return scope;
}

function present(db: Db, w: WebhookRow) {
  const row = w.inbox_id == null ? undefined : inboxById(db, w.account_id, w.inbox_id);
  const inbox = row && { id: row.id, name: row.name };
  return { id: w.id, name: w.name, url: w.url, account_id: w.account_id, subscriptions: JSON.parse(w.subscriptions) as string[], ...(inbox ? { inbox } : {}) };
}

/**
 * `{webhook: {...}}` or its fields flat (Rails' parameter wrapping); nothing at all is 422 {error},
 * as the reference answers ParameterMissing.
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
function validate(db: Db, scope: AccountScope, w: { url: string; subscriptions: string[]; inbox_id: number | null }, selfId?: number) {
  const errors: [string, string][] = [];
  if (!w.url.trim()) errors.push(['url', "Url can't be blank"]);
  else if (!isHttpUrl(w.url)) errors.push(['url', 'Url is invalid']);
  else if (webhookUrlTaken(db, scope.accountId, w.url, selfId)) {
    errors.push(['url', 'Url has already been taken']);
  }
  const allowed = new Set<string>(WEBHOOK_EVENTS);
  if (!w.subscriptions.length || w.subscriptions.some((s) => !allowed.has(s))) errors.push(['subscriptions', 'Subscriptions Invalid events']);
  if (w.inbox_id != null && !inboxById(db, scope.accountId, w.inbox_id)) {
    errors.push(['inbox', 'Inbox must exist']);
  }
  if (errors.length) throw new HttpError(422, { message: errors.map((e) => e[1]).join(', '), attributes: [...new Set(errors.map((e) => e[0]))] });
}

export function webhookRoutes(app: FastifyInstance, db: Db, clock: () => number) {
  const A = '/api/v1/accounts/:account_id/webhooks';
  const byId = (scope: AccountScope, params: unknown) => {
    const { id } = parseParams(idParams, params, 'path parameter');
    const row = webhookById(db, scope.accountId, id);
    if (!row) throw notFound();
    return row;
  };

  app.get(A, async (request) => {
    const scope = adminScope(db, request);
    return { payload: { webhooks: webhooksOf(db, scope.accountId).map((w) => present(db, w)) } };
  });

  app.post(A, async (request) => {
    const scope = adminScope(db, request);
    const input = webhookParam(request);
    const w = { url: input.url ?? '', subscriptions: input.subscriptions ?? [], inbox_id: input.inbox_id ?? null };
    validate(db, scope, w);
    return { payload: { webhook: present(db, insertWebhook(db, scope.accountId, { ...w, name: input.name ?? null }, clock())) } };
  });

  const update = async (request: FastifyRequest) => {
    const scope = adminScope(db, request);
    const row = byId(scope, request.params);
    const input = webhookParam(request);
    const w = {
      url: input.url === undefined ? row.url : (input.url ?? ''),
      subscriptions: input.subscriptions === undefined ? (JSON.parse(row.subscriptions) as string[]) : (input.subscriptions ?? []),
      inbox_id: input.inbox_id === undefined ? row.inbox_id : input.inbox_id,
    };
    validate(db, scope, w, row.id);
    const name = input.name === undefined ? row.name : input.name;
    return { payload: { webhook: present(db, updateWebhook(db, row, { ...w, name }, clock())) } };
  };
  app.patch(`${A}/:id`, update);
  app.put(`${A}/:id`, update);

  app.delete(`${A}/:id`, async (request, reply) => {
    const scope = adminScope(db, request);
    const row = byId(scope, request.params);
    deleteWebhook(db, row.id);
    return reply.code(200).send();
  });
}
