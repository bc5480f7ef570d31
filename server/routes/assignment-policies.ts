// Assignment policies (administrators): the policies themselves, the inboxes using one, and the
// binding, which is changed on the inbox (`A/inboxes/{id}/assignment_policy`), not on the policy.
// The spec's record fields are "not shown"; these follow the reference's model. Listing a policy's
// inboxes checks the role by hand and answers 403 (spec: Errors); the rest fail as policies do, 401.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { AccountScope } from '../http/auth';
import { requireAdmin, requireAdminHandChecked } from '../http/auth';
import { boolish, input, oneOf, parseBody, shortText, wrapped } from '../http/body';
import { invalid, notFound } from '../http/errors';
import { intString } from '../http/params';
import { baseUrlOf, pathId, scoped } from '../http/scope';
import type { InboxRow } from '../store/inboxes';
import { inboxFull } from '../presenters/inbox';
import { epoch } from '../presenters/time';
import type { RouteDeps } from './deps';

const A = '/api/v1/accounts/:account_id';

interface PolicyRow {
  id: number;
  account_id: number;
  name: string;
  description: string;
  assignment_order: string;
  conversation_priority: string;
  fair_distribution_limit: number;
  fair_distribution_window: number;
  enabled: number;
  created_at: number;
  updated_at: number;
}

const present = (p: PolicyRow) => ({
  id: p.id,
  name: p.name,
  description: p.description,
  assignment_order: p.assignment_order,
  conversation_priority: p.conversation_priority,
  fair_distribution_limit: p.fair_distribution_limit,
  fair_distribution_window: p.fair_distribution_window,
  enabled: p.enabled === 1,
  created_at: epoch(p.created_at),
  updated_at: epoch(p.updated_at),
});

const fields = z.object({
  name: z.string({ error: "can't be blank" }).trim().min(1, "can't be blank").max(255),
  description: shortText(1000).optional(),
  assignment_order: oneOf(['round_robin', 'balanced']).optional(),
  conversation_priority: oneOf(['earliest_created', 'longest_waiting']).optional(),
  fair_distribution_limit: z.number().int().min(1).max(100_000).optional(),
  fair_distribution_window: z.number().int().min(60).max(86_400 * 30).optional(),
  enabled: boolish.optional(),
});
const bindBody = z.object({ assignment_policy_id: intString });

function policyIn(db: Db, scope: AccountScope, id: number): PolicyRow {
  const row = stmt(db, 'SELECT * FROM assignment_policies WHERE id = ? AND account_id = ?').get(id, scope.accountId) as PolicyRow | undefined;
  if (!row) throw notFound();
  return row;
}
function inboxIn(db: Db, scope: AccountScope, id: number): InboxRow {
  const row = stmt(db, 'SELECT * FROM inboxes WHERE id = ? AND account_id = ?').get(id, scope.accountId) as InboxRow | undefined;
  if (!row) throw notFound();
  return row;
}

