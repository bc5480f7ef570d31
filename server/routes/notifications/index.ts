// The caller's notifications in an account (chatwoot-compat §1.11): 15 a page, read and snoozed
// ones only when asked for; unread count; read all; read/unread/snooze/delete one; delete all.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { oneOf } from '../../http/body';
import { notFound } from '../../http/errors';
import { intString, listParam, parseParams } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { idParams } from '../../http/scope';
import { notificationItem, notificationRaw } from '../../presenters/notification';
import type { NotificationOwner, NotificationRow } from '../../store/notifications';
import {
  deleteNotification,
  deleteNotifications,
  markNotificationRead,
  markNotificationsRead,
  markNotificationUnread,
  notificationById,
  notificationIdsOf,
  notificationPage,
  ownNotification,
  snoozeNotification,
  unreadNotificationCount,
  unreadNotificationIds,
} from '../../store/notifications';
import { memberOf } from '../account-scope';
import type { RouteDeps } from '../deps';

const PER_PAGE = 15;
// `includes` is a list (`includes[]=read`, `includes=read,snoozed`: http/params.ts#listParam).
const listQuery = z.object({ page: intString.optional(), sort_order: oneOf(['asc', 'desc']).optional(), includes: z.unknown().optional(), 'includes[]': z.unknown().optional() });
const readAllBody = z.object({ primary_actor_type: oneOf(['Conversation']).optional(), primary_actor_id: intString.optional() });
const snoozeBody = z.object({
  snoozed_until: z.union([z.number().int().min(0).max(253_402_300_799), z.string().regex(/^\d{1,12}$/, 'must be epoch seconds')]).transform((v) => Number(v) * 1000),
});
const destroyAllBody = z.object({ type: oneOf(['read', 'all']).optional() });

/** The caller's own notifications. */
const mine = (request: FastifyRequest): NotificationOwner => ({ accountId: request.caller.accountId, userId: memberOf(request).user.id });

export function notificationRoutes(deps: RouteDeps) {
  const { db, bus } = deps;
  const announce = (owner: NotificationOwner, id: number, name: 'notification.updated' | 'notification.deleted' = 'notification.updated') =>
    bus.emit({ name, accountId: owner.accountId, userId: owner.userId, notificationId: id });
  /** The caller's notification named in the path; anyone else's is 404. */
  const own = (request: FastifyRequest): NotificationRow => {
    const row = ownNotification(db, mine(request), parseParams(idParams, request.params, 'path parameter').id);
    if (!row) throw notFound();
    return row;
  };
  const reread = (id: number) => notificationRaw(notificationById(db, id)!);

  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();

    app.get('/notifications', { schema: { querystring: listQuery } }, async (request) => {
      const owner = mine(request);
      const includes = listParam(request.query, 'includes') ?? [];
      const page = request.query.page ?? 1;
      const { count, rows } = notificationPage(db, owner, {
        includeRead: includes.includes('read'),
        includeSnoozed: includes.includes('snoozed'),
        now: deps.clock(),
        order: request.query.sort_order === 'asc' ? 'ASC' : 'DESC',
        limit: PER_PAGE,
        offset: (page - 1) * PER_PAGE,
      });
      return { data: { meta: { unread_count: unreadNotificationCount(db, owner), count, current_page: page }, payload: rows.map((n) => notificationItem(db, n)) } };
    });

    // A bare integer body.
    app.get('/notifications/unread_count', async (request, reply) => reply.type('application/json; charset=utf-8').send(String(unreadNotificationCount(db, mine(request)))));

    app.post('/notifications/read_all', { schema: { body: readAllBody } }, async (request, reply) => {
      const owner = mine(request);
      const ids = unreadNotificationIds(db, owner, request.body.primary_actor_id);
      markNotificationsRead(db, ids, deps.clock());
      for (const id of ids) announce(owner, id);
      return reply.code(200).send();
    });

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/notifications/:id',
        schema: { params: idParams },
        handler: async (request) => {
          const row = own(request);
          markNotificationRead(db, row.id, deps.clock());
          announce(mine(request), row.id);
          return reread(row.id);
        },
      });
    }

    app.post('/notifications/:id/unread', { schema: { params: idParams } }, async (request) => {
      const row = own(request);
      markNotificationUnread(db, row.id, deps.clock());
      announce(mine(request), row.id);
      return reread(row.id);
    });

    // The notification before its body: someone else's is 404 whatever was sent.
    app.post(
      '/notifications/:id/snooze',
      {
        schema: { params: idParams, body: snoozeBody },
        preValidation: async (request) => {
          own(request);
        },
      },
      async (request) => {
        const row = own(request);
        snoozeNotification(db, row.id, request.body.snoozed_until, deps.clock());
        announce(mine(request), row.id);
        return reread(row.id);
      },
    );

    app.delete('/notifications/:id', { schema: { params: idParams } }, async (request, reply) => {
      const row = own(request);
      deleteNotification(db, row.id);
      announce(mine(request), row.id, 'notification.deleted');
      return reply.code(200).send();
    });

    app.post('/notifications/destroy_all', { schema: { body: destroyAllBody } }, async (request, reply) => {
      const owner = mine(request);
      const ids = notificationIdsOf(db, owner, request.body.type === 'read');
      deleteNotifications(db, ids);
      for (const id of ids) announce(owner, id, 'notification.deleted');
      return reply.code(200).send();
    });
  };
}
