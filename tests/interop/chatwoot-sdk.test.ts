// @figuro/chatwoot-sdk (a published JavaScript/TypeScript SDK for Chatwoot, axios 0.27 inside),
// used as its README shows, against the demo service over real HTTP: every method the SDK offers.
import { describe, expect, it } from 'vitest';
import * as sdkModule from '@figuro/chatwoot-sdk';
import type ChatwootClientType from '@figuro/chatwoot-sdk';
import { hmacHex } from '../support/public-api';
import type { Call, Outcome } from './support/catalogue';
import { runCatalogue } from './support/catalogue';
import type { LiveDemo } from './support/live-demo';
import { liveDemo } from './support/live-demo';

// The package is CommonJS with `exports.default`; under ESM interop the class may sit one level down.
const ChatwootClient = ((sdkModule as unknown as { default: { default?: typeof ChatwootClientType } }).default.default ??
  (sdkModule as unknown as { default: typeof ChatwootClientType }).default) as typeof ChatwootClientType;

interface Ctx {
  demo: LiveDemo;
  admin: ChatwootClientType;
  A: number;
  /** Ids the calls create and later calls use. */
  made: Record<string, number | string>;
  fallback: Record<string, number | string>;
  ids: { conversation: number; apiConversation: number; contact: number; agent: number; team: number; inbox: number; bot: number };
}

/** An SDK call's answer, or its ApiError's status and body. */
async function call(p: Promise<unknown>): Promise<Outcome> {
  try {
    return { status: 200, body: await p };
  } catch (err) {
    const e = err as { status?: number; body?: unknown; url?: string; message?: string };
    if (typeof e.status === 'number') return { status: e.status, body: e.body, sent: e.url ?? '' };
    return { status: 0, body: e.message };
  }
}

type Method = (args: object) => Promise<unknown>;
/** The SDK declares `client` as `{}` (a typing bug); its README-style calls need the real members. */
const pub = (c: Ctx) => c.admin.client as Record<'contacts' | 'conversations' | 'messages', Record<'create' | 'get' | 'update' | 'list', Method>>;

const idOf = (v: unknown) => {
  expect(typeof v).toBe('number');
  return v as number;
};

async function setup(): Promise<Ctx> {
  const demo = await liveDemo();
  const { svc } = demo;
  const admin = new ChatwootClient({ config: { basePath: demo.baseUrl, with_credentials: true, credentials: 'include', token: svc.creds.adminToken } });
  const one = (sql: string, ...args: unknown[]) => (svc.db.prepare(sql).get(...args) as { id: number }).id;
  const A = svc.creds.accountId;
  // Records the later calls also work on when the call that makes theirs failed, so each call is
  // measured on its own.
  const hook = await svc.request({ method: 'POST', url: `/api/v1/accounts/${A}/webhooks`, token: svc.creds.adminToken, payload: { webhook: { url: 'https://hooks.example/setup', subscriptions: ['message_created'] } } });
  const pub = await svc.request({ method: 'POST', url: `/public/api/v1/inboxes/${svc.creds.apiInboxIdentifier}/contacts`, payload: { name: 'Setup contact' } });
  const sourceId = (pub.body as { source_id: string }).source_id;
  const conv = await svc.request({ method: 'POST', url: `/public/api/v1/inboxes/${svc.creds.apiInboxIdentifier}/contacts/${sourceId}/conversations`, payload: {} });
  return {
    demo,
    admin,
    A,
    made: {},
    fallback: {
      message: one('SELECT m.id FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.account_id = ? AND c.inbox_id = ? AND m.message_type = 1 ORDER BY m.id DESC LIMIT 1', A, svc.creds.apiInboxId),
      contact: one('SELECT id FROM contacts WHERE account_id = ? ORDER BY id DESC LIMIT 1', A),
      inbox: 3,
      webhook: (hook.body as { payload: { webhook: { id: number } } }).payload.webhook.id,
      sourceId,
      publicConversation: (conv.body as { id: number }).id,
    },
    ids: {
      conversation: one('SELECT display_id AS id FROM conversations WHERE account_id = ? AND inbox_id = 1 ORDER BY id LIMIT 1', A),
      apiConversation: one('SELECT display_id AS id FROM conversations WHERE account_id = ? AND inbox_id = ? ORDER BY id LIMIT 1', A, svc.creds.apiInboxId),
      contact: one('SELECT id FROM contacts WHERE account_id = ? AND email IS NOT NULL ORDER BY id LIMIT 1', A),
      agent: one("SELECT id FROM users WHERE email = 'jordan@acme.example'"),
      team: one('SELECT id FROM teams WHERE account_id = ? ORDER BY id LIMIT 1', A),
      inbox: svc.creds.apiInboxId,
      bot: svc.creds.botId,
    },
  };
}

