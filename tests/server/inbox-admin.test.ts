// Inbox administration real clients call (issue 12, finding 5; chatwoot-compat §1.5, §1.15):
// inbox create/update/delete, an inbox's agent bot, inbox members, and the account's agent bots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, expectSpecErrorShape, pickConversation, userIdOf } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

const admin = (method: string, url: string, payload?: unknown) => svc.request({ method, url: `${A}${url}`, token: svc.creds.adminToken, ...(payload === undefined ? {} : { payload }) });
const agent = (method: string, url: string, payload?: unknown) => svc.request({ method, url: `${A}${url}`, token: svc.creds.agentToken, ...(payload === undefined ? {} : { payload }) });

describe('inboxes: create, update, delete (administrators)', () => {
  it('creates an API inbox from {name, channel: {type, webhook_url}}, wrapped or flat, answering the full inbox', async () => {
    const res = await admin('POST', '/inboxes', { name: 'Orders', channel: { type: 'api', webhook_url: 'https://hooks.example/orders' }, greeting_enabled: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Orders', channel_type: 'Channel::Api', medium: 'api', webhook_url: 'https://hooks.example/orders', greeting_enabled: true, inbox_identifier: expect.any(String) });
    const wrapped = await admin('POST', '/inboxes', { inbox: { name: 'Site', channel: { type: 'web_widget', website_url: 'https://shop.example', widget_color: '#ff0000' } } });
    expect(wrapped.body).toMatchObject({ channel_type: 'Channel::WebWidget', website_url: 'https://shop.example', widget_color: '#ff0000', website_token: expect.any(String) });
  });

  it('refuses an unknown channel type or a blank name (422), and agents (401)', async () => {
    const bad = await admin('POST', '/inboxes', { name: 'X', channel: { type: 'telegram' } });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ attributes: ['channel'] });
    expect((await admin('POST', '/inboxes', { name: '', channel: { type: 'api' } })).body).toMatchObject({ attributes: ['name'] });
    const denied = await agent('POST', '/inboxes', { name: 'X', channel: { type: 'api' } });
    expect(denied).toMatchObject({ status: 401, body: { error: 'You are not authorized to do this action' } });
  });

  it('updates name, settings and the channel; a trailing slash and PUT work too', async () => {
    const id = ((await admin('POST', '/inboxes', { name: 'Before', channel: { type: 'api' } })).body as { id: number }).id;
    const res = await admin('PATCH', `/inboxes/${id}`, { name: 'After', enable_auto_assignment: false, channel: { webhook_url: 'https://hooks.example/after', hmac_mandatory: true } });
    expect(res.body).toMatchObject({ name: 'After', enable_auto_assignment: false, webhook_url: 'https://hooks.example/after', hmac_mandatory: true });
    expect((await admin('PUT', `/inboxes/${id}/`, { greeting_message: 'Hi' })).body).toMatchObject({ name: 'After', greeting_message: 'Hi' });
    expect((await admin('GET', `/inboxes/${id}`)).body).toMatchObject({ name: 'After', greeting_message: 'Hi' });
  });

  it('deletes an inbox with its conversations; then it is 404; another account\'s inbox is 404', async () => {
    const inbox = 3;
    const conversation = pickConversation(svc, 'c.inbox_id = ?', inbox);
    const res = await admin('DELETE', `/inboxes/${inbox}`);
    expect(res).toMatchObject({ status: 200, body: { message: 'Your inbox deletion request will be processed in some time.' } });
    expect((await admin('GET', `/inboxes/${inbox}`)).status).toBe(404);
    expect((await admin('GET', `/conversations/${conversation}`)).status).toBe(404);
    expect((await admin('DELETE', `/inboxes/${inbox}`)).status).toBe(404);
    const foreign = (svc.db.prepare('SELECT id FROM inboxes WHERE account_id = ?').get(svc.creds.otherAccountId) as { id: number }).id;
    const other = await admin('PATCH', `/inboxes/${foreign}`, { name: 'x' });
    expect(other.status).toBe(404);
    expectSpecErrorShape(other.body);
  });
});

describe("an inbox's agent bot", () => {
  it('is set, read and removed; {} without one; a bot of another account is 404', async () => {
    const inbox = svc.creds.widgetInboxId;
    expect((await admin('GET', `/inboxes/${inbox}/agent_bot`)).body).toEqual({});
    expect((await admin('POST', `/inboxes/${inbox}/set_agent_bot`, { agent_bot: svc.creds.botId })).status).toBe(200);
    expect((await admin('GET', `/inboxes/${inbox}/agent_bot`)).body).toMatchObject({ agent_bot: { id: svc.creds.botId, name: 'Triage Bot', bot_type: 'webhook' } });
    expect((await admin('POST', `/inboxes/${inbox}/set_agent_bot`, {})).status).toBe(200);
    expect((await admin('GET', `/inboxes/${inbox}/agent_bot`)).body).toEqual({});
    const foreignBot = (await svc.request({ method: 'POST', url: `/api/v1/accounts/${svc.creds.otherAccountId}/agent_bots`, token: svc.creds.otherAccountAdminToken, payload: { name: 'Theirs' } })).body as { id: number };
    expect((await admin('POST', `/inboxes/${inbox}/set_agent_bot`, { agent_bot: foreignBot.id })).status).toBe(404);
    expect((await agent('POST', `/inboxes/${inbox}/set_agent_bot`, { agent_bot: svc.creds.botId })).status).toBe(401);
  });
});

