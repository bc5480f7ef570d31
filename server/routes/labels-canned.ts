// Account labels (chatwoot-compat §1.8: the list under `payload` for everyone, the rest for
// administrators) and canned responses (§1.9: a bare array of raw models, no role check, no show route).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { AccountScope } from '../http/auth';
import { requireAdmin } from '../http/auth';
import { boolish, input, parseBody, shortText, wrapped } from '../http/body';
import { invalid, notFound } from '../http/errors';
import { parseParams } from '../http/params';
import { pathId, scoped } from '../http/scope';
import { iso } from '../presenters/time';
import type { RouteDeps } from './deps';
import { directoryChanged } from './deps';

const A = '/api/v1/accounts/:account_id';

interface LabelRow {
  id: number;
  account_id: number;
  title: string;
  description: string;
  color: string;
  show_on_sidebar: number;
}
interface CannedRow {
  id: number;
  account_id: number;
  short_code: string;
  content: string;
  created_at: number;
  updated_at: number;
}

const label = (l: LabelRow) => ({ id: l.id, title: l.title, description: l.description, color: l.color, show_on_sidebar: l.show_on_sidebar === 1 });
const canned = (r: CannedRow) => ({ id: r.id, content: r.content, short_code: r.short_code, account_id: r.account_id, created_at: iso(r.created_at), updated_at: iso(r.updated_at) });

const labelFields = z.object({
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
const cannedFields = z.object({
  short_code: z.string({ error: "can't be blank" }).trim().min(1, "can't be blank").max(255),
  content: z.string({ error: "can't be blank" }).trim().min(1, "can't be blank").max(65_535),
});

function labelIn(db: Db, scope: AccountScope, id: number): LabelRow {
  const row = stmt(db, 'SELECT * FROM labels WHERE id = ? AND account_id = ?').get(id, scope.accountId) as LabelRow | undefined;
  if (!row) throw notFound();
  return row;
}
function cannedIn(db: Db, scope: AccountScope, id: number): CannedRow {
  const row = stmt(db, 'SELECT * FROM canned_responses WHERE id = ? AND account_id = ?').get(id, scope.accountId) as CannedRow | undefined;
  if (!row) throw notFound();
  return row;
}

export function labelCannedRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { db } = deps;

  app.get(`${A}/labels`, async (request) => {
    const scope = scoped(db, request);
    return { payload: (stmt(db, 'SELECT * FROM labels WHERE account_id = ? ORDER BY title').all(scope.accountId) as LabelRow[]).map(label) };
  });

  app.get(`${A}/labels/:id`, async (request) => {
    const scope = scoped(db, request);
    requireAdmin(scope);
    return label(labelIn(db, scope, pathId(request)));
  });

  const saveLabel = (scope: AccountScope, body: z.output<typeof labelFields>, id?: number) => {
    const clash = stmt(db, 'SELECT id FROM labels WHERE account_id = ? AND title = ?').get(scope.accountId, body.title) as { id: number } | undefined;
    if (clash && clash.id !== id) throw invalid('Title has already been taken', ['title']);
    const sidebar = body.show_on_sidebar === undefined ? null : body.show_on_sidebar ? 1 : 0;
    if (id === undefined) {
      id = Number(
        stmt(db, 'INSERT INTO labels (account_id, title, description, color, show_on_sidebar) VALUES (?, ?, ?, ?, ?)').run(scope.accountId, body.title, body.description ?? '', body.color ?? '#1f93ff', sidebar ?? 1)
          .lastInsertRowid,
      );
    } else {
      stmt(db, 'UPDATE labels SET title = ?, description = COALESCE(?, description), color = COALESCE(?, color), show_on_sidebar = COALESCE(?, show_on_sidebar) WHERE id = ?').run(
        body.title,
        body.description ?? null,
        body.color ?? null,
        sidebar,
        id,
      );
    }
    directoryChanged(deps, scope.accountId, 'label');
    return label(labelIn(db, scope, id));
  };

  app.post(`${A}/labels`, async (request) => {
    const scope = scoped(db, request);
    requireAdmin(scope);
    return saveLabel(scope, parseBody(labelFields, wrapped(input(request), 'label')));
  });

  const updateLabel = async (request: FastifyRequest) => {
    const scope = scoped(db, request);
    requireAdmin(scope);
    const row = labelIn(db, scope, pathId(request));
    return saveLabel(scope, parseBody(labelFields, { title: row.title, ...wrapped(input(request), 'label') }), row.id);
  };
  app.patch(`${A}/labels/:id`, updateLabel);
  app.put(`${A}/labels/:id`, updateLabel);

  app.delete(`${A}/labels/:id`, async (request, reply) => {
    const scope = scoped(db, request);
    requireAdmin(scope);
    stmt(db, 'DELETE FROM labels WHERE id = ?').run(labelIn(db, scope, pathId(request)).id);
    directoryChanged(deps, scope.accountId, 'label');
    return reply.code(200).send();
  });

  app.get(`${A}/canned_responses`, async (request) => {
    const scope = scoped(db, request);
    const search = parseParams(z.object({ search: z.string().max(500).optional() }), request.query, 'query parameter').search?.trim().toLowerCase();
    const rows = stmt(db, 'SELECT * FROM canned_responses WHERE account_id = ? ORDER BY id').all(scope.accountId) as CannedRow[];
    // Ranked as the reference service: short_code prefix > short_code contains > content contains.
    const rank = (r: CannedRow) =>
      !search ? 1 : r.short_code.toLowerCase().startsWith(search) ? 1 : r.short_code.toLowerCase().includes(search) ? 0.5 : r.content.toLowerCase().includes(search) ? 0.2 : 0;
    return rows
      .map((r) => ({ r, score: rank(r) }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score)
      .map(({ r }) => canned(r));
  });

  const saveCanned = (scope: AccountScope, body: z.output<typeof cannedFields>, id?: number) => {
    const clash = stmt(db, 'SELECT id FROM canned_responses WHERE account_id = ? AND short_code = ?').get(scope.accountId, body.short_code) as { id: number } | undefined;
    if (clash && clash.id !== id) throw invalid('Short code has already been taken', ['short_code']);
    const now = deps.clock();
    if (id === undefined) {
      id = Number(stmt(db, 'INSERT INTO canned_responses (account_id, short_code, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(scope.accountId, body.short_code, body.content, now, now).lastInsertRowid);
    } else {
      stmt(db, 'UPDATE canned_responses SET short_code = ?, content = ?, updated_at = ? WHERE id = ?').run(body.short_code, body.content, now, id);
    }
    return canned(cannedIn(db, scope, id));
  };

  app.post(`${A}/canned_responses`, async (request) => saveCanned(scoped(db, request), parseBody(cannedFields, wrapped(input(request), 'canned_response'))));

  const updateCanned = async (request: FastifyRequest) => {
    const scope = scoped(db, request);
    const row = cannedIn(db, scope, pathId(request));
    return saveCanned(scope, parseBody(cannedFields, { short_code: row.short_code, content: row.content, ...wrapped(input(request), 'canned_response') }), row.id);
  };
  app.patch(`${A}/canned_responses/:id`, updateCanned);
  app.put(`${A}/canned_responses/:id`, updateCanned);

  app.delete(`${A}/canned_responses/:id`, async (request, reply) => {
    const scope = scoped(db, request);
    stmt(db, 'DELETE FROM canned_responses WHERE id = ?').run(cannedIn(db, scope, pathId(request)).id);
    return reply.code(200).send();
  });
}
