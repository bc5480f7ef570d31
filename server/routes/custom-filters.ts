// Saved filters (chatwoot-compat §1.10): each user's own, per account and filter type; a bare array,
// no paging; at most 1000 per user per account; delete answers 204.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { json, stmt } from '../db/open';
import type { AccountScope } from '../http/auth';
import { attributesObject, input, oneOf, parseBody, wrapped } from '../http/body';
import { invalid, notFound } from '../http/errors';
import { parseParams } from '../http/params';
import { pathId, scoped } from '../http/scope';
import { iso } from '../presenters/time';
import type { RouteDeps } from './deps';

const F = '/api/v1/accounts/:account_id/custom_filters';
const LIMIT = 1000;
const filterTypes = ['conversation', 'contact', 'report'] as const;

interface FilterRow {
  id: number;
  account_id: number;
  user_id: number;
  name: string;
  filter_type: string;
  query: string;
  created_at: number;
  updated_at: number;
}

const present = (f: FilterRow) => ({ id: f.id, name: f.name, filter_type: f.filter_type, query: json.parse(f.query), created_at: iso(f.created_at), updated_at: iso(f.updated_at) });
const fields = z.object({
  name: z.string({ error: "can't be blank" }).trim().min(1, "can't be blank").max(255),
  filter_type: oneOf(filterTypes).optional(),
  query: attributesObject,
});

export function customFilterRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { db } = deps;
  const own = (request: FastifyRequest) => {
    const scope = scoped(db, request);
    const row = stmt(db, 'SELECT * FROM custom_filters WHERE id = ? AND account_id = ? AND user_id = ?').get(pathId(request), scope.accountId, scope.user.id) as FilterRow | undefined;
    if (!row) throw notFound();
    return { scope, row };
  };
  const reread = (id: number) => present(stmt(db, 'SELECT * FROM custom_filters WHERE id = ?').get(id) as FilterRow);

  app.get(F, async (request) => {
    const scope = scoped(db, request);
    const { filter_type } = parseParams(z.object({ filter_type: oneOf(filterTypes).optional() }), request.query, 'query parameter');
    const rows = stmt(db, 'SELECT * FROM custom_filters WHERE account_id = ? AND user_id = ? AND filter_type = ? ORDER BY id').all(scope.accountId, scope.user.id, filter_type ?? 'conversation') as FilterRow[];
    return rows.map(present);
  });

  app.get(`${F}/:id`, async (request) => present(own(request).row));

  app.post(F, async (request) => {
    const scope: AccountScope = scoped(db, request);
    const body = parseBody(fields, wrapped(input(request), 'custom_filter'));
    const count = (stmt(db, 'SELECT COUNT(*) AS n FROM custom_filters WHERE account_id = ? AND user_id = ?').get(scope.accountId, scope.user.id) as { n: number }).n;
    if (count >= LIMIT) throw invalid(`Account Limit reached. The maximum number of allowed custom filters for a user per account is ${LIMIT}.`, ['account_id']);
    const now = deps.clock();
    const id = Number(
      stmt(db, 'INSERT INTO custom_filters (account_id, user_id, name, filter_type, query, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
        scope.accountId,
        scope.user.id,
        body.name,
        body.filter_type ?? 'conversation',
        JSON.stringify(body.query),
        now,
        now,
      ).lastInsertRowid,
    );
    return reread(id);
  });

  const update = async (request: FastifyRequest) => {
    const { row } = own(request);
    const body = parseBody(fields, { name: row.name, filter_type: row.filter_type, query: json.parse(row.query), ...wrapped(input(request), 'custom_filter') });
    stmt(db, 'UPDATE custom_filters SET name = ?, filter_type = ?, query = ?, updated_at = ? WHERE id = ?').run(body.name, body.filter_type ?? row.filter_type, JSON.stringify(body.query), deps.clock(), row.id);
    return reread(row.id);
  };
  app.patch(`${F}/:id`, update);
  app.put(`${F}/:id`, update);

  app.delete(`${F}/:id`, async (request, reply) => {
    stmt(db, 'DELETE FROM custom_filters WHERE id = ?').run(own(request).row.id);
    return reply.code(204).send();
  });
}