describe('inbox members', () => {
  it('adds, sets and removes agents by inbox_id in the body; the agent then sees the inbox', async () => {
    const inbox = ((await admin('POST', '/inboxes', { name: 'Members', channel: { type: 'api' } })).body as { id: number }).id;
    const sam = userIdOf(svc, 'sam@acme.example');
    const jordan = userIdOf(svc, 'jordan@acme.example');
    expect((await agent('GET', `/inboxes/${inbox}`)).status).toBe(401);
    const added = await admin('POST', '/inbox_members', { inbox_id: inbox, user_ids: [sam] });
    expect(added.body).toMatchObject({ payload: [{ id: sam, role: 'agent' }] });
    expect((await agent('GET', `/inboxes/${inbox}`)).status).toBe(200);
    const set = await admin('PATCH', '/inbox_members', { inbox_id: String(inbox), user_ids: [jordan] });
    expect((set.body as { payload: { id: number }[] }).payload.map((a) => a.id)).toEqual([jordan]);
    expect(((await admin('GET', `/inbox_members/${inbox}`)).body as { payload: { id: number }[] }).payload.map((a) => a.id)).toEqual([jordan]);
    expect((await admin('DELETE', '/inbox_members', { inbox_id: inbox, user_ids: [jordan] })).status).toBe(200);
    expect((await admin('GET', `/inbox_members/${inbox}`)).body).toEqual({ payload: [] });
  });

  it("another account's user is 401 Invalid User IDs, an unknown inbox 404, agents 401, a missing list 422", async () => {
    const grace = userIdOf(svc, 'grace@globex.example');
    expect(await admin('POST', '/inbox_members', { inbox_id: svc.creds.apiInboxId, user_ids: [grace] })).toMatchObject({ status: 401, body: { error: 'Invalid User IDs' } });
    expect((await admin('POST', '/inbox_members', { inbox_id: 999999, user_ids: [] })).status).toBe(404);
    expect((await agent('POST', '/inbox_members', { inbox_id: svc.creds.apiInboxId, user_ids: [] })).status).toBe(401);
    const missing = await admin('POST', '/inbox_members', { inbox_id: svc.creds.apiInboxId });
    expect(missing).toMatchObject({ status: 422, body: { attributes: ['user_ids'] } });
  });
});

describe('agent bots of the account', () => {
  it('administrators create one whose token reaches the bot endpoints; update; delete revokes the token', async () => {
    const created = await admin('POST', '/agent_bots', { name: 'Router', outgoing_url: 'https://bot.example/in' });
    expect(created.body).toMatchObject({ name: 'Router', outgoing_url: 'https://bot.example/in', account_id: svc.creds.accountId, access_token: expect.any(String), system_bot: false });
    const { id, access_token } = created.body as { id: number; access_token: string };
    const conversation = pickConversation(svc, '1 = 1');
    const asBot = () => svc.request({ method: 'POST', url: `${A}/conversations/${conversation}/toggle_priority`, token: access_token, payload: { priority: 'high' } });
    expect((await asBot()).status).toBe(200);
    expect((await admin('GET', '/agent_bots')).body).toEqual(expect.arrayContaining([expect.objectContaining({ id, name: 'Router' })]));
    expect((await admin('PATCH', `/agent_bots/${id}`, { agent_bot: { name: 'Router 2', outgoing_url: '' } })).body).toMatchObject({ name: 'Router 2', outgoing_url: null });
    expect((await admin('GET', `/agent_bots/${id}`)).body).toMatchObject({ name: 'Router 2' });
    expect((await admin('DELETE', `/agent_bots/${id}`)).status).toBe(200);
    expect((await asBot()).status).toBe(401);
    expect((await admin('GET', `/agent_bots/${id}`)).status).toBe(404);
  });

  it('agents get 401; another account\'s bot is 404; an http(s) outgoing_url only', async () => {
    expect((await agent('GET', '/agent_bots')).status).toBe(401);
    const theirs = (await svc.request({ method: 'POST', url: `/api/v1/accounts/${svc.creds.otherAccountId}/agent_bots`, token: svc.creds.otherAccountAdminToken, payload: { name: 'Other' } })).body as { id: number };
    expect((await admin('GET', `/agent_bots/${theirs.id}`)).status).toBe(404);
    expect((await admin('POST', '/agent_bots', { name: 'Bad', outgoing_url: 'ftp://x' })).body).toMatchObject({ attributes: ['outgoing_url'] });
  });
});
