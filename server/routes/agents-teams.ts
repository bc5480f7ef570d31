// Agents and teams (chatwoot-compat §1.6, §1.7): bare arrays of the whole collection, no paging.
// Reading is for every member; changing is for administrators (a role failure is 401).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { AccountScope } from '../http/auth';
import type { UserRow } from '../store/users';
import { requireAdmin } from '../http/auth';
import { userById } from '../store/users';
import { boolish, emailFormat, input, oneOf, parseBody, shortText, wrapped } from '../http/body';
import { invalid, notFound } from '../http/errors';
import { pathId, scoped } from '../http/scope';
import type { TeamRow } from '../presenters/people';
import { agentPartial, teamPartial } from '../presenters/people';
import { addToAccount, createUser } from '../store/provision';
import type { RouteDeps } from './deps';
import { directoryChanged } from './deps';

const A = '/api/v1/accounts/:account_id';
const roles = ['agent', 'administrator'] as const;
const availability = ['online', 'offline', 'busy'] as const;
const agentCreate = z.object({
  email: z.string({ error: "can't be blank" }).trim().max(320).regex(emailFormat, 'is invalid'),
  name: shortText().optional(),
  role: oneOf(roles).optional(),
  availability: oneOf(availability).optional(),
  auto_offline: boolish.optional(),
});
const agentUpdate = z.object({ name: shortText().min(1).optional(), role: oneOf(roles).optional(), availability: oneOf(availability).optional(), auto_offline: boolish.optional() });
const teamFields = z.object({ name: z.string({ error: "can't be blank" }).trim().min(1, "can't be blank").max(255), description: shortText(1000).optional(), allow_auto_assign: boolish.optional() });
const userIds = z.object({ user_ids: z.array(z.union([z.number().int().positive(), z.string().regex(/^\d{1,15}$/)]).transform(Number)).max(1000) });

const memberOf = (db: Db, accountId: number, userId: number) => stmt(db, 'SELECT 1 FROM account_users WHERE account_id = ? AND user_id = ?').get(accountId, userId);

function agentInAccount(db: Db, scope: AccountScope, id: number): UserRow {
  const user = memberOf(db, scope.accountId, id) ? userById(db, id) : undefined;
  if (!user) throw notFound();
  return user;
}

function teamInAccount(db: Db, scope: AccountScope, id: number): TeamRow {
  const team = stmt(db, 'SELECT * FROM teams WHERE id = ? AND account_id = ?').get(id, scope.accountId) as TeamRow | undefined;
  if (!team) throw notFound();
  return team;
}

