// @devlikeapro/n8n-nodes-chatwoot (an n8n community node for Chatwoot, generated from Chatwoot's
// OpenAPI description) against the demo service over real HTTP: every operation the node offers,
// run through n8n's own routing engine (support/n8n-node.ts). Each operation gets the fields a user
// fills in for it; every other field keeps the node's default, which n8n sends too (so
// `inbox_id=0`, `team_id=0`, `identifier_hash: ""` and the like reach the service as they would
// from a real workflow).
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import type { Call } from './support/catalogue';
import { runCatalogue } from './support/catalogue';
import { hmacHex } from '../support/public-api';
import type { LiveDemo } from './support/live-demo';
import { liveDemo } from './support/live-demo';
import type { CredentialTypeLike, NodeTypeLike } from './support/n8n-node';
import { operationsOf, runNodeOperation } from './support/n8n-node';

// Loaded as n8n loads a community node: its CommonJS build (its type declarations pull in
// n8n-workflow's, see support/n8n-node.ts).
const load = createRequire(import.meta.url);
const { ChatWoot } = load('@devlikeapro/n8n-nodes-chatwoot/dist/nodes/ChatWoot/ChatWoot.node.js') as { ChatWoot: new () => NodeTypeLike };
const { ChatWootApi } = load('@devlikeapro/n8n-nodes-chatwoot/dist/credentials/ChatWootApi.credentials.js') as { ChatWootApi: new () => CredentialTypeLike };
const node = new ChatWoot();
const credential = new ChatWootApi();

interface Ctx {
  demo: LiveDemo;
  A: number;
  token: string;
  made: Record<string, number | string>;
  fallback: Record<string, number | string>;
  ids: { conversation: number; contact: number; agent: number; team: number; bot: number };
}

async function setup(): Promise<Ctx> {
  const demo = await liveDemo();
  const { svc } = demo;
  const A = svc.creds.accountId;
  const one = (sql: string, ...args: unknown[]) => (svc.db.prepare(sql).get(...args) as { id: number }).id;
  // Records the later operations also work on when the one that makes theirs failed, so each
  // operation is measured on its own.
  const admin = (method: string, url: string, payload?: unknown) => svc.request({ method, url, token: svc.creds.adminToken, ...(payload === undefined ? {} : { payload }) });
  const hook = await admin('POST', `/api/v1/accounts/${A}/webhooks`, { webhook: { url: 'https://hooks.example/n8n-setup', subscriptions: ['message_created'] } });
  const pub = await svc.request({ method: 'POST', url: `/public/api/v1/inboxes/${svc.creds.apiInboxIdentifier}/contacts`, payload: { name: 'Setup contact' } });
  const sourceId = (pub.body as { source_id: string }).source_id;
  const conv = await svc.request({ method: 'POST', url: `/public/api/v1/inboxes/${svc.creds.apiInboxIdentifier}/contacts/${sourceId}/conversations`, payload: {} });
  const team = await admin('POST', `/api/v1/accounts/${A}/teams`, { name: 'n8n setup team' });
  return {
    demo,
    A,
    token: svc.creds.adminToken,
    made: {},
    fallback: {
      contact: one('SELECT id FROM contacts WHERE account_id = ? ORDER BY id DESC LIMIT 1', A),
      inbox: 3,
      webhook: (hook.body as { payload: { webhook: { id: number } } }).payload.webhook.id,
      sourceId,
      publicConversation: (conv.body as { id: number }).id,
      team: (team.body as { id: number }).id,
      message: one('SELECT m.id FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.account_id = ? AND c.inbox_id = 1 ORDER BY m.id DESC LIMIT 1', A),
    },
    ids: {
      conversation: one('SELECT display_id AS id FROM conversations WHERE account_id = ? AND inbox_id = 1 ORDER BY id LIMIT 1', A),
      contact: one('SELECT id FROM contacts WHERE account_id = ? AND email IS NOT NULL ORDER BY id LIMIT 1', A),
      agent: one("SELECT id FROM users WHERE email = 'jordan@acme.example'"),
      team: one('SELECT id FROM teams WHERE account_id = ? ORDER BY id LIMIT 1', A),
      bot: svc.creds.botId,
    },
  };
}

