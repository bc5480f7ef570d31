// Who handles a conversation (assignee user or agent bot, team) and its labels (chatwoot-compat §1.2, §1.3).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { oneOf, optionalId } from '../../http/body';
import { etag, ifMatchOf } from '../../http/preconditions';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { conversationParams, visibleConversation } from '../../http/scope';
import { agentBotSlim, agentPartial } from '../../presenters/people';
import { iso } from '../../presenters/time';
import { botAttachedTo, botById } from '../../store/agent-bots';
import type { ConversationChange } from '../../store/conversation-updates';
import { updateConversation } from '../../store/conversation-updates';
import { labelsOf, requireRevision, revisionOf } from '../../store/conversations';
import type { TeamRecordRow } from '../../store/teams';
import { teamInAccount } from '../../store/teams';
import { roleIn, userById } from '../../store/users';
import type { RouteDeps } from '../deps';
import { writeContext } from '../deps';

const assignmentBody = z.object({ assignee_id: optionalId.optional(), assignee_type: oneOf(['User', 'AgentBot']).optional(), team_id: optionalId.optional() });
const labelsBody = z.object({
  labels: z.array(z.string().trim().min(1, "can't be blank").max(255)).max(100, 'at most 100 labels'),
});

/** The raw Team model JSON the reference service renders for a team assignment. */
function teamRaw(t: TeamRecordRow) {
  return { id: t.id, name: t.name, description: t.description, allow_auto_assign: t.allow_auto_assign === 1, account_id: t.account_id, created_at: iso(t.created_at), updated_at: iso(t.updated_at ?? t.created_at) };
}

export function conversationAssignmentRoutes(deps: RouteDeps) {
  const { db } = deps;
  const conversationOf = (request: FastifyRequest) => visibleConversation(db, request.caller, request.params);
  const sendJson = (reply: { type(t: string): { send(b: string): unknown } }, body: unknown) => reply.type('application/json; charset=utf-8').send(JSON.stringify(body));

  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const C = '/conversations/:conversation_id';
    const params = conversationParams;

    // An unknown assignee or team unassigns and answers `null`, as the reference service does.
    // If-Match (SYNC-PROTOCOL.md) is checked in the write's transaction, also when nothing is to change.
    app.post(
      `${C}/assignments`,
      {
        config: { access: 'member-or-bot' },
        schema: { params, body: assignmentBody },
        // The conversation and If-Match before the body.
        preValidation: async (request) => {
          conversationOf(request);
          ifMatchOf(request);
          // As the reference: `team_id` is read only when `assignee_id` is absent, so a client that sends
          // both (generated clients send every field, `team_id: 0` for "unset") assigns the agent.
          const { team_id, ...rest } = request.body as Record<string, unknown>;
          request.body = 'assignee_id' in rest ? rest : { ...rest, team_id };
        },
      },
      async (request, reply) => {
        const c = conversationOf(request);
        const precondition = ifMatchOf(request);
        const body = request.body;
        let change: ConversationChange | undefined;
        let answer = (): unknown => null;
        if (body.assignee_id !== undefined) {
          if (body.assignee_type === 'AgentBot') {
            const bot = body.assignee_id === null ? undefined : botById(db, body.assignee_id);
            const usable = bot && (bot.account_id === c.account_id || botAttachedTo(db, bot.id, c.inbox_id));
            change = { assignee: { botId: usable ? bot.id : null } };
            if (usable) answer = () => agentBotSlim(bot);
          } else {
            const member = body.assignee_id === null ? false : roleIn(db, c.account_id, body.assignee_id) !== undefined;
            const user = member ? userById(db, body.assignee_id!) : undefined;
            change = { assignee: { userId: user ? user.id : null } };
            if (user) answer = () => agentPartial(db, user, c.account_id);
          }
        } else if (body.team_id !== undefined) {
          const team = body.team_id === null ? undefined : teamInAccount(db, c.account_id, body.team_id);
          change = { teamId: team ? team.id : null };
          if (team) answer = () => teamRaw(team);
        }
        if (change) updateConversation(writeContext(deps, request.caller), c, change, precondition);
        else requireRevision(db, c.id, precondition);
        reply.header('ETag', etag(revisionOf(db, c.id)));
        return sendJson(reply, answer());
      },
    );

    app.get(`${C}/labels`, { schema: { params } }, async (request) => ({ payload: labelsOf(db, conversationOf(request).id) }));

    // Replaces the whole set; labels need not exist as account labels.
    app.post(
      `${C}/labels`,
      {
        schema: { params, body: labelsBody },
        preValidation: async (request) => {
          conversationOf(request);
          ifMatchOf(request);
        },
      },
      async (request, reply) => {
        const c = conversationOf(request);
        const row = updateConversation(writeContext(deps, request.caller), c, { labels: request.body.labels }, ifMatchOf(request));
        reply.header('ETag', etag(revisionOf(db, row.id)));
        return { payload: labelsOf(db, row.id) };
      },
    );
  };
}