const platform = { reason: 'the Platform family: the spec does not show it and this service does not offer it', status: 404 };
const notInScope = (what: string) => ({ reason: `${what}: the compat reference names the route only, and this service does not offer it`, status: 404 });
const sdkBug = (what: string) => ({ reason: `SDK bug: ${what}`, status: 404 });

const calls: Call<Ctx>[] = [
  { name: 'profile.profile', run: (c) => call(c.admin.profile.profile()), shape: (b) => expect(b).toMatchObject({ id: expect.any(Number), accounts: expect.any(Array) }) },
  // Conversations
  { name: 'conversations.getMeta', run: (c) => call(c.admin.conversations.getMeta({ accountId: c.A })), shape: (b) => expect(b.meta.all_count).toEqual(expect.any(Number)) },
  { name: 'conversations.list', run: (c) => call(c.admin.conversations.list({ accountId: c.A })), shape: (b) => expect(b.data.payload.length).toBeGreaterThan(0) },
  {
    name: 'conversations.create',
    run: (c) => call(c.admin.conversations.create({ accountId: c.A, data: { inbox_id: String(c.ids.inbox), contact_id: String(c.ids.contact) } as never })),
    shape: (b, c) => (c.made.conversation = idOf(b.id)),
  },
  {
    name: 'conversations.filter',
    run: (c) => call(c.admin.conversations.filter({ accountId: c.A, page: 1, payload: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'], query_operator: null }] as never })),
    shape: (b) => {
      expect(b.meta.all_count).toEqual(expect.any(Number));
      expect(b.payload.every((x: { status: string }) => x.status === 'open')).toBe(true);
    },
  },
  { name: 'conversations.get', run: (c) => call(c.admin.conversations.get({ accountId: c.A, conversationId: c.ids.conversation })), shape: (b, c) => expect(b.id).toBe(c.ids.conversation) },
  {
    name: 'conversations.toggleStatus',
    run: (c) => call(c.admin.conversations.toggleStatus({ accountId: c.A, conversationId: c.ids.conversation, data: { status: 'resolved' } })),
    shape: (b) => expect(b.payload.current_status).toBe('resolved'),
  },
  {
    name: 'conversationAssignment.assign',
    run: (c) => call(c.admin.conversationAssignment.assign({ accountId: c.A, conversationId: c.ids.conversation, data: { assignee_id: c.ids.agent } as never })),
    shape: (b, c) => expect(b.id).toBe(c.ids.agent),
  },
  { name: 'conversationLabels.list', run: (c) => call(c.admin.conversationLabels.list({ accountId: c.A, conversationId: c.ids.conversation })), shape: (b) => expect(b.payload).toEqual(expect.any(Array)) },
  {
    name: 'conversationLabels.add',
    run: (c) => call(c.admin.conversationLabels.add({ accountId: c.A, conversationId: c.ids.conversation, data: { labels: ['billing'] } })),
    shape: (b) => expect(b.payload).toEqual(['billing']),
  },
  // Messages
  { name: 'messages.list', run: (c) => call(c.admin.messages.list({ accountId: c.A, conversationId: c.ids.conversation })), shape: (b) => expect(b.payload.length).toBeGreaterThan(0) },
  {
    name: 'messages.create (multipart, as the SDK always sends it)',
    run: (c) => call(c.admin.messages.create({ accountId: c.A, conversationId: c.ids.apiConversation, data: { content: 'Hello from the SDK' } })),
    shape: (b, c) => {
      expect(b).toMatchObject({ content: 'Hello from the SDK', message_type: 1 });
      c.made.message = idOf(b.id);
    },
  },
  {
    name: 'messages.create with an attachment (multipart file)',
    run: (c) =>
      call(
        c.admin.messages.create({
          accountId: c.A,
          conversationId: c.ids.apiConversation,
          data: { content: 'With a file', attachments: [{ content: 'aGVsbG8gd29ybGQ=', encoding: 'base64', filename: 'hello.txt' }] } as never,
        }),
      ),
    shape: (b) => expect(b.attachments).toEqual([expect.objectContaining({ file_type: 'file', extension: 'txt' })]),
  },
  {
    name: 'messages.update (status, API inbox)',
    run: (c) => call(c.admin.messages.update({ accountId: c.A, conversationId: c.ids.apiConversation, messageId: (c.made.message ?? c.fallback.message) as number, data: { status: 'delivered' } as never })),
    shape: (b) => expect(b.status).toBe('delivered'),
  },
  {
    name: 'messages.delete',
    run: (c) => call(c.admin.messages.delete({ accountId: c.A, conversationId: c.ids.apiConversation, messageId: (c.made.message ?? c.fallback.message) as number })),
    shape: (b) => expect(b.content_attributes.deleted).toBe(true),
  },
  // Contacts
  { name: 'contacts.list', run: (c) => call(c.admin.contacts.list({ accountId: c.A, sort: 'name' } as never)), shape: (b) => expect(b.payload.length).toBeGreaterThan(0) },
  {
    name: 'contacts.create',
    run: (c) => call(c.admin.contacts.create({ accountId: c.A, data: { inbox_id: c.ids.inbox, name: 'SDK Contact', email: 'sdk.contact@example.com' } as never })),
    shape: (b, c) => (c.made.contact = idOf(b.payload.contact.id)),
  },
  { name: 'contacts.get', run: (c) => call(c.admin.contacts.get({ accountId: c.A, id: (c.made.contact ?? c.fallback.contact) as number })), shape: (b, c) => expect(b.payload.id).toBe(c.made.contact) },
  {
    name: 'contacts.update',
    run: (c) => call(c.admin.contacts.update({ accountId: c.A, id: (c.made.contact ?? c.fallback.contact) as number, data: { name: 'SDK Contact Renamed' } as never })),
    shape: (b) => expect(b.payload.name).toBe('SDK Contact Renamed'),
  },
  { name: 'contacts.listConversations', run: (c) => call(c.admin.contacts.listConversations({ accountId: c.A, id: c.ids.contact })), shape: (b) => expect(b.payload).toEqual(expect.any(Array)) },
  { name: 'contacts.search', run: (c) => call(c.admin.contacts.search({ accountId: c.A, q: 'sdk.contact' } as never)), shape: (b, c) => expect(b.payload.map((x: { id: number }) => x.id)).toContain(c.made.contact) },
  {
    name: 'contacts.filter',
    run: (c) => call(c.admin.contacts.filter({ accountId: c.A, page: 1, payload: [{ attribute_key: 'email', filter_operator: 'equal_to', values: ['sdk.contact@example.com'], query_operator: null }] as never })),
    shape: (b, c) => expect(b.payload.map((x: { id: number }) => x.id)).toEqual([c.made.contact]),
  },
  {
    name: 'contact.create (contact_inboxes)',
    run: (c) => call(c.admin.contact.create({ accountId: c.A, id: (c.made.contact ?? c.fallback.contact) as number, data: { inbox_id: 3 } as never })),
    shape: (b) => expect(b).toMatchObject({ source_id: expect.any(String), inbox: expect.objectContaining({ id: 3 }) }),
  },
  {
    name: 'contact.getContactable',
    run: (c) => call(c.admin.contact.getContactable({ accountId: c.A, id: (c.made.contact ?? c.fallback.contact) as number })),
    shape: (b) => expect(b.payload[0]).toMatchObject({ inbox: expect.objectContaining({ id: expect.any(Number) }) }),
  },
  { name: 'contacts.delete', run: (c) => call(c.admin.contacts.delete({ accountId: c.A, id: (c.made.contact ?? c.fallback.contact) as number })) },
  // Inboxes
  { name: 'inboxes.list', run: (c) => call(c.admin.inboxes.list({ accountId: c.A })), shape: (b) => expect(b.payload.length).toBeGreaterThan(0) },
  { name: 'inboxes.get (a trailing slash)', run: (c) => call(c.admin.inboxes.get({ accountId: c.A, id: c.ids.inbox })), shape: (b, c) => expect(b.id).toBe(c.ids.inbox) },
  {
    name: 'inboxes.create',
    run: (c) => call(c.admin.inboxes.create({ accountId: c.A, data: { name: 'SDK inbox', channel: { type: 'api', webhook_url: '' } } as never })),
    shape: (b, c) => {
      expect(b).toMatchObject({ name: 'SDK inbox', channel_type: 'Channel::Api' });
      c.made.inbox = idOf(b.id);
    },
  },
  {
    name: 'inboxes.update',
    run: (c) => call(c.admin.inboxes.update({ accountId: c.A, id: (c.made.inbox ?? c.fallback.inbox) as number, data: { name: 'SDK inbox renamed', enable_auto_assignment: false } as never })),
    shape: (b) => expect(b).toMatchObject({ name: 'SDK inbox renamed', enable_auto_assignment: false }),
  },
  {
    name: 'inboxes.updateAgentBot',
    run: (c) => call(c.admin.inboxes.updateAgentBot({ accountId: c.A, id: (c.made.inbox ?? c.fallback.inbox) as number, data: { agent_bot: c.ids.bot } as never })),
  },
  { name: 'inboxes.getAgentBot', run: (c) => call(c.admin.inboxes.getAgentBot({ accountId: c.A, id: (c.made.inbox ?? c.fallback.inbox) as number })), shape: (b, c) => expect(b.agent_bot.id).toBe(c.ids.bot) },
  {
    name: 'inboxes.addAgent',
    run: (c) => call(c.admin.inboxes.addAgent({ accountId: c.A, data: { inbox_id: c.made.inbox, user_ids: [c.ids.agent] } as never })),
    shape: (b, c) => expect(b.payload.map((x: { id: number }) => x.id)).toEqual([c.ids.agent]),
  },
  {
    name: 'inboxes.updateAgentsInInbox',
    run: (c) => call(c.admin.inboxes.updateAgentsInInbox({ accountId: c.A, data: { inbox_id: c.made.inbox, user_ids: [2, c.ids.agent] } as never })),
    shape: (b) => expect(b.payload).toHaveLength(2),
  },
  { name: 'inboxes.listAgents', run: (c) => call(c.admin.inboxes.listAgents({ accountId: c.A, inboxId: (c.made.inbox ?? c.fallback.inbox) as number })), shape: (b) => expect(b.payload).toHaveLength(2) },
  {
    name: 'inboxes.removeAgent',
    run: (c) => call(c.admin.inboxes.removeAgent({ accountId: c.A, inboxId: (c.made.inbox ?? c.fallback.inbox) as number, data: { user_ids: [2] } as never })),
    left: sdkBug('DELETE /inbox_members/{inbox_id}; Chatwoot and its OpenAPI description route DELETE /inbox_members with inbox_id in the body'),
  },
  // Agents, teams, canned responses, agent bots
  { name: 'agents.list', run: (c) => call(c.admin.agents.list({ accountId: c.A })), shape: (b) => expect(b.length).toBeGreaterThan(0) },
  {
    name: 'agents.create',
    run: (c) => call(c.admin.agents.create({ accountId: c.A, data: { name: 'SDK Agent', email: 'sdk.agent@acme.example', role: 'agent' } as never })),
    shape: (b, c) => (c.made.agent = idOf(b.id)),
  },
  { name: 'agents.update', run: (c) => call(c.admin.agents.update({ accountId: c.A, id: c.made.agent as number, data: { role: 'administrator' } as never })), shape: (b) => expect(b.role).toBe('administrator') },
  { name: 'agents.delete', run: (c) => call(c.admin.agents.delete({ accountId: c.A, id: c.made.agent as number })) },
  { name: 'teams.list', run: (c) => call(c.admin.teams.list({ accountId: c.A })), shape: (b) => expect(b.length).toBeGreaterThan(0) },
  { name: 'teams.create', run: (c) => call(c.admin.teams.create({ accountId: c.A, data: { name: 'sdk team' } as never })), shape: (b, c) => (c.made.team = idOf(b.id)) },
  { name: 'teams.get', run: (c) => call(c.admin.teams.get({ accountId: c.A, teamId: c.made.team as number })), shape: (b) => expect(b.name).toBe('sdk team') },
  { name: 'teams.update', run: (c) => call(c.admin.teams.update({ accountId: c.A, teamId: c.made.team as number, data: { description: 'from the SDK' } as never })), shape: (b) => expect(b.description).toBe('from the SDK') },
  ...(['listMembers', 'addAgent', 'updateAgentsInTeam', 'removeAgent'] as const).map(
    (m): Call<Ctx> => ({
      name: `teams.${m}`,
      run: (c) => call((c.admin.teams[m] as (a: unknown) => Promise<unknown>)({ accountId: c.A, teamId: c.made.team, data: { user_ids: [c.ids.agent] } })),
      left: sdkBug('the team members paths lack the /api/v1 prefix (/accounts/{account_id}/teams/{team_id}/team_members)'),
    }),
  ),
  { name: 'teams.delete', run: (c) => call(c.admin.teams.delete({ accountId: c.A, teamId: c.made.team as number })) },
  { name: 'cannedResponses.list', run: (c) => call(c.admin.cannedResponses.list({ accountId: c.A })), shape: (b) => expect(b).toEqual(expect.any(Array)) },
  {
    name: 'cannedResponses.create',
    run: (c) => call(c.admin.cannedResponses.create({ accountId: c.A, data: { short_code: 'sdk', content: 'From the SDK' } as never })),
    shape: (b, c) => (c.made.canned = idOf(b.id)),
  },
  {
    name: 'cannedResponses.update',
    run: (c) => call(c.admin.cannedResponses.update({ accountId: c.A, id: c.made.canned as number, data: { content: 'Changed' } as never })),
    shape: (b) => expect(b.content).toBe('Changed'),
  },
  { name: 'cannedResponses.delete', run: (c) => call(c.admin.cannedResponses.delete({ accountId: c.A, id: c.made.canned as number })) },
  { name: 'accountAgentBots.list', run: (c) => call(c.admin.accountAgentBots.list({ accountId: c.A })), shape: (b, c) => expect(b.map((x: { id: number }) => x.id)).toContain(c.ids.bot) },
  {
    name: 'accountAgentBots.create',
    run: (c) => call(c.admin.accountAgentBots.create({ accountId: c.A, data: { name: 'SDK Bot', description: 'made by the SDK', outgoing_url: 'https://bot.example/hook' } })),
    shape: (b, c) => {
      expect(b).toMatchObject({ name: 'SDK Bot', outgoing_url: 'https://bot.example/hook', account_id: c.A });
      c.made.bot = idOf(b.id);
    },
  },
  { name: 'accountAgentBots.get', run: (c) => call(c.admin.accountAgentBots.get({ accountId: c.A, id: c.made.bot as number })), shape: (b) => expect(b.name).toBe('SDK Bot') },
  {
    name: 'accountAgentBots.update',
    run: (c) => call(c.admin.accountAgentBots.update({ accountId: c.A, id: c.made.bot as number, data: { name: 'SDK Bot 2' } })),
    shape: (b) => expect(b.name).toBe('SDK Bot 2'),
  },
  { name: 'accountAgentBots.delete', run: (c) => call(c.admin.accountAgentBots.delete({ accountId: c.A, id: c.made.bot as number })) },
  // Custom attributes, custom filters, webhooks, integrations
  {
    name: 'customAttributes.create',
    run: (c) =>
      call(
        c.admin.customAttributes.create({
          accountId: c.A,
          data: { attribute_display_name: 'Plan', attribute_display_type: 6, attribute_key: 'plan', attribute_values: ['free', 'pro'], attribute_model: 0, attribute_description: 'Plan' },
        }),
      ),
    shape: (b, c) => {
      expect(b).toMatchObject({ attribute_key: 'plan', attribute_display_type: 'list', attribute_model: 'conversation_attribute', attribute_values: ['free', 'pro'] });
      c.made.attribute = idOf(b.id);
    },
  },
  { name: 'customAttributes.list', run: (c) => call(c.admin.customAttributes.list({ accountId: c.A, attributeModel: '0' })), shape: (b) => expect(b.map((x: { attribute_key: string }) => x.attribute_key)).toContain('plan') },
  { name: 'customAttributes.get', run: (c) => call(c.admin.customAttributes.get({ accountId: c.A, id: c.made.attribute as number })), shape: (b) => expect(b.attribute_key).toBe('plan') },
  {
    name: 'customAttributes.update',
    run: (c) => call(c.admin.customAttributes.update({ accountId: c.A, id: c.made.attribute as number, data: { attribute_display_name: 'Billing plan' } })),
    shape: (b) => expect(b.attribute_display_name).toBe('Billing plan'),
  },
  { name: 'customAttributes.delete', run: (c) => call(c.admin.customAttributes.delete({ accountId: c.A, id: c.made.attribute as number })) },
  { name: 'customFilters.list', run: (c) => call(c.admin.customFilters.list({ accountId: c.A, filterType: 'conversation' } as never)), shape: (b) => expect(b).toEqual(expect.any(Array)) },
  {
    name: 'customFilters.create',
    run: (c) => call(c.admin.customFilters.create({ accountId: c.A, filterType: 'conversation', data: { name: 'SDK filter', type: 'conversation', query: { payload: [] } } } as never)),
    shape: (b, c) => (c.made.filter = idOf(b.id)),
  },
  { name: 'customFilters.get', run: (c) => call(c.admin.customFilters.get({ accountId: c.A, customFilterId: c.made.filter as number })), shape: (b) => expect(b.name).toBe('SDK filter') },
  {
    name: 'customFilters.update',
    run: (c) => call(c.admin.customFilters.update({ accountId: c.A, customFilterId: c.made.filter as number, data: { name: 'SDK filter 2' } } as never)),
    shape: (b) => expect(b.name).toBe('SDK filter 2'),
  },
  { name: 'customFilters.delete', run: (c) => call(c.admin.customFilters.delete({ accountId: c.A, customFilterId: c.made.filter as number })) },
  { name: 'webhooks.list', run: (c) => call(c.admin.webhooks.list({ accountId: c.A })), shape: (b) => expect(b.payload.webhooks).toEqual(expect.any(Array)) },
  {
    name: 'webhooks.create (unwrapped {url, subscriptions})',
    run: (c) => call(c.admin.webhooks.create({ accountId: c.A, data: { url: 'https://hooks.example/sdk', subscriptions: ['message_created'] } })),
    shape: (b, c) => {
      expect(b.payload.webhook).toMatchObject({ url: 'https://hooks.example/sdk', subscriptions: ['message_created'] });
      c.made.webhook = idOf(b.payload.webhook.id);
    },
  },
  {
    name: 'webhooks.update',
    run: (c) => call(c.admin.webhooks.update({ accountId: c.A, webhookId: (c.made.webhook ?? c.fallback.webhook) as number, data: { url: 'https://hooks.example/sdk2', subscriptions: ['message_created', 'conversation_created'] } })),
    shape: (b) => expect(b.payload.webhook.url).toBe('https://hooks.example/sdk2'),
  },
  { name: 'webhooks.delete', run: (c) => call(c.admin.webhooks.delete({ accountId: c.A, webhookId: (c.made.webhook ?? c.fallback.webhook) as number })) },
  { name: 'integrations.list', run: (c) => call(c.admin.integrations.list({ accountId: c.A })), shape: (b) => expect(b.payload).toEqual(expect.any(Array)) },
  { name: 'integrations.create', run: (c) => call(c.admin.integrations.create({ accountId: c.A, data: { app_id: 'webhook', settings: {} } as never })), left: notInScope('integration hooks') },
  { name: 'integrations.update', run: (c) => call(c.admin.integrations.update({ accountId: c.A, hookId: 1, data: { settings: {} } as never })), left: notInScope('integration hooks') },
  { name: 'integrations.delete', run: (c) => call(c.admin.integrations.delete({ accountId: c.A, hookId: 1 })), left: notInScope('integration hooks') },
  ...(['list', 'create', 'get', 'update', 'delete'] as const).map(
    (m): Call<Ctx> => ({
      name: `automationRule.${m}`,
      run: (c) => call((c.admin.automationRule[m] as (a: unknown) => Promise<unknown>)({ accountId: c.A, id: 1, data: { name: 'rule' } })),
      left: notInScope('automation rules'),
    }),
  ),
  // Reports
  {
    name: 'reports.list',
    run: (c) => call(c.admin.reports.list({ accountId: c.A, metric: 'conversations_count', type: 'account', since: String(Math.floor(c.demo.svc.clock() / 1000) - 7 * 86400), until: String(Math.floor(c.demo.svc.clock() / 1000)) } as never)),
    shape: (b) => expect(b[0]).toMatchObject({ value: expect.any(Number), timestamp: expect.any(Number) }),
  },
  {
    name: 'reports.listSummaries',
    run: (c) => call(c.admin.reports.listSummaries({ accountId: c.A, type: 'account', since: String(Math.floor(c.demo.svc.clock() / 1000) - 7 * 86400), until: String(Math.floor(c.demo.svc.clock() / 1000)) } as never)),
    shape: (b) => expect(b.conversations_count).toEqual(expect.any(Number)),
  },
  { name: 'reports.getMetrics (a trailing-slash-free account metric)', run: (c) => call(c.admin.reports.getMetrics({ accountId: c.A, type: 'account' } as never)), shape: (b) => expect(b).toMatchObject({ open: expect.any(Number), unattended: expect.any(Number), unassigned: expect.any(Number) }) },
  {
    name: 'reports.getAgentMetrics (a trailing slash)',
    run: (c) => call(c.admin.reports.getAgentMetrics({ accountId: c.A, type: 'agent', userId: c.ids.agent } as never)),
    shape: (b, c) => expect(b).toEqual([expect.objectContaining({ id: c.ids.agent, metric: expect.objectContaining({ open: expect.any(Number), unattended: expect.any(Number) }) })]),
  },
  // The Client API (public): a contact of the API inbox.
  {
    name: 'client.contacts.create (a blank identifier_hash)',
    run: (c) => call(pub(c).contacts.create({ inboxIdentifier: c.demo.svc.creds.apiInboxIdentifier, data: { name: 'Public SDK', email: 'public.sdk@example.com', identifier_hash: '' } })),
    shape: (b, c) => (c.made.sourceId = b.source_id as string),
  },
  {
    name: 'client.contacts.get',
    run: (c) => call(pub(c).contacts.get({ inboxIdentifier: c.demo.svc.creds.apiInboxIdentifier, contactIdentifier: (c.made.sourceId ?? c.fallback.sourceId) as string })),
    shape: (b, c) => expect(b.source_id).toBe(c.made.sourceId),
  },
  {
    name: 'client.contacts.update (with identifier and its hash)',
    run: (c) =>
      call(
        pub(c).contacts.update({
          inboxIdentifier: c.demo.svc.creds.apiInboxIdentifier,
          contactIdentifier: (c.made.sourceId ?? c.fallback.sourceId) as string,
          data: { name: 'Public SDK 2', identifier: 'sdk-user-1', identifier_hash: hmacHex(c.demo.svc.creds.apiInboxHmacToken, 'sdk-user-1') },
        }),
      ),
    shape: (b) => expect(b.name).toBe('Public SDK 2'),
  },
  {
    name: 'client.conversations.create (POST without a body)',
    run: (c) => call(pub(c).conversations.create({ inboxIdentifier: c.demo.svc.creds.apiInboxIdentifier, contactIdentifier: (c.made.sourceId ?? c.fallback.sourceId) as string })),
    shape: (b, c) => (c.made.publicConversation = idOf(b.id)),
  },
  {
    name: 'client.conversations.list',
    run: (c) => call(pub(c).conversations.list({ inboxIdentifier: c.demo.svc.creds.apiInboxIdentifier, contactIdentifier: (c.made.sourceId ?? c.fallback.sourceId) as string })),
    shape: (b, c) => expect(b.map((x: { id: number }) => x.id)).toContain(c.made.publicConversation),
  },
  {
    name: 'client.messages.create',
    run: (c) =>
      call(
        pub(c).messages.create({
          inboxIdentifier: c.demo.svc.creds.apiInboxIdentifier,
          contactIdentifier: (c.made.sourceId ?? c.fallback.sourceId) as string,
          conversationId: (c.made.publicConversation ?? c.fallback.publicConversation) as number,
          data: { content: 'Hi from a contact', echo_id: 'e1' } as never,
        }),
      ),
    shape: (b) => expect(b).toMatchObject({ content: 'Hi from a contact', message_type: 0 }),
  },
  {
    name: 'client.messages.list',
    run: (c) =>
      call(pub(c).messages.list({ inboxIdentifier: c.demo.svc.creds.apiInboxIdentifier, contactIdentifier: (c.made.sourceId ?? c.fallback.sourceId) as string, conversationId: (c.made.publicConversation ?? c.fallback.publicConversation) as number })),
    shape: (b) => expect(b.map((m: { content: string }) => m.content)).toContain('Hi from a contact'),
  },
  {
    name: 'client.messages.update (CSAT submitted_values)',
    run: async (c) => {
      // The agent sends the survey (an input_csat message) first, as Chatwoot does on resolve.
      const survey = await c.admin.messages.create({ accountId: c.A, conversationId: (c.made.publicConversation ?? c.fallback.publicConversation) as number, data: { content: 'Rate us', content_type: 'input_csat' } as never });
      return call(
        pub(c).messages.update({
          inboxIdentifier: c.demo.svc.creds.apiInboxIdentifier,
          contactIdentifier: (c.made.sourceId ?? c.fallback.sourceId) as string,
          conversationId: (c.made.publicConversation ?? c.fallback.publicConversation) as number,
          messageId: (survey as { id: number }).id,
          data: { submitted_values: { csat_survey_response: { rating: 5, feedback_message: 'Great' } } },
        }),
      );
    },
    shape: (b) => expect(b.content_attributes.submitted_values.csat_survey_response).toMatchObject({ rating: 5, feedback_message: 'Great' }),
  },
  // The Platform family, and its services the SDK also exposes at the top level.
  ...([
    ['platform.accounts', 'create'],
    ['platform.accounts', 'get'],
    ['platform.accounts', 'update'],
    ['platform.accounts', 'delete'],
    ['platform.accountUsers', 'list'],
    ['platform.accountUsers', 'create'],
    ['platform.accountUsers', 'delete'],
    ['platform.agentBots', 'list'],
    ['platform.agentBots', 'create'],
    ['platform.agentBots', 'get'],
    ['platform.agentBots', 'update'],
    ['platform.agentBots', 'delete'],
    ['platform.users', 'create'],
    ['platform.users', 'get'],
    ['platform.users', 'update'],
    ['platform.users', 'delete'],
    ['platform.users', 'getSSOUrl'],
    ['agentBots', 'list'],
    ['agentBots', 'create'],
    ['agentBots', 'get'],
    ['agentBots', 'update'],
    ['agentBots', 'delete'],
    ['users', 'create'],
    ['users', 'get'],
    ['users', 'update'],
    ['users', 'delete'],
    ['users', 'getSSOUrl'],
  ] as const).map(
    ([service, method]): Call<Ctx> => ({
      name: `${service}.${method}`,
      run: (c) => {
        const target = service.split('.').reduce<Record<string, unknown>>((o, k) => o[k] as Record<string, unknown>, c.admin as unknown as Record<string, unknown>);
        return call((target[method] as Method)({ accountId: c.A, id: 1, data: { name: 'x', email: 'x@example.com' } }));
      },
      left: platform,
    }),
  ),
];

runCatalogue('@figuro/chatwoot-sdk 1.1.17', setup, (c) => c.demo.close(), calls);

describe('the catalogue', () => {
  it('calls every method the SDK offers', () => {
    const client = new ChatwootClient({ config: { basePath: 'http://127.0.0.1:9', with_credentials: false, credentials: 'omit' } });
    const methods: string[] = [];
    const walk = (o: object, path: string) => {
      for (const [key, value] of Object.entries(o)) {
        if (!value || typeof value !== 'object' || key === 'chatwootAPI') continue;
        const proto = Object.getPrototypeOf(value) as object;
        const own = Object.getOwnPropertyNames(proto).filter((m) => m !== 'constructor' && typeof (value as Record<string, unknown>)[m] === 'function');
        if (proto === Object.prototype) walk(value as object, `${path}${key}.`);
        else for (const m of own) methods.push(`${path}${key}.${m}`);
      }
    };
    walk(client, '');
    const named = new Set(calls.map((c) => c.name.split(' ')[0]));
    expect(methods.filter((m) => !named.has(m))).toEqual([]);
    expect(methods.length).toBeGreaterThan(80);
  });
});