const got = (c: Ctx, key: string) => c.made[key] ?? c.fallback[key];
const idOf = (v: unknown) => {
  expect(typeof v).toBe('number');
  return v as number;
};

/** One operation of the node, as a catalogue call. */
function op(resource: string, operation: string, params: (c: Ctx) => Record<string, unknown>, rest: Omit<Call<Ctx>, 'name' | 'run'> = {}): Call<Ctx> {
  return {
    name: `${resource} › ${operation}`,
    async run(c) {
      const res = await runNodeOperation(node, credential, { url: c.demo.baseUrl, accessToken: c.token }, { resource, operation, ...params(c) });
      return { status: res.status, body: res.body, sent: `${res.sent.method} ${res.sent.url} ${res.sent.body === undefined ? '' : JSON.stringify(res.sent.body).slice(0, 300)}` };
    },
    ...rest,
  };
}

const platform = { reason: 'the Platform family: the spec does not show it and this service does not offer it', status: 404 };
const notInScope = (what: string) => ({ reason: `${what}: not in the spec, and the compat reference names the route only; this service does not offer it`, status: 404 });
const inbox = (c: Ctx) => c.demo.svc.creds.apiInboxIdentifier;
const now = (c: Ctx) => Math.floor(c.demo.svc.clock() / 1000);

