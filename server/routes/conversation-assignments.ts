// Who handles a conversation (assignee user or agent bot, team) and its labels (chatwoot-compat §1.2, §1.3).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { stmt } from '../db/open';
import { botById } from '../store/agent-bots';
import { userById } from '../store/users';
import { input, oneOf, optionalId, parseBody } from '../http/body';
import { etag, ifMatchOf } from '../http/preconditions';
import { callerScoped, scoped, visibleConversation } from '../http/scope';
import type { TeamRow } from '../presenters/people';
import { agentBotSlim, agentPartial } from '../presenters/people';
import { iso } from '../presenters/time';
import { labelsOf, requireRevision, revisionOf } from '../store/conversations';
import type { ConversationChange } from '../store/conversation-updates';
import { updateConversation } from '../store/conversation-updates';
import type { RouteDeps } from './deps';
import { writeContext } from './deps';

const C = '/api/v1/accounts/:account_id/conversations/:conversation_id';

const assignmentBody = z.object({ assignee_id: optionalId.optional(), assignee_type: oneOf(['User', 'AgentBot']).optional(), team_id: optionalId.optional() });
const labelsBody = z.object({
  labels: z.array(z.string().trim().min(1, "can't be blank").max(255)).max(100, 'at most 100 labels'),
});

/** The raw Team model JSON the reference service renders for a team assignment. */
function teamRaw(t: TeamRow & { created_at: number; updated_at: number | null }) {
  return { id: t.id, name: t.name, description: t.description, allow_auto_assign: t.allow_auto_assign === 1, account_id: t.account_id, created_at: iso(t.created_at), updated_at: iso(t.updated_at ?? t.created_at) };
}

export function conversationAssignmentRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { db } = deps;
  const sendJson = (reply: { type(t: string): { send(b: string): unknown } }, body: unknown) => reply.type('application/json; charset=utf-8').send(JSON.stringify(body));

  // An unknown assignee or team unassigns and answers `null`, as the reference service does.
  // If-Match (SYNC-PROTOCOL.md) is checked in the write's transaction, also when nothing is to change.
  app.post(`${C}/assignments`, async (request, reply) => {
    const caller = callerScoped(db, request);
    const c = visibleConversation(db, caller, request.params);
    const precondition = ifMatchOf(request);
    // As the reference: `team_id` is read only when `assignee_id` is absent, so a client that sends
    // both (generated clients send every field, `team_id: 0` for "unset") assigns the agent.
    const { team_id, ...params } = input(request);
    const body = parseBody(assignmentBody, 'assignee_id' in params ? params : { ...params, team_id });
    let change: ConversationChange | undefined;
    let answer = (): unknown => null;
    if (body.assignee_id !== undefined) {
      if (body.assignee_type === 'AgentBot') {
        const bot = body.assignee_id === null ? undefined : botById(db, body.assignee_id);
        const usable = bot && (bot.account_id === c.account_id || stmt(db, 'SELECT 1 FROM agent_bot_inboxes WHERE agent_bot_id = ? AND inbox_id = ?').get(bot.id, c.inbox_id));
        change = { assignee: { botId: usable ? bot.id : null } };
        if (usable) answer = () => agentBotSlim(bot);
      } else {
        const member = body.assignee_id === null ? undefined : stmt(db, 'SELECT 1 FROM account_users WHERE account_id = ? AND user_id = ?').get(c.account_id, body.assignee_id);
        const user = member ? userById(db, body.assignee_id!) : undefined;
        change = { assignee: { userId: user ? user.id : null } };
        if (user) answer = () => agentPartial(db, user, c.account_id);
      }
    } else if (body.team_id !== undefined) {
      const team = body.team_id === null ? undefined : (stmt(db, 'SELECT * FROM teams WHERE id = ? AND account_id = ?').get(body.team_id, c.account_id) as (TeamRow & { created_at: number; updated_at: number | null }) | undefined);
      change = { teamId: team ? team.id : null };
      if (team) answer = () => teamRaw(team);
    }
    if (change) updateConversation(writeContext(deps, caller), c, change, precondition);
    else requireRevision(db, c.id, precondition);
    reply.header('ETag', etag(revisionOf(db, c.id)));
    return sendJson(reply, answer());
  });

  app.get(`${C}/labels`, async (request) => {
    const scope = scoped(db, request);
    const c = visibleConversation(db, scope, request.params);
    return { payload: labelsOf(db, c.id) };
  });

  // Replaces the whole set; labels need not exist as account labels.
  app.post(`${C}/labels`, async (request, reply) => {
    const scope = scoped(db, request);
    const c = visibleConversation(db, scope, request.params);
    const precondition = ifMatchOf(request);
    const { labels } = parseBody(labelsBody, input(request));
    const row = updateConversation(writeContext(deps, scope), c, { labels }, precondition);
    reply.header('ETag', etag(revisionOf(db, row.id)));
    return { payload: labelsOf(db, row.id) };
  });
}
