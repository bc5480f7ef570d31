// Inboxes (spec: Resources → Inbox; chatwoot-compat §1.5): agents see only the inboxes they are
// members of, credentials (hmac_token) only administrators; administrators create, change and
// delete them, and attach an agent bot.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Caller } from '../../http/auth';
import { visibleInboxIds } from '../../http/auth';
import { attributesObject, boolish, oneOf, optionalId, shortText } from '../../http/body';
import { invalid, notAuthorized, notFound } from '../../http/errors';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { parseParams } from '../../http/params';
import { baseUrlOf, idParams } from '../../http/scope';
import { agentBotRecord } from '../../presenters/agent-bot';
import { inboxFull } from '../../presenters/inbox';
import { botById, botOfInbox, setInboxBot } from '../../store/agent-bots';
import type { InboxRow } from '../../store/inboxes';
import { deleteInbox, inboxById, inboxesOfAccount, updateInbox } from '../../store/inboxes';
import { createInbox } from '../../store/provision';
import type { Db } from '../../db/open';
import type { RouteDeps } from '../deps';
import { directoryChanged } from '../deps';
import { memberOf } from '../account-scope';

/** An inbox of the account: 404 if not there, 401 if the caller is not one of its agents. */
export function visibleInbox(db: Db, caller: Caller, id: number): InboxRow {
  const row = inboxById(db, caller.accountId, id);
  if (!row) throw notFound();
  if (!visibleInboxIds(db, caller).includes(row.id)) throw notAuthorized();
  return row;
}

