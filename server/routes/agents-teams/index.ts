// Agents and teams (chatwoot-compat §1.6, §1.7): bare arrays of the whole collection, no paging.
// Reading is for every member; changing is for administrators (a role failure is 401).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/open';
import type { AccountScope } from '../../http/auth';
import type { UserRow } from '../../store/users';
import { isAccountMember, removeFromAccount, setPresence, updateAgent, userById, userIdWithEmail, usersOfAccount } from '../../store/users';
import { boolish, emailFormat, oneOf, shortText } from '../../http/body';
import { invalid, notFound } from '../../http/errors';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { idParams, pathId } from '../../http/scope';
import type { TeamRow } from '../../store/teams';
import { addTeamMembers, deleteTeam, insertTeam, removeTeamMembers, setTeamMembers, teamIdNamed, teamInAccount as teamRow, teamMemberIds, teamsOfAccount, updateTeam } from '../../store/teams';
import { agentPartial, teamPartial } from '../../presenters/people';
import { addToAccount, createUser } from '../../store/provision';
import { memberOf } from '../account-scope';
import type { RouteDeps } from '../deps';
import { directoryChanged } from '../deps';

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

function agentInAccount(db: Db, scope: AccountScope, id: number): UserRow {
  const user = isAccountMember(db, scope.accountId, id) ? userById(db, id) : undefined;
  if (!user) throw notFound();
  return user;
}

function teamInAccount(db: Db, scope: AccountScope, id: number): TeamRow {
  const team = teamRow(db, scope.accountId, id);
  if (!team) throw notFound();
  return team;
}

