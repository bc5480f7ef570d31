// Account labels (chatwoot-compat §1.8, under `payload`) and canned responses (§1.9, a bare array).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { stmt } from '../db/open';
import { parseParams } from '../http/params';
import { scoped } from '../http/scope';
import { iso } from '../presenters/time';
import type { RouteDeps } from './deps';

const A = '/api/v1/accounts/:account_id';

export function labelCannedRoutes(app: FastifyInstance, { db }: RouteDeps) {
  app.get(`${A}/labels`, async (request) => {
    const scope = scoped(db, request);
    const labels = stmt(db, 'SELECT id, title, description, color, show_on_sidebar FROM labels WHERE account_id = ? ORDER BY title').all(scope.accountId) as {
      id: number;
      title: string;
      description: string;
      color: string;
      show_on_sidebar: number;
    }[];
    return { payload: labels.map((l) => ({ ...l, show_on_sidebar: l.show_on_sidebar === 1 })) };
  });

  app.get(`${A}/canned_responses`, async (request) => {
    const scope = scoped(db, request);
    const search = parseParams(z.object({ search: z.string().max(500).optional() }), request.query, 'query parameter').search?.trim().toLowerCase();
    const rows = stmt(db, 'SELECT * FROM canned_responses WHERE account_id = ? ORDER BY id').all(scope.accountId) as {
      id: number;
      account_id: number;
      short_code: string;
      content: string;
      created_at: number;
      updated_at: number;
    }[];
    // Ranked as the reference service: short_code prefix > short_code contains > content contains.
    const rank = (r: (typeof rows)[number]) =>
      !search ? 1 : r.short_code.toLowerCase().startsWith(search) ? 1 : r.short_code.toLowerCase().includes(search) ? 0.5 : r.content.toLowerCase().includes(search) ? 0.2 : 0;
    return rows
      .map((r) => ({ r, score: rank(r) }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score)
      .map(({ r }) => ({ id: r.id, content: r.content, short_code: r.short_code, account_id: r.account_id, created_at: iso(r.created_at), updated_at: iso(r.updated_at) }));
  });
}
