// Agents and teams (chatwoot-compat §1.6, §1.7): bare arrays of the whole collection, no paging.
import type { FastifyInstance } from 'fastify';
import { stmt } from '../db/open';
import type { UserRow } from '../http/auth';
import { scoped } from '../http/scope';
import type { TeamRow } from '../presenters/people';
import { agentPartial, teamPartial } from '../presenters/people';
import type { RouteDeps } from './deps';

const A = '/api/v1/accounts/:account_id';

export function agentTeamRoutes(app: FastifyInstance, { db }: RouteDeps) {
  app.get(`${A}/agents`, async (request) => {
    const scope = scoped(db, request);
    const users = stmt(db, 'SELECT u.* FROM users u JOIN account_users au ON au.user_id = u.id WHERE au.account_id = ? ORDER BY lower(u.name)').all(scope.accountId) as UserRow[];
    return users.map((u) => agentPartial(db, u, scope.accountId));
  });

  app.get(`${A}/teams`, async (request) => {
    const scope = scoped(db, request);
    const teams = stmt(db, 'SELECT * FROM teams WHERE account_id = ? ORDER BY id').all(scope.accountId) as TeamRow[];
    return teams.map((t) => teamPartial(db, t, scope.user.id));
  });
}