export function agentTeamRoutes(deps: RouteDeps) {
  const { db } = deps;
  const agents = (scope: AccountScope, ids?: number[]) =>
    usersOfAccount(db, scope.accountId)
      .filter((u) => !ids || ids.includes(u.id))
      .map((u) => agentPartial(db, u, scope.accountId));
  /** The agent or team named in the path (400, 404) before the body is judged. */
  const agentFirst = async (request: FastifyRequest) => {
    agentInAccount(db, memberOf(request), pathId(request));
  };
  const teamFirst = async (request: FastifyRequest) => {
    teamInAccount(db, memberOf(request), pathId(request));
  };

  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const admin = (wrap?: string) => ({ access: 'administrator' as const, ...(wrap ? { wrap } : {}) });

    app.get('/agents', async (request) => agents(memberOf(request)));

    // An existing user (by email) joins the account; a new one is created with an access token.
    app.post('/agents', { config: admin('agent'), schema: { body: agentCreate } }, async (request) => {
      const scope = memberOf(request);
      const body = request.body;
      const email = body.email.toLowerCase();
      const now = deps.clock();
      const user = db.transaction(() => {
        const existing = userIdWithEmail(db, email);
        if (existing !== undefined && isAccountMember(db, scope.accountId, existing)) throw invalid('Email has already been taken', ['email']);
        const id = existing ?? createUser(db, { name: body.name || email.split('@')[0]!, email }, now).id;
        addToAccount(db, scope.accountId, id, body.role ?? 'agent');
        setPresence(db, scope.accountId, id, body.availability ?? 'online', body.auto_offline !== false);
        return userById(db, id)!;
      })();
      return agentPartial(db, user, scope.accountId);
    });

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/agents/:id',
        config: admin('agent'),
        schema: { params: idParams, body: agentUpdate },
        preValidation: agentFirst,
        handler: async (request) => {
          const scope = memberOf(request);
          const user = agentInAccount(db, scope, pathId(request));
          const body = request.body;
          updateAgent(db, scope.accountId, user.id, { name: body.name, role: body.role, availability: body.availability, autoOffline: body.auto_offline });
          return agentPartial(db, userById(db, user.id)!, scope.accountId);
        },
      });
    }

    // Leaving the account also leaves its inboxes and teams and unassigns its conversations.
    app.delete('/agents/:id', { config: admin(), schema: { params: idParams }, preValidation: agentFirst }, async (request, reply) => {
      const scope = memberOf(request);
      const user = agentInAccount(db, scope, pathId(request));
      removeFromAccount(db, scope.accountId, user.id);
      return reply.code(200).send();
    });

    app.get('/teams', async (request) => {
      const scope = memberOf(request);
      const teams = teamsOfAccount(db, scope.accountId);
      return teams.map((t) => teamPartial(db, t, scope.user.id));
    });

    app.get('/teams/:id', { schema: { params: idParams }, preValidation: teamFirst }, async (request) => {
      const scope = memberOf(request);
      return teamPartial(db, teamInAccount(db, scope, pathId(request)), scope.user.id);
    });

    // Names are lower-cased and unique per account, as the reference keeps them.
    const saveTeam = (scope: AccountScope, body: z.output<typeof teamFields>, id?: number) => {
      const name = body.name.toLowerCase();
      const clash = teamIdNamed(db, scope.accountId, name);
      if (clash !== undefined && clash !== id) throw invalid('Name has already been taken', ['name']);
      const now = deps.clock();
      if (id === undefined) {
        id = insertTeam(db, scope.accountId, { name, description: body.description ?? '', allowAutoAssign: body.allow_auto_assign !== false }, now);
      } else {
        updateTeam(db, id, { name, description: body.description, allowAutoAssign: body.allow_auto_assign }, now);
      }
      directoryChanged(deps, scope.accountId, 'team');
      return teamPartial(db, teamInAccount(db, scope, id), scope.user.id);
    };

    app.post('/teams', { config: admin('team'), schema: { body: teamFields } }, async (request) => {
      const scope = memberOf(request);
      return saveTeam(scope, request.body);
    });

    // The name may be left out: the body is validated over the stored one.
    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/teams/:id',
        config: admin('team'),
        schema: { params: idParams, body: teamFields },
        preValidation: async (request) => {
          const team = teamInAccount(db, memberOf(request), pathId(request));
          request.body = { name: team.name, ...(request.body as object) };
        },
        handler: async (request) => {
          const scope = memberOf(request);
          const team = teamInAccount(db, scope, pathId(request));
          return saveTeam(scope, request.body, team.id);
        },
      });
    }

    app.delete('/teams/:id', { config: admin(), schema: { params: idParams }, preValidation: teamFirst }, async (request, reply) => {
      const scope = memberOf(request);
      const team = teamInAccount(db, scope, pathId(request));
      deleteTeam(db, team.id);
      directoryChanged(deps, scope.accountId, 'team');
      return reply.code(200).send();
    });

    const members = (teamId: number) => teamMemberIds(db, teamId);
    /** The ids must all be agents of this account (the reference answers 401; a validation failure is 422 here). */
    const validIds = (scope: AccountScope, body: z.output<typeof userIds>) => {
      const { user_ids } = body;
      if (user_ids.some((id) => !isAccountMember(db, scope.accountId, id))) throw invalid('Invalid User IDs', ['user_ids']);
      return [...new Set(user_ids)];
    };
    const M = '/teams/:id/team_members';
    const change = { config: admin(), schema: { params: idParams, body: userIds }, preValidation: teamFirst };

    app.get(M, { schema: { params: idParams }, preValidation: teamFirst }, async (request) => {
      const scope = memberOf(request);
      return agents(scope, members(teamInAccount(db, scope, pathId(request)).id));
    });

    // Adds; answers only the agents newly added.
    app.post(M, change, async (request) => {
      const scope = memberOf(request);
      const team = teamInAccount(db, scope, pathId(request));
      const before = members(team.id);
      const added = validIds(scope, request.body).filter((id) => !before.includes(id));
      addTeamMembers(db, team.id, added);
      return agents(scope, added);
    });

    // Sets the exact list; answers all members.
    app.patch(M, change, async (request) => {
      const scope = memberOf(request);
      const team = teamInAccount(db, scope, pathId(request));
      const ids = validIds(scope, request.body);
      setTeamMembers(db, team.id, ids);
      return agents(scope, ids);
    });

    app.delete(M, change, async (request, reply) => {
      const scope = memberOf(request);
      const team = teamInAccount(db, scope, pathId(request));
      const ids = validIds(scope, request.body);
      removeTeamMembers(db, team.id, ids);
      return reply.code(200).send();
    });
  };
}
