// The caller's notifications in an account (chatwoot-compat §1.11): 15 a page, read and snoozed
// ones only when asked for; unread count; read all; read/unread/snooze/delete one; delete all.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { AccountScope } from '../http/auth';
import { input, oneOf, parseBody } from '../http/body';
import { notFound } from '../http/errors';
import { intString, listParam, parseParams } from '../http/params';
import { pathId, scoped } from '../http/scope';
import type { NotificationRow } from '../presenters/notification';
import { notificationItem, notificationRaw } from '../presenters/notification';
import type { RouteDeps } from './deps';

const N = '/api/v1/accounts/:account_id/notifications';
const PER_PAGE = 15;
const listQuery = z.object({ page: intString.optional(), sort_order: oneOf(['asc', 'desc']).optional() });
const readAllBody = z.object({ primary_actor_type: oneOf(['Conversation']).optional(), primary_actor_id: intString.optional() });
const snoozeBody = z.object({
  snoozed_until: z.union([z.number().int().min(0).max(253_402_300_799), z.string().regex(/^\d{1,12}$/, 'must be epoch seconds')]).transform((v) => Number(v) * 1000),
});
const destroyAllBody = z.object({ type: oneOf(['read', 'all']).optional() });

export function notificationRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { db, bus } = deps;
  const mine = (scope: AccountScope) => [scope.accountId, scope.user.id] as const;
  const unread = (scope: AccountScope) => (stmt(db, 'SELECT COUNT(*) AS n FROM notifications WHERE account_id = ? AND user_id = ? AND read_at IS NULL').get(...mine(scope)) as { n: number }).n;

  const own = (request: FastifyRequest) => {
    const scope = scoped(db, request);
    const row = stmt(db, 'SELECT * FROM notifications WHERE id = ? AND account_id = ? AND user_id = ?').get(pathId(request), ...mine(scope)) as NotificationRow | undefined;
    if (!row) throw notFound();
    return { scope, row };
  };
  const announce = (scope: AccountScope, id: number, name: 'notification.updated' | 'notification.deleted' = 'notification.updated') =>
    bus.emit({ name, accountId: scope.accountId, userId: scope.user.id, notificationId: id });
  const reread = (id: number) => stmt(db, 'SELECT * FROM notifications WHERE id = ?').get(id) as NotificationRow;

  app.get(N, async (request) => {
    const scope = scoped(db, request);
    const raw = (request.query ?? {}) as Record<string, unknown>;
    const q = parseParams(listQuery, raw, 'query parameter');
    const includes = listParam(raw, 'includes') ?? [];
    const where = ['account_id = ?', 'user_id = ?'];
    if (!includes.includes('read')) where.push('read_at IS NULL');
    // Snoozed until a time that has not come yet; once it passes, the notification is back.
    if (!includes.includes('snoozed')) where.push(`(snoozed_until IS NULL OR snoozed_until <= ${Number(deps.clock())})`);
    const page = q.page ?? 1;
    const base = `FROM notifications WHERE ${where.join(' AND ')}`;
    const count = (db.prepare(`SELECT COUNT(*) AS n ${base}`).get(...mine(scope)) as { n: number }).n;
    const order = q.sort_order === 'asc' ? 'ASC' : 'DESC';
    const rows = db.prepare(`SELECT * ${base} ORDER BY last_activity_at ${order}, id ${order} LIMIT ? OFFSET ?`).all(...mine(scope), PER_PAGE, (page - 1) * PER_PAGE) as NotificationRow[];
    return { data: { meta: { unread_count: unread(scope), count, current_page: page }, payload: rows.map((n) => notificationItem(db, n)) } };
  });

  // A bare integer body.
  app.get(`${N}/unread_count`, async (request, reply) => reply.type('application/json; charset=utf-8').send(String(unread(scoped(db, request)))));

  app.post(`${N}/read_all`, async (request, reply) => {
    const scope = scoped(db, request);
    const body = parseBody(readAllBody, input(request));
    const now = deps.clock();
    const rows =
      body.primary_actor_id === undefined
        ? stmt(db, 'SELECT id FROM notifications WHERE account_id = ? AND user_id = ? AND read_at IS NULL').all(...mine(scope))
        : stmt(db, "SELECT id FROM notifications WHERE account_id = ? AND user_id = ? AND read_at IS NULL AND primary_actor_type = 'Conversation' AND primary_actor_id = ?").all(
            ...mine(scope),
            body.primary_actor_id,
          );
    const ids = (rows as { id: number }[]).map((r) => r.id);
    db.transaction(() => {
      for (const id of ids) stmt(db, 'UPDATE notifications SET read_at = ?, updated_at = ? WHERE id = ?').run(now, now, id);
    })();
    for (const id of ids) announce(scope, id);
    return reply.code(200).send();
  });

  const markRead = async (request: FastifyRequest) => {
    const { scope, row } = own(request);
    const now = deps.clock();
    stmt(db, 'UPDATE notifications SET read_at = ?, updated_at = ? WHERE id = ?').run(now, now, row.id);
    announce(scope, row.id);
    return notificationRaw(reread(row.id));
  };
  app.patch(`${N}/:id`, markRead);
  app.put(`${N}/:id`, markRead);

  app.post(`${N}/:id/unread`, async (request) => {
    const { scope, row } = own(request);
    stmt(db, 'UPDATE notifications SET read_at = NULL, updated_at = ? WHERE id = ?').run(deps.clock(), row.id);
    announce(scope, row.id);
    return notificationRaw(reread(row.id));
  });

  app.post(`${N}/:id/snooze`, async (request) => {
    const { scope, row } = own(request);
    const { snoozed_until } = parseBody(snoozeBody, input(request));
    stmt(db, 'UPDATE notifications SET snoozed_until = ?, updated_at = ? WHERE id = ?').run(snoozed_until, deps.clock(), row.id);
    announce(scope, row.id);
    return notificationRaw(reread(row.id));
  });

  app.delete(`${N}/:id`, async (request, reply) => {
    const { scope, row } = own(request);
    stmt(db, 'DELETE FROM notifications WHERE id = ?').run(row.id);
    announce(scope, row.id, 'notification.deleted');
    return reply.code(200).send();
  });

  app.post(`${N}/destroy_all`, async (request: FastifyRequest, reply: FastifyReply) => {
    const scope = scoped(db, request);
    const { type } = parseBody(destroyAllBody, input(request));
    const ids = (stmt(db, `SELECT id FROM notifications WHERE account_id = ? AND user_id = ? ${type === 'read' ? 'AND read_at IS NOT NULL' : ''}`).all(...mine(scope)) as { id: number }[]).map((r) => r.id);
    deleteAll(db, ids);
    for (const id of ids) announce(scope, id, 'notification.deleted');
    return reply.code(200).send();
  });
}

function deleteAll(db: Db, ids: number[]) {
  db.transaction(() => {
    for (const id of ids) stmt(db, 'DELETE FROM notifications WHERE id = ?').run(id);
  })();
}