const httpUrl = z.union([z.literal(''), z.null(), z.string().max(2048).regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL')]);

/** Settings an administrator may change (stored in inboxes.settings; presenters/inbox.ts gives their defaults). */
const settingFields = {
  greeting_enabled: boolish.optional(),
  greeting_message: shortText(2000).nullish(),
  enable_auto_assignment: boolish.optional(),
  auto_assignment_config: attributesObject.optional(),
  working_hours_enabled: boolish.optional(),
  out_of_office_message: shortText(2000).nullish(),
  timezone: shortText(100).optional(),
  enable_email_collect: boolish.optional(),
  csat_survey_enabled: boolish.optional(),
  allow_messages_after_resolved: boolish.optional(),
  lock_to_single_conversation: boolish.optional(),
  sender_name_type: oneOf(['friendly', 'professional']).optional(),
  business_name: shortText().nullish(),
};
/** Channel fields (`channel: {...}`, as the reference nests them). */
const channelFields = z.object({
  webhook_url: httpUrl.optional(),
  website_url: httpUrl.optional(),
  widget_color: shortText(20).optional(),
  welcome_title: shortText().nullish(),
  welcome_tagline: shortText().nullish(),
  hmac_mandatory: boolish.optional(),
});
const createBody = z.object({
  name: shortText().min(1, "can't be blank"),
  avatar: z.string().optional(),
  channel: channelFields.extend({ type: oneOf(['api', 'web_widget', 'email']) }),
  ...settingFields,
});
const updateBody = z.object({ name: shortText().min(1, "can't be blank").optional(), avatar: z.string().optional(), channel: channelFields.optional(), ...settingFields });
const setBotBody = z.object({ agent_bot: optionalId.optional() });

type ChannelInput = z.output<typeof channelFields>;
/** What goes into inboxes.settings from a create or update body (undefined fields are left alone). */
function settingsOf(body: Partial<Record<keyof typeof settingFields, unknown>> & { channel?: ChannelInput | undefined }) {
  const { channel } = body;
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(settingFields)) if (body[key as keyof typeof settingFields] !== undefined) picked[key] = body[key as keyof typeof settingFields];
  for (const key of ['website_url', 'widget_color', 'welcome_title', 'welcome_tagline'] as const) if (channel?.[key] !== undefined) picked[key] = channel[key] || null;
  return picked;
}

export function inboxRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const present = (request: FastifyRequest, row: InboxRow) => inboxFull(row, { isAdmin: request.caller.role === 'administrator', baseUrl: baseUrlOf(request) });

    app.get('/inboxes', async (request) => {
      const ids = visibleInboxIds(db, request.caller);
      return { payload: inboxesOfAccount(db, request.caller.accountId).filter((r) => ids.includes(r.id)).map((r) => present(request, r)) };
    });

    app.get('/inboxes/:id', { schema: { params: idParams } }, async (request) => present(request, visibleInbox(db, request.caller, request.params.id)));

    app.post('/inboxes', { config: { access: 'administrator', wrap: 'inbox' }, schema: { body: createBody } }, async (request) => {
      const { name, channel } = request.body;
      const created = createInbox(
        db,
        request.caller.accountId,
        {
          name,
          kind: channel.type,
          ...(channel.hmac_mandatory ? { hmacMandatory: true } : {}),
          ...(channel.webhook_url ? { webhookUrl: channel.webhook_url } : {}),
          settings: settingsOf(request.body),
        },
        deps.clock(),
      );
      directoryChanged(deps, request.caller.accountId, 'inbox');
      return present(request, inboxById(db, request.caller.accountId, created.id)!);
    });

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/inboxes/:id',
        config: { access: 'administrator', wrap: 'inbox' },
        schema: { params: idParams, body: updateBody },
        // The record before its body: a missing inbox is 404 whatever was sent.
        preValidation: async (request) => {
          const { id } = parseParams(idParams, request.params, 'path parameter');
          if (!inboxById(db, request.caller.accountId, id)) throw notFound();
        },
        handler: async (request) => {
          const row = inboxById(db, request.caller.accountId, request.params.id)!;
          const { name, channel } = request.body;
          if (channel?.webhook_url && row.channel_type !== 'Channel::Api') throw invalid('channel.webhook_url is only for API inboxes', ['channel']);
          const updated = updateInbox(db, row, {
            ...(name === undefined ? {} : { name }),
            ...(channel?.webhook_url === undefined ? {} : { webhookUrl: channel.webhook_url || null }),
            ...(channel?.hmac_mandatory === undefined ? {} : { hmacMandatory: channel.hmac_mandatory }),
            settings: settingsOf(request.body),
          });
          directoryChanged(deps, request.caller.accountId, 'inbox');
          return present(request, updated);
        },
      });
    }

    app.delete('/inboxes/:id', { config: { access: 'administrator' }, schema: { params: idParams } }, async (request) => {
      const row = inboxById(db, request.caller.accountId, request.params.id);
      if (!row) throw notFound();
      deleteInbox(db, row.id);
      directoryChanged(deps, request.caller.accountId, 'inbox');
      return { message: 'Your inbox deletion request will be processed in some time.' };
    });

    // `{agent_bot: {...}}`, or `{}` without one (the reference's empty jbuilder block drops the key).
    app.get('/inboxes/:id/agent_bot', { schema: { params: idParams } }, async (request) => {
      const row = visibleInbox(db, request.caller, request.params.id);
      const bot = botOfInbox(db, row.id);
      return bot ? { agent_bot: agentBotRecord(db, bot, memberOf(request)) } : {};
    });

    // `agent_bot` absent or null removes it. A bot of another account is 404.
    app.post('/inboxes/:id/set_agent_bot', { config: { access: 'administrator' }, schema: { params: idParams, body: setBotBody } }, async (request, reply) => {
      const row = inboxById(db, request.caller.accountId, request.params.id);
      if (!row) throw notFound();
      const botId = request.body.agent_bot ?? null;
      if (botId !== null) {
        const bot = botById(db, botId);
        if (!bot || (bot.account_id !== null && bot.account_id !== request.caller.accountId)) throw notFound();
      }
      setInboxBot(db, row.id, botId);
      return reply.code(200).send();
    });
  };
}