export function assignmentPolicyRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { db } = deps;
  const admin = (request: FastifyRequest) => {
    const scope = scoped(db, request);
    requireAdmin(scope);
    return scope;
  };

  app.get(`${A}/assignment_policies`, async (request) => {
    const scope = admin(request);
    return (stmt(db, 'SELECT * FROM assignment_policies WHERE account_id = ? ORDER BY id').all(scope.accountId) as PolicyRow[]).map(present);
  });

  app.get(`${A}/assignment_policies/:id`, async (request) => {
    const scope = admin(request);
    return present(policyIn(db, scope, pathId(request)));
  });

  const save = (scope: AccountScope, body: z.output<typeof fields>, current?: PolicyRow) => {
    const clash = stmt(db, 'SELECT id FROM assignment_policies WHERE account_id = ? AND name = ?').get(scope.accountId, body.name) as { id: number } | undefined;
    if (clash && clash.id !== current?.id) throw invalid('Name has already been taken', ['name']);
    const now = deps.clock();
    const v = {
      description: body.description ?? current?.description ?? '',
      order: body.assignment_order ?? current?.assignment_order ?? 'round_robin',
      priority: body.conversation_priority ?? current?.conversation_priority ?? 'earliest_created',
      limit: body.fair_distribution_limit ?? current?.fair_distribution_limit ?? 100,
      window: body.fair_distribution_window ?? current?.fair_distribution_window ?? 3600,
      enabled: body.enabled === undefined ? (current?.enabled ?? 1) : body.enabled ? 1 : 0,
    };
    if (!current) {
      const id = Number(
        stmt(
          db,
          `INSERT INTO assignment_policies (account_id, name, description, assignment_order, conversation_priority, fair_distribution_limit, fair_distribution_window, enabled, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(scope.accountId, body.name, v.description, v.order, v.priority, v.limit, v.window, v.enabled, now, now).lastInsertRowid,
      );
      return present(policyIn(db, scope, id));
    }
    stmt(
      db,
      'UPDATE assignment_policies SET name = ?, description = ?, assignment_order = ?, conversation_priority = ?, fair_distribution_limit = ?, fair_distribution_window = ?, enabled = ?, updated_at = ? WHERE id = ?',
    ).run(body.name, v.description, v.order, v.priority, v.limit, v.window, v.enabled, now, current.id);
    return present(policyIn(db, scope, current.id));
  };

  app.post(`${A}/assignment_policies`, async (request) => {
    const scope = admin(request);
    return save(scope, parseBody(fields, wrapped(input(request), 'assignment_policy')));
  });

  const update = async (request: FastifyRequest) => {
    const scope = admin(request);
    const current = policyIn(db, scope, pathId(request));
    return save(scope, parseBody(fields, { name: current.name, ...wrapped(input(request), 'assignment_policy') }), current);
  };
  app.patch(`${A}/assignment_policies/:id`, update);
  app.put(`${A}/assignment_policies/:id`, update);

  app.delete(`${A}/assignment_policies/:id`, async (request, reply) => {
    const scope = admin(request);
    const policy = policyIn(db, scope, pathId(request));
    db.transaction(() => {
      stmt(db, 'DELETE FROM inbox_assignment_policies WHERE assignment_policy_id = ?').run(policy.id);
      stmt(db, 'DELETE FROM assignment_policies WHERE id = ?').run(policy.id);
    })();
    return reply.code(200).send();
  });

  // Key `inboxes`, not `payload` (spec). A non-administrator is refused by hand: 403.
  app.get(`${A}/assignment_policies/:id/inboxes`, async (request) => {
    const scope = scoped(db, request);
    requireAdminHandChecked(scope);
    const policy = policyIn(db, scope, pathId(request));
    const rows = stmt(db, 'SELECT i.* FROM inboxes i JOIN inbox_assignment_policies b ON b.inbox_id = i.id WHERE b.assignment_policy_id = ? ORDER BY i.id').all(policy.id) as InboxRow[];
    return { inboxes: rows.map((r) => inboxFull(r, { isAdmin: true, baseUrl: baseUrlOf(request) })) };
  });

  app.get(`${A}/inboxes/:id/assignment_policy`, async (request) => {
    const scope = admin(request);
    const inbox = inboxIn(db, scope, pathId(request));
    const bound = stmt(db, 'SELECT p.* FROM assignment_policies p JOIN inbox_assignment_policies b ON b.assignment_policy_id = p.id WHERE b.inbox_id = ?').get(inbox.id) as PolicyRow | undefined;
    if (!bound) throw notFound();
    return present(bound);
  });

  // Binds (or re-binds) the inbox to a policy; an inbox uses at most one.
  app.post(`${A}/inboxes/:id/assignment_policy`, async (request) => {
    const scope = admin(request);
    const inbox = inboxIn(db, scope, pathId(request));
    const { assignment_policy_id } = parseBody(bindBody, wrapped(input(request), 'assignment_policy'));
    const policy = policyIn(db, scope, assignment_policy_id);
    stmt(db, 'INSERT INTO inbox_assignment_policies (inbox_id, assignment_policy_id) VALUES (?, ?) ON CONFLICT (inbox_id) DO UPDATE SET assignment_policy_id = excluded.assignment_policy_id').run(inbox.id, policy.id);
    return present(policy);
  });

  app.delete(`${A}/inboxes/:id/assignment_policy`, async (request, reply) => {
    const scope = admin(request);
    const inbox = inboxIn(db, scope, pathId(request));
    if (stmt(db, 'DELETE FROM inbox_assignment_policies WHERE inbox_id = ?').run(inbox.id).changes === 0) throw notFound();
    return reply.code(200).send();
  });
}