const calls: Call<Ctx>[] = [
  // The Client API (public).
  op('Inbox API', 'Get Details Of A Inbox', (c) => ({ inbox_identifier: inbox(c) }), { shape: (b) => expect(b).toMatchObject({ identifier: expect.any(String), name: expect.any(String) }) }),
  op('Contacts API', 'Create A Contact', (c) => ({ inbox_identifier: inbox(c), name: 'n8n contact', email: 'n8n.public@example.com' }), {
    shape: (b, c) => (c.made.sourceId = b.source_id as string),
  }),
  op('Contacts API', 'Get Details Of A Contact', (c) => ({ inbox_identifier: inbox(c), contact_identifier: got(c, 'sourceId') }), { shape: (b) => expect(b.source_id).toEqual(expect.any(String)) }),
  op(
    'Contacts API',
    'Update A Contact',
    (c) => ({ inbox_identifier: inbox(c), contact_identifier: got(c, 'sourceId'), name: 'n8n contact 2', identifier: 'n8n-1', identifier_hash: hmacHex(c.demo.svc.creds.apiInboxHmacToken, 'n8n-1') }),
    { shape: (b) => expect(b.name).toBe('n8n contact 2') },
  ),
  op('Conversations API', 'Create A Conversation', (c) => ({ inbox_identifier: inbox(c), contact_identifier: got(c, 'sourceId') }), { shape: (b, c) => (c.made.publicConversation = idOf(b.id)) }),
  op('Conversations API', 'List All Contact Conversations', (c) => ({ inbox_identifier: inbox(c), contact_identifier: got(c, 'sourceId') }), { shape: (b) => expect(b.length).toBeGreaterThan(0) }),
  op('Messages API', 'Create A Message', (c) => ({ inbox_identifier: inbox(c), contact_identifier: got(c, 'sourceId'), conversation_id: got(c, 'publicConversation'), content: 'Hi from n8n' }), {
    shape: (b) => expect(b).toMatchObject({ content: 'Hi from n8n', message_type: 0 }),
  }),
  op('Messages API', 'List All Converation Messages', (c) => ({ inbox_identifier: inbox(c), contact_identifier: got(c, 'sourceId'), conversation_id: got(c, 'publicConversation') }), {
    shape: (b) => expect(b).toEqual(expect.any(Array)),
  }),
  {
    ...op('Messages API', 'Update A Message', (c) => ({
      inbox_identifier: inbox(c),
      contact_identifier: got(c, 'sourceId'),
      conversation_id: got(c, 'publicConversation'),
      message_id: c.made.survey,
      submitted_values: JSON.stringify({ csat_survey_response: { rating: 4, feedback_message: 'ok' } }),
    })),
    async run(c) {
      // The agent sends the survey first (an input_csat message).
      const conv = got(c, 'publicConversation');
      const survey = await c.demo.svc.request({ method: 'POST', url: `/api/v1/accounts/${c.A}/conversations/${conv}/messages`, token: c.token, payload: { content: 'Rate us', content_type: 'input_csat' } });
      c.made.survey = (survey.body as { id: number }).id;
      return op('Messages API', 'Update A Message', (cc) => ({
        inbox_identifier: inbox(cc),
        contact_identifier: got(cc, 'sourceId'),
        conversation_id: conv,
        message_id: cc.made.survey,
        submitted_values: JSON.stringify({ csat_survey_response: { rating: 4, feedback_message: 'ok' } }),
      })).run(c);
    },
    shape: (b) => expect(b.content_attributes.submitted_values.csat_survey_response.rating).toBe(4),
  },
  op('CSAT Survey Page', 'Get Csat Survey Page', () => ({ conversation_uuid: 'x' }), { left: { reason: "Chatwoot's survey web page, not an API: this service serves no survey pages", status: 404 } }),
  // Application API.
  op('Profile', 'Fetch Profile', () => ({}), { shape: (b) => expect(b.accounts).toEqual(expect.any(Array)) }),
  op('Account Agent Bots', 'List All Account Agent Bots', (c) => ({ account_id: c.A }), { shape: (b) => expect(b).toEqual(expect.any(Array)) }),
  op('Account Agent Bots', 'Create An Account Agent Bot', (c) => ({ account_id: c.A, name: 'n8n bot', description: 'made in n8n', outgoing_url: 'https://bot.example/n8n' }), {
    shape: (b, c) => (c.made.bot = idOf(b.id)),
  }),
  op('Account Agent Bots', 'Get Details Of A Single Account Agent Bot', (c) => ({ account_id: c.A, id: got(c, 'bot') ?? c.ids.bot }), { shape: (b) => expect(b.id).toEqual(expect.any(Number)) }),
  op('Account Agent Bots', 'Update An Account Agent Bot', (c) => ({ account_id: c.A, id: got(c, 'bot') ?? c.ids.bot, name: 'n8n bot 2' }), { shape: (b) => expect(b.name).toBe('n8n bot 2') }),
  op('Account Agent Bots', 'Delete An Account Agent Bot', (c) => ({ account_id: c.A, id: got(c, 'bot') ?? 999 })),
  op('Agents', 'Get Account Agents', (c) => ({ account_id: c.A }), { shape: (b) => expect(b.length).toBeGreaterThan(0) }),
  op('Agents', 'Add New Agent To Account', (c) => ({ account_id: c.A, name: 'n8n agent', email: 'n8n.agent@acme.example', availability_status: 'offline' }), { shape: (b, c) => (c.made.agent = idOf(b.id)) }),
  op('Agents', 'Update Agent In Account', (c) => ({ account_id: c.A, id: got(c, 'agent') ?? c.ids.agent, role: 'administrator', availability: 'busy' }), { shape: (b) => expect(b.role).toBe('administrator') }),
  op('Agents', 'Delete Agent From Account', (c) => ({ account_id: c.A, id: got(c, 'agent') ?? 999 })),
  op('Canned Responses', 'Get Account Canned Response', (c) => ({ account_id: c.A }), { shape: (b) => expect(b).toEqual(expect.any(Array)) }),
  op('Canned Responses', 'Add New Canned Response To Account', (c) => ({ account_id: c.A, short_code: 'n8n', content: 'From n8n' }), { shape: (b, c) => (c.made.canned = idOf(b.id)) }),
  op('Canned Response', 'Update Canned Response In Account', (c) => ({ account_id: c.A, id: got(c, 'canned') ?? 999, short_code: 'n8n', content: 'Changed in n8n' }), {
    shape: (b) => expect(b.content).toBe('Changed in n8n'),
  }),
  op('Canned Responses', 'Delete Canned Response From Account', (c) => ({ account_id: c.A, id: got(c, 'canned') ?? 999 })),
  op(
    'Custom Attributes',
    'Add New Custom Attribute To Account',
    (c) => ({ account_id: c.A, attribute_display_name: 'Tier', attribute_display_type: 0, attribute_key: 'tier', attribute_values: '[]', attribute_model: 1, attribute_description: 'Customer tier' }),
    { shape: (b, c) => ((c.made.attribute = idOf(b.id)), expect(b).toMatchObject({ attribute_model: 'contact_attribute', attribute_display_type: 'text' })) },
  ),
  op('Custom Attributes', 'Get Account Custom Attribute', (c) => ({ account_id: c.A, attribute_model: '1' }), { shape: (b) => expect(b.map((a: { attribute_key: string }) => a.attribute_key)).toContain('tier') }),
  op('Custom Attributes', 'Get Details Of A Single Custom Attribute', (c) => ({ account_id: c.A, id: got(c, 'attribute') ?? 999 }), { shape: (b) => expect(b.attribute_key).toBe('tier') }),
  op(
    'Custom Attributes',
    'Update Custom Attribute In Account',
    (c) => ({ account_id: c.A, id: got(c, 'attribute') ?? 999, attribute_display_name: 'Customer tier', attribute_key: 'tier', attribute_values: '[]', attribute_model: 1 }),
    { shape: (b) => expect(b.attribute_display_name).toBe('Customer tier') },
  ),
  op('Custom Attributes', 'Delete Custom Attribute From Account', (c) => ({ account_id: c.A, id: got(c, 'attribute') ?? 999 })),
  op('Contacts', 'Contact List', (c) => ({ account_id: c.A }), { shape: (b) => expect(b.payload.length).toBeGreaterThan(0) }),
  op('Contacts', 'Contact Create', (c) => ({ account_id: c.A, inbox_id: 2, name: 'n8n person', email: 'n8n.person@example.com' }), { shape: (b, c) => (c.made.contact = idOf(b.payload.contact.id)) }),
  op('Contacts', 'Contact Details', (c) => ({ account_id: c.A, id: got(c, 'contact') }), { shape: (b) => expect(b.payload.id).toEqual(expect.any(Number)) }),
  op('Contacts', 'Contact Update', (c) => ({ account_id: c.A, id: got(c, 'contact'), name: 'n8n person 2', email: 'n8n.person@example.com' }), { shape: (b) => expect(b.payload.name).toBe('n8n person 2') }),
  op('Contacts', 'Contact Conversations', (c) => ({ account_id: c.A, id: c.ids.contact }), { shape: (b) => expect(b.payload).toEqual(expect.any(Array)) }),
  op('Contacts', 'Contact Search', (c) => ({ account_id: c.A, q: 'n8n' }), { shape: (b) => expect(b.payload).toEqual(expect.any(Array)) }),
  op(
    'Contacts',
    'Contact Filter',
    // The node's default page is 0; pages start at 1 (spec: Pagination, 0 is 400 here), so the user sets 1.
    (c) => ({ account_id: c.A, page: 1, payload: JSON.stringify([{ attribute_key: 'email', filter_operator: 'contains', values: ['n8n.person'], query_operator: null }]) }),
    { shape: (b) => expect(b.payload.map((x: { email: string }) => x.email)).toEqual(['n8n.person@example.com']) },
  ),
  op('Contact', 'Contact Inbox Creation', (c) => ({ account_id: c.A, id: got(c, 'contact'), inbox_id: 3 }), { shape: (b) => expect(b.inbox.id).toBe(3) }),
  op('Contact', 'Contactable Inboxes Get', (c) => ({ account_id: c.A, id: got(c, 'contact') }), { shape: (b) => expect(b.payload.length).toBeGreaterThan(0) }),
  op('Contacts', 'Contact Delete', (c) => ({ account_id: c.A, id: got(c, 'contact') })),
  op('Conversations', 'Conversation List Meta', (c) => ({ account_id: c.A }), { shape: (b) => expect(b.meta.all_count).toEqual(expect.any(Number)) }),
  op('Conversations', 'Conversation List', (c) => ({ account_id: c.A, labels: '' }), { shape: (b) => expect(b.data.payload.length).toBeGreaterThan(0) }),
  op('Conversations', 'New Conversation', (c) => ({ account_id: c.A, inbox_id: '2', contact_id: String(c.ids.contact), message: JSON.stringify({ content: 'Opened from n8n' }), custom_attributes: '{}' }), {
    shape: (b, c) => (c.made.conversation = idOf(b.id)),
  }),
  op(
    'Conversations',
    'Conversation Filter',
    (c) => ({ account_id: c.A, page: 1, payload: JSON.stringify([{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'], query_operator: null }]) }),
    { shape: (b) => expect(b.payload.length).toBeGreaterThan(0) },
  ),
  op('Conversations', 'Get Details Of A Conversation', (c) => ({ account_id: c.A, conversation_id: c.ids.conversation }), { shape: (b, c) => expect(b.id).toBe(c.ids.conversation) }),
  op('Conversations', 'Toggle Status Of A Conversation', (c) => ({ account_id: c.A, conversation_id: c.ids.conversation, status: 'pending' }), {
    shape: (b) => expect(b.payload.current_status).toBe('pending'),
  }),
  op('Conversations', 'Toggle Priority Of A Conversation', (c) => ({ account_id: c.A, conversation_id: c.ids.conversation, priority: 'high' })),
  op('Conversation Assignment', 'Assign A Conversation', (c) => ({ account_id: c.A, conversation_id: c.ids.conversation, assignee_id: c.ids.agent }), { shape: (b, c) => expect(b.id).toBe(c.ids.agent) }),
  op('Conversation Labels', 'List All Labels Of A Conversation', (c) => ({ account_id: c.A, conversation_id: c.ids.conversation }), { shape: (b) => expect(b.payload).toEqual(expect.any(Array)) }),
  op('Conversation Labels', 'Conversation Add Labels', (c) => ({ account_id: c.A, conversation_id: c.ids.conversation, labels: '["vip"]' }), { shape: (b) => expect(b.payload).toEqual(['vip']) }),
  op('Inboxes', 'List All Inboxes', (c) => ({ account_id: c.A }), { shape: (b) => expect(b.payload.length).toBeGreaterThan(0) }),
  op('Inboxes', 'Get Inbox', (c) => ({ account_id: c.A, id: 2 }), { shape: (b) => expect(b.id).toBe(2) }),
  op('Inboxes', 'Inbox Creation', (c) => ({ account_id: c.A, name: 'n8n inbox', channel: JSON.stringify({ type: 'api', webhook_url: 'https://hooks.example/n8n-inbox' }) }), {
    shape: (b, c) => ((c.made.inbox = idOf(b.id)), expect(b).toMatchObject({ channel_type: 'Channel::Api', webhook_url: 'https://hooks.example/n8n-inbox' })),
  }),
  op('Inboxes', 'Update Inbox', (c) => ({ account_id: c.A, id: got(c, 'inbox'), name: 'n8n inbox 2', enable_auto_assignment: false }), { shape: (b) => expect(b.name).toBe('n8n inbox 2') }),
  op('Inboxes', 'Update Agent Bot', (c) => ({ account_id: c.A, id: got(c, 'inbox'), agent_bot: c.ids.bot })),
  op('Inboxes', 'Get Inbox Agent Bot', (c) => ({ account_id: c.A, id: got(c, 'inbox') }), { shape: (b, c) => expect(b.agent_bot.id).toBe(c.ids.bot) }),
  op('Inboxes', 'Add New Agent To Inbox', (c) => ({ account_id: c.A, inbox_id: String(got(c, 'inbox')), user_ids: `[${c.ids.agent}, 2]` }), { shape: (b) => expect(b.payload).toHaveLength(2) }),
  op('Inboxes', 'Update Agents In Inbox', (c) => ({ account_id: c.A, inbox_id: String(got(c, 'inbox')), user_ids: `[${c.ids.agent}]` }), { shape: (b) => expect(b.payload).toHaveLength(1) }),
  op('Inboxes', 'Get Inbox Members', (c) => ({ account_id: c.A, inbox_id: got(c, 'inbox') }), { shape: (b, c) => expect(b.payload.map((a: { id: number }) => a.id)).toEqual([c.ids.agent]) }),
  op('Inboxes', 'Delete Agent In Inbox', (c) => ({ account_id: c.A, inbox_id: String(got(c, 'inbox')), user_ids: `[${c.ids.agent}]` })),
  op('Messages', 'List All Messages', (c) => ({ account_id: c.A, conversation_id: c.ids.conversation }), { shape: (b) => expect(b.payload.length).toBeGreaterThan(0) }),
  op('Messages', 'Create A New Message In A Conversation', (c) => ({ account_id: c.A, conversation_id: c.ids.conversation, content: 'A note from n8n' }), {
    shape: (b, c) => ((c.made.message = idOf(b.id)), expect(b).toMatchObject({ content: 'A note from n8n', private: true })),
  }),
  op('Messages', 'Delete A Message', (c) => ({ account_id: c.A, conversation_id: c.ids.conversation, message_id: got(c, 'message') }), { shape: (b) => expect(b.content_attributes.deleted).toBe(true) }),
  op('Integrations', 'Get Details Of All Integrations', (c) => ({ account_id: c.A }), { shape: (b) => expect(b.payload).toEqual(expect.any(Array)) }),
  op('Integrations', 'Create An Integration Hook', (c) => ({ account_id: c.A, app_id: 'webhook' }), { left: notInScope('integration hooks') }),
  op('Integrations', 'Update An Integrations Hook', (c) => ({ account_id: c.A, hook_id: 1 }), { left: notInScope('integration hooks') }),
  op('Integrations', 'Delete An Integration Hook', (c) => ({ account_id: c.A, hook_id: 1 }), { left: notInScope('integration hooks') }),
  op('Teams', 'List All Teams', (c) => ({ account_id: c.A }), { shape: (b) => expect(b.length).toBeGreaterThan(0) }),
  op('Teams', 'Create A Team', (c) => ({ account_id: c.A, name: 'n8n team' }), { shape: (b, c) => (c.made.team = idOf(b.id)) }),
  op('Teams', 'Get Details Of A Single Team', (c) => ({ account_id: c.A, team_id: got(c, 'team') }), { shape: (b) => expect(b.id).toEqual(expect.any(Number)) }),
  op('Teams', 'Update A Team', (c) => ({ account_id: c.A, team_id: got(c, 'team'), name: 'n8n team 2', description: 'from n8n' }), { shape: (b) => expect(b.description).toBe('from n8n') }),
  op('Teams', 'Add New Agent To Team', (c) => ({ account_id: c.A, team_id: got(c, 'team'), user_ids: `[${c.ids.agent}]` }), { shape: (b) => expect(b).toEqual(expect.any(Array)) }),
  op('Teams', 'Update Agents In Team', (c) => ({ account_id: c.A, team_id: got(c, 'team'), user_ids: `[${c.ids.agent}, 2]` }), { shape: (b) => expect(b).toHaveLength(2) }),
  op('Teams', 'Get Team Members', (c) => ({ account_id: c.A, team_id: got(c, 'team') }), { shape: (b) => expect(b).toHaveLength(2) }),
  op('Teams', 'Delete Agent In Team', (c) => ({ account_id: c.A, team_id: got(c, 'team'), user_ids: '[2]' })),
  op('Teams', 'Delete A Team', (c) => ({ account_id: c.A, team_id: got(c, 'team') })),
  op('Custom Filters', 'List All Filters', (c) => ({ account_id: c.A }), { shape: (b) => expect(b).toEqual(expect.any(Array)) }),
  op('Custom Filters', 'Create A Custom Filter', (c) => ({ account_id: c.A, name: 'n8n filter', query: '{"payload":[]}' }), { shape: (b, c) => (c.made.filter = idOf(b.id)) }),
  op('Custom Filters', 'Get Details Of A Single Custom Filter', (c) => ({ account_id: c.A, custom_filter_id: got(c, 'filter') ?? 999 }), { shape: (b) => expect(b.name).toBe('n8n filter') }),
  op('Custom Filters', 'Update A Custom Filter', (c) => ({ account_id: c.A, custom_filter_id: got(c, 'filter') ?? 999, name: 'n8n filter 2', query: '{"payload":[]}' }), {
    shape: (b) => expect(b.name).toBe('n8n filter 2'),
  }),
  op('Custom Filters', 'Delete A Custom Filter', (c) => ({ account_id: c.A, custom_filter_id: got(c, 'filter') ?? 999 })),
  op('Webhooks', 'List All Webhooks', (c) => ({ account_id: c.A }), { shape: (b) => expect(b.payload.webhooks).toEqual(expect.any(Array)) }),
  op('Webhooks', 'Create A Webhook', (c) => ({ account_id: c.A, url: 'https://hooks.example/n8n', subscriptions: '["message_created"]' }), { shape: (b, c) => (c.made.webhook = idOf(b.payload.webhook.id)) }),
  op('Webhooks', 'Update A Webhook', (c) => ({ account_id: c.A, webhook_id: got(c, 'webhook'), url: 'https://hooks.example/n8n2', subscriptions: '["conversation_created"]' }), {
    shape: (b) => expect(b.payload.webhook.subscriptions).toEqual(['conversation_created']),
  }),
  op('Webhooks', 'Delete A Webhook', (c) => ({ account_id: c.A, webhook_id: got(c, 'webhook') })),
  op('Reports', 'List All Conversation Statistics', (c) => ({ account_id: c.A, since: String(now(c) - 7 * 86400), until: String(now(c)) }), { shape: (b) => expect(b).toEqual(expect.any(Array)) }),
  op('Reports', 'List All Conversation Statistics Summary', (c) => ({ account_id: c.A, since: String(now(c) - 7 * 86400), until: String(now(c)) }), {
    shape: (b) => expect(b.conversations_count).toEqual(expect.any(Number)),
  }),
  op('Reports', 'Get Account Conversation Metrics', (c) => ({ account_id: c.A }), { shape: (b) => expect(b.open).toEqual(expect.any(Number)) }),
  op('Reports', 'Get Agent Conversation Metrics', (c) => ({ account_id: c.A, user_id: String(c.ids.agent) }), { shape: (b, c) => expect(b[0].id).toBe(c.ids.agent) }),
  ...['Get Account Automation Rule', 'Add New Automation Rule To Account', 'Get Details Of A Single Automation Rule', 'Update Automation Rule In Account', 'Delete Automation Rule From Account'].map((o) =>
    op('Automation Rule', o, (c) => ({ account_id: c.A, id: 1 }), { left: notInScope('automation rules') }),
  ),
  ...['Get Portal', 'Add New Portal To Account', 'Update New Portal To Account', 'Add New Category To Account', 'Add New Article To Account'].map((o) =>
    op('Help Center', o, (c) => ({ account_id: c.A, portal_id: 1 }), { left: notInScope('the help center') }),
  ),
  ...operationsOf(node)
    .filter((o) => o.url.startsWith('=/platform/'))
    .map((o) => op(o.resource, o.operation, (c) => ({ account_id: c.A, id: 1 }), { left: platform })),
];

runCatalogue('@devlikeapro/n8n-nodes-chatwoot 1.0.2', setup, (c) => c.demo.close(), calls);

describe('the catalogue', () => {
  it('runs every operation the node offers', () => {
    const named = new Set(calls.map((c) => c.name));
    const all = operationsOf(node).map((o) => `${o.resource} › ${o.operation}`);
    expect(all.filter((n) => !named.has(n))).toEqual([]);
    expect(all.length).toBe(calls.length);
  });
});