export function agentTeamRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { db } = deps;
  const agents = (scope: AccountScope, ids?: number[]) =>
    (stmt(db, 'SELECT u.* FROM users u JOIN account_users au ON au.user_id = u.id WHERE au.account_id = ? ORDER BY lower(u.name), u.id').all(scope.accountId) as UserRow[])
      .filter((u) => !ids || ids.includes(u.id))
      .map((u) => agentPartial(db, u, scope.accountId));

  app.get(`${A}/agents`, async (request) => agents(scoped(db, request)));

  // An existing user (by email) joins the account; a new one is created with an access token.
  app.post(`${A}/agents`, async (request) => {
    const scope = scoped(db, request);
    requireAdmin(scope);
    const body = parseBody(agentCreate, wrapped(input(request), 'agent'));
    const email = body.email.toLowerCase();
    const now = deps.clock();
    const user = db.transaction(() => {
      const existing = stmt(db, 'SELECT * FROM users WHERE email = ?').get(email) as UserRow | undefined;
      if (existing && memberOf(db, scope.accountId, existing.id)) throw invalid('Email has already been taken', ['email']);
      const id = existing?.id ?? createUser(db, { name: body.name || email.split('@')[0]!, email }, now).id;
      addToAccount(db, scope.accountId, id, body.role ?? 'agent');
      stmt(db, 'UPDATE account_users SET availability = ?, auto_offline = ? WHERE account_id = ? AND user_id = ?').run(body.availability ?? 'online', body.auto_offline === false ? 0 : 1, scope.accountId, id);
      return userById(db, id)!;
    })();
    return agentPartial(db, user, scope.accountId);
  });

  const updateAgent = async (request: FastifyRequest) => {
    const scope = scoped(db, request);
    requireAdmin(scope);
    const user = agentInAccount(db, scope, pathId(request));
    const body = parseBody(agentUpdate, wrapped(input(request), 'agent'));
    db.transaction(() => {
      if (body.name !== undefined) stmt(db, 'UPDATE users SET name = ? WHERE id = ?').run(body.name, user.id);
      if (body.role) stmt(db, 'UPDATE account_users SET role = ? WHERE account_id = ? AND user_id = ?').run(body.role, scope.accountId, user.id);
      if (body.availability) stmt(db, 'UPDATE account_users SET availability = ? WHERE account_id = ? AND user_id = ?').run(body.availability, scope.accountId, user.id);
      if (body.auto_offline !== undefined) stmt(db, 'UPDATE account_users SET auto_offline = ? WHERE account_id = ? AND user_id = ?').run(body.auto_offline ? 1 : 0, scope.accountId, user.id);
    })();
    return agentPartial(db, userById(db, user.id)!, scope.accountId);
  };
  app.patch(`${A}/agents/:id`, updateAgent);
  app.put(`${A}/agents/:id`, updateAgent);

  // Leaving the account also leaves its inboxes and teams and unassigns its conversations.
  app.delete(`${A}/agents/:id`, async (request, reply) => {
    const scope = scoped(db, request);
    requireAdmin(scope);
    const user = agentInAccount(db, scope, pathId(request));
    db.transaction(() => {
      stmt(db, 'DELETE FROM inbox_members WHERE user_id = ? AND inbox_id IN (SELECT id FROM inboxes WHERE account_id = ?)').run(user.id, scope.accountId);
      stmt(db, 'DELETE FROM team_members WHERE user_id = ? AND team_id IN (SELECT id FROM teams WHERE account_id = ?)').run(user.id, scope.accountId);
      stmt(db, 'UPDATE conversations SET assignee_id = NULL WHERE assignee_id = ? AND account_id = ?').run(user.id, scope.accountId);
      stmt(db, 'DELETE FROM account_users WHERE account_id = ? AND user_id = ?').run(scope.accountId, user.id);
    })();
    return reply.code(200).send();
  });

  app.get(`${A}/teams`, async (request) => {
    const scope = scoped(db, request);
    const teams = stmt(db, 'SELECT * FROM teams WHERE account_id = ? ORDER BY id').all(scope.accountId) as TeamRow[];
    return teams.map((t) => teamPartial(db, t, scope.user.id));
  });

  app.get(`${A}/teams/:id`, async (request) => {
    const scope = scoped(db, request);
    return teamPartial(db, teamInAccount(db, scope, pathId(request)), scope.user.id);
  });

  // Names are lower-cased and unique per account, as the reference keeps them.
  const saveTeam = (scope: AccountScope, body: z.output<typeof teamFields>, id?: number) => {
    const name = body.name.toLowerCase();
    const clash = stmt(db, 'SELECT id FROM teams WHERE account_id = ? AND name = ?').get(scope.accountId, name) as { id: number } | undefined;
    if (clash && clash.id !== id) throw invalid('Name has already been taken', ['name']);
    const now = deps.clock();
    if (id === undefined) {
      id = Number(
        stmt(db, 'INSERT INTO teams (account_id, name, description, allow_auto_assign, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(scope.accountId, name, body.description ?? '', body.allow_auto_assign === false ? 0 : 1, now, now)
          .lastInsertRowid,
      );
    } else {
      stmt(db, 'UPDATE teams SET name = ?, description = COALESCE(?, description), allow_auto_assign = COALESCE(?, allow_auto_assign), updated_at = ? WHERE id = ?').run(
        name,
        body.description ?? null,
        body.allow_auto_assign === undefined ? null : body.allow_auto_assign ? 1 : 0,
        now,
        id,
      );
    }
    directoryChanged(deps, scope.accountId, 'team');
    return teamPartial(db, teamInAccount(db, scope, id), scope.user.id);
  };

  app.post(`${A}/teams`, async (request) => {
    const scope = scoped(db, request);
    requireAdmin(scope);
    return saveTeam(scope, parseBody(teamFields, wrapped(input(request), 'team')));
  });

  const updateTeam = async (request: FastifyRequest) => {
    const scope = scoped(db, request);
    requireAdmin(scope);
    const team = teamInAccount(db, scope, pathId(request));
    const raw = wrapped(input(request), 'team');
    return saveTeam(scope, parseBody(teamFields, { name: team.name, ...raw }), team.id);
  };
  app.patch(`${A}/teams/:id`, updateTeam);
  app.put(`${A}/teams/:id`, updateTeam);

  app.delete(`${A}/teams/:id`, async (request, reply) => {
    const scope = scoped(db, request);
    requireAdmin(scope);
    const team = teamInAccount(db, scope, pathId(request));
    db.transaction(() => {
      stmt(db, 'UPDATE conversations SET team_id = NULL WHERE team_id = ?').run(team.id);
      stmt(db, 'DELETE FROM team_members WHERE team_id = ?').run(team.id);
      stmt(db, 'DELETE FROM teams WHERE id = ?').run(team.id);
    })();
    directoryChanged(deps, scope.accountId, 'team');
    return reply.code(200).send();
  });

  const members = (teamId: number) => (stmt(db, 'SELECT user_id FROM team_members WHERE team_id = ?').all(teamId) as { user_id: number }[]).map((r) => r.user_id);
  /** The ids must all be agents of this account (the reference answers 401; a validation failure is 422 here). */
  const validIds = (scope: AccountScope, request: FastifyRequest) => {
    const { user_ids } = parseBody(userIds, input(request));
    if (user_ids.some((id) => !memberOf(db, scope.accountId, id))) throw invalid('Invalid User IDs', ['user_ids']);
    return [...new Set(user_ids)];
  };

  app.get(`${A}/teams/:id/team_members`, async (request) => {
    const scope = scoped(db, request);
    return agents(scope, members(teamInAccount(db, scope, pathId(request)).id));
  });

  // Adds; answers only the agents newly added.
  app.post(`${A}/teams/:id/team_members`, async (request) => {
    const scope = scoped(db, request);
    requireAdmin(scope);
    const team = teamInAccount(db, scope, pathId(request));
    const before = members(team.id);
    const added = validIds(scope, request).filter((id) => !before.includes(id));
    db.transaction(() => added.forEach((id) => stmt(db, 'INSERT INTO team_members (team_id, user_id) VALUES (?, ?)').run(team.id, id)))();
    return agents(scope, added);
  });

  // Sets the exact list; answers all members.
  app.patch(`${A}/teams/:id/team_members`, async (request) => {
    const scope = scoped(db, request);
    requireAdmin(scope);
    const team = teamInAccount(db, scope, pathId(request));
    const ids = validIds(scope, request);
    db.transaction(() => {
      stmt(db, 'DELETE FROM team_members WHERE team_id = ?').run(team.id);
      ids.forEach((id) => stmt(db, 'INSERT INTO team_members (team_id, user_id) VALUES (?, ?)').run(team.id, id));
    })();
    return agents(scope, ids);
  });

  app.delete(`${A}/teams/:id/team_members`, async (request, reply) => {
    const scope = scoped(db, request);
    requireAdmin(scope);
    const team = teamInAccount(db, scope, pathId(request));
    const ids = validIds(scope, request);
    db.transaction(() => ids.forEach((id) => stmt(db, 'DELETE FROM team_members WHERE team_id = ? AND user_id = ?').run(team.id, id)))();
    return reply.code(200).send();
  });
}
