// An account's agent bots (chatwoot-compat §1.15 `A/agent_bots`, §0): administrators list, create,
// change and delete them. A new bot gets its access token (shown to administrators in the record),
// which reaches the bot endpoints of this account.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { shortText } from '../../http/body';
import { notFound } from '../../http/errors';
import { parseParams } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { idParams } from '../../http/scope';
import { agentBotRecord } from '../../presenters/agent-bot';
import type { BotRow } from '../../store/agent-bots';
import { agentBotsOfAccount, botById, deleteAgentBot, updateAgentBot } from '../../store/agent-bots';
import { createAgentBot } from '../../store/provision';
import type { RouteDeps } from '../deps';
import { memberOf } from '../account-scope';

const outgoingUrl = z
  .union([z.literal(''), z.null(), z.string().max(2048).regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL')])
  .transform((v) => v || null);
const fields = { description: shortText(1000).nullish(), outgoing_url: outgoingUrl.optional() };
const createBody = z.object({ name: shortText().min(1, "can't be blank"), ...fields });
const updateBody = z.object({ name: shortText().min(1, "can't be blank").optional(), ...fields });

export function agentBotRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const admin = { access: 'administrator' as const, wrap: 'agent_bot' };
    /** A bot of this account; another account's (or the installation's) is 404 here. */
    const ownBot = (accountId: number, params: unknown): BotRow => {
      const bot = botById(db, parseParams(idParams, params, 'path parameter').id);
      if (!bot || bot.account_id !== accountId) throw notFound();
      return bot;
    };

    app.get('/agent_bots', { config: admin }, async (request) => agentBotsOfAccount(db, request.caller.accountId).map((b) => agentBotRecord(db, b, memberOf(request))));

    app.post('/agent_bots', { config: admin, schema: { body: createBody } }, async (request) => {
      const { name, description, outgoing_url } = request.body;
      const { id } = createAgentBot(db, request.caller.accountId, { name, ...(description ? { description } : {}), ...(outgoing_url ? { outgoingUrl: outgoing_url } : {}) }, deps.clock());
      return agentBotRecord(db, botById(db, id)!, memberOf(request));
    });

    app.get('/agent_bots/:id', { config: admin, schema: { params: idParams } }, async (request) => agentBotRecord(db, ownBot(request.caller.accountId, request.params), memberOf(request)));

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/agent_bots/:id',
        config: admin,
        schema: { params: idParams, body: updateBody },
        preValidation: async (request) => void ownBot(request.caller.accountId, request.params),
        handler: async (request) => {
          const bot = ownBot(request.caller.accountId, request.params);
          const { name, description, outgoing_url } = request.body;
          return agentBotRecord(db, updateAgentBot(db, bot, { name, description, outgoingUrl: outgoing_url }), memberOf(request));
        },
      });
    }

    app.delete('/agent_bots/:id', { config: admin, schema: { params: idParams } }, async (request, reply) => {
      deleteAgentBot(db, ownBot(request.caller.accountId, request.params).id);
      return reply.code(200).send();
    });
  };
}
