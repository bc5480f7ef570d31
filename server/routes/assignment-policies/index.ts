// Assignment policies (administrators): the policies themselves, the inboxes using one, and the
// binding, which is changed on the inbox (`A/inboxes/{id}/assignment_policy`), not on the policy.
// The spec's record fields are "not shown"; these follow the reference's model. Listing a policy's
// inboxes checks the role by hand and answers 403 (spec: Errors); the rest fail as policies do, 401.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireAdminHandChecked } from '../../http/auth';
import { boolish, oneOf, shortText } from '../../http/body';
import { invalid, notFound } from '../../http/errors';
import { intString, parseParams } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { baseUrlOf, idParams } from '../../http/scope';
import { inboxFull } from '../../presenters/inbox';
import { epoch } from '../../presenters/time';
import type { PolicyRow } from '../../store/assignment-policies';
import { bindPolicy, deletePolicy, inboxesOfPolicy, insertPolicy, policiesOf, policyById, policyNamed, policyOfInbox, unbindPolicy, updatePolicy } from '../../store/assignment-policies';
import type { InboxRow } from '../../store/inboxes';
import { inboxById } from '../../store/inboxes';
import { memberOf } from '../account-scope';
import type { RouteDeps } from '../deps';

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

export function assignmentPolicyRoutes(deps: RouteDeps) {
  const { db } = deps;
  const policyIn = (accountId: number, id: number): PolicyRow => {
    const row = policyById(db, accountId, id);
    if (!row) throw notFound();
    return row;
  };
  /** The policy or inbox named in the path. */
  const policyOf = (request: FastifyRequest) => policyIn(request.caller.accountId, parseParams(idParams, request.params, 'path parameter').id);
  const inboxOf = (request: FastifyRequest): InboxRow => {
    const row = inboxById(db, request.caller.accountId, parseParams(idParams, request.params, 'path parameter').id);
    if (!row) throw notFound();
    return row;
  };

  const save = (accountId: number, body: z.output<typeof fields>, current?: PolicyRow) => {
    const clash = policyNamed(db, accountId, body.name);
    if (clash !== undefined && clash !== current?.id) throw invalid('Name has already been taken', ['name']);
    const values = {
      name: body.name,
      description: body.description ?? current?.description ?? '',
      assignment_order: body.assignment_order ?? current?.assignment_order ?? 'round_robin',
      conversation_priority: body.conversation_priority ?? current?.conversation_priority ?? 'earliest_created',
      fair_distribution_limit: body.fair_distribution_limit ?? current?.fair_distribution_limit ?? 100,
      fair_distribution_window: body.fair_distribution_window ?? current?.fair_distribution_window ?? 3600,
      enabled: body.enabled === undefined ? (current?.enabled ?? 1) : body.enabled ? 1 : 0,
    };
    return present(current ? updatePolicy(db, current, values, deps.clock()) : insertPolicy(db, accountId, values, deps.clock()));
  };

  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const admin = { access: 'administrator' as const, wrap: 'assignment_policy' };

    app.get('/assignment_policies', { config: admin }, async (request) => policiesOf(db, request.caller.accountId).map(present));

    app.get('/assignment_policies/:id', { config: admin, schema: { params: idParams } }, async (request) => present(policyOf(request)));

    app.post('/assignment_policies', { config: admin, schema: { body: fields } }, async (request) => save(request.caller.accountId, request.body));

    // The name may be left out: the body is validated over the stored one.
    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/assignment_policies/:id',
        config: admin,
        schema: { params: idParams, body: fields },
        preValidation: async (request) => {
          request.body = { name: policyOf(request).name, ...(request.body as object) };
        },
        handler: async (request) => save(request.caller.accountId, request.body, policyOf(request)),
      });
    }

    app.delete('/assignment_policies/:id', { config: admin, schema: { params: idParams } }, async (request, reply) => {
      deletePolicy(db, policyOf(request).id);
      return reply.code(200).send();
    });

    // Key `inboxes`, not `payload` (spec). A non-administrator is refused by hand, before anything else: 403.
    app.get(
      '/assignment_policies/:id/inboxes',
      {
        schema: { params: idParams },
        onRequest: async (request) => {
          requireAdminHandChecked(memberOf(request));
        },
      },
      async (request) => ({ inboxes: inboxesOfPolicy(db, policyOf(request).id).map((r) => inboxFull(r, { isAdmin: true, baseUrl: baseUrlOf(request) })) }),
    );

    app.get('/inboxes/:id/assignment_policy', { config: admin, schema: { params: idParams } }, async (request) => {
      const bound = policyOfInbox(db, inboxOf(request).id);
      if (!bound) throw notFound();
      return present(bound);
    });

    // Binds (or re-binds) the inbox to a policy; an inbox uses at most one. The inbox before the body.
    app.post(
      '/inboxes/:id/assignment_policy',
      {
        config: admin,
        schema: { params: idParams, body: bindBody },
        preValidation: async (request) => {
          inboxOf(request);
        },
      },
      async (request) => {
        const inbox = inboxOf(request);
        const policy = policyIn(request.caller.accountId, request.body.assignment_policy_id);
        bindPolicy(db, inbox.id, policy.id);
        return present(policy);
      },
    );

    app.delete('/inboxes/:id/assignment_policy', { config: admin, schema: { params: idParams } }, async (request, reply) => {
      if (!unbindPolicy(db, inboxOf(request).id)) throw notFound();
      return reply.code(200).send();
    });
  };
}
