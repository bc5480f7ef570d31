// Agent-bot tokens (spec: Authentication → Agent bot; chatwoot-compat §0 BOT_ACCESSIBLE_ENDPOINTS):
// the same header, a limited set of endpoints, 401 for everything else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachAgentBot, createAgentBot } from '../../server/store/provision';
import { demoService, DEMO_NOW } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, conversationRow, pickConversation, recordEvents } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  await svc.app.ready();
  A = accountPath(svc);
});
afterAll(() => svc.close());

const C = '/api/v1/accounts/:account_id/conversations';
/** chatwoot-compat §0: conversations toggle_status/toggle_priority/create/update/custom_attributes, messages create, assignments create. */
const BOT_ROUTES = [
  `POST ${C}/:conversation_id/toggle_status`,
  `POST ${C}/:conversation_id/toggle_priority`,
  `POST ${C}`,
  `PATCH ${C}/:conversation_id`,
  `PUT ${C}/:conversation_id`,
  `POST ${C}/:conversation_id/custom_attributes`,
  `POST ${C}/:conversation_id/messages`,
  `POST ${C}/:conversation_id/assignments`,
];
const bot = (method: string, path: string, payload?: unknown, token = svc.creds.botToken) => svc.request({ method, url: `${A}${path}`, token, ...(payload === undefined ? {} : { payload }) });

describe('agent-bot tokens', () => {
  it('reach the bot endpoints, acting as the bot (sender and performer)', async () => {
    const id = pickConversation(svc, "c.status = 'open'");
    const rec = recordEvents(svc);
    const msg = await bot('POST', `/conversations/${id}/messages`, { content: 'Hi, I am the triage bot.' });
    expect(msg.status).toBe(200);
    expect(msg.body).toMatchObject({ message_type: 1, sender: { id: svc.creds.botId, type: 'agent_bot', name: 'Triage Bot' } });
    expect(rec.events.find((e) => e.name === 'message.created')).toMatchObject({ performer: { type: 'agent_bot', id: svc.creds.botId } });
    expect((await bot('POST', `/conversations/${id}/toggle_priority`, { priority: 'low' })).status).toBe(200);
    expect((await bot('PATCH', `/conversations/${id}`, { priority: 'medium' })).body).toMatchObject({ priority: 'medium' });
    expect((await bot('POST', `/conversations/${id}/custom_attributes`, { custom_attributes: { intent: 'billing' } })).body).toEqual({ custom_attributes: { intent: 'billing' } });
    expect((await bot('POST', `/conversations/${id}/assignments`, { assignee_id: 2 })).body).toMatchObject({ id: 2 });
    expect((await bot('POST', `/conversations/${id}/toggle_status`, { status: 'resolved' })).body).toMatchObject({ payload: { success: true, current_status: 'resolved' } });
    expect(svc.db.prepare('SELECT content FROM messages WHERE conversation_id = ? AND message_type = 2 ORDER BY id DESC LIMIT 1').get(conversationRow(svc, id).id)).toEqual({ content: 'Conversation was marked resolved by Triage Bot' });
    const created = await bot('POST', '/conversations', { inbox_id: svc.creds.apiInboxId, contact_id: 1, message: { content: 'Opening for you' } });
    expect(created.status).toBe(200);
    rec.off();
  });

  it('hand a pending conversation over with toggle_status open (success null), as the reference bot handoff', async () => {
    const id = pickConversation(svc, "c.status = 'pending'");
    const res = await bot('POST', `/conversations/${id}/toggle_status`, { status: 'open' });
    expect(res.body).toEqual({ payload: { success: null, conversation_id: id, current_status: 'open', snoozed_until: null } });
    // A bot does not self-assign.
    expect(conversationRow(svc, id).assignee_agent_bot_id).toBeNull();
  });

  it('get 401 "not authorized for bots" on every other Application route', async () => {
    const others = svc.routes.filter((r) => r.method !== 'HEAD' && /^\/api\/(v1\/accounts|v2\/accounts|v1\/profile)/.test(r.url) && !BOT_ROUTES.includes(`${r.method} ${r.url}`));
    expect(others.length).toBeGreaterThan(80);
    const wrong: string[] = [];
    for (const r of others) {
      const url = r.url.replace(':account_id', String(svc.creds.accountId)).replace(/:[a-z_]+/g, '1');
      const res = await svc.request({ method: r.method, url, token: svc.creds.botToken, ...(r.method === 'GET' ? {} : { payload: {} }) });
      if (res.status !== 401 || (res.body as { error?: string }).error !== 'Access to this endpoint is not authorized for bots') wrong.push(`${r.method} ${r.url} → ${res.status} ${res.text.slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
    expect(BOT_ROUTES.every((r) => svc.routes.some((x) => `${x.method} ${x.url}` === r))).toBe(true);
  });

  it('another account is 404; a bot attached only to one inbox sees only that inbox (401 elsewhere)', async () => {
    expect((await svc.request({ method: 'POST', url: `/api/v1/accounts/${svc.creds.otherAccountId}/conversations/1/toggle_status`, token: svc.creds.botToken, payload: {} })).status).toBe(404);
    const roaming = createAgentBot(svc.db, null, { name: 'Roaming Bot' }, DEMO_NOW);
    attachAgentBot(svc.db, svc.creds.widgetInboxId, roaming.id, 'inactive');
    const mine = pickConversation(svc, 'c.inbox_id = ?', svc.creds.widgetInboxId);
    const elsewhere = pickConversation(svc, 'c.inbox_id != ?', svc.creds.widgetInboxId);
    expect((await bot('POST', `/conversations/${mine}/toggle_priority`, { priority: 'high' }, roaming.token)).status).toBe(200);
    const denied = await bot('POST', `/conversations/${elsewhere}/toggle_priority`, { priority: 'high' }, roaming.token);
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ error: 'You are not authorized to do this action' });
    expect((await svc.request({ method: 'POST', url: `/api/v1/accounts/${svc.creds.otherAccountId}/conversations/1/toggle_priority`, token: roaming.token, payload: {} })).status).toBe(404);
  });

  it('an agent bot can be the assignee (agent_bot_slim), and a bot-run inbox starts conversations pending', async () => {
    const id = pickConversation(svc, "c.status = 'open' AND c.assignee_id IS NOT NULL");
    const res = await svc.request({ method: 'POST', url: `${A}/conversations/${id}/assignments`, token: svc.creds.adminToken, payload: { assignee_id: svc.creds.botId, assignee_type: 'AgentBot' } });
    expect(res.body).toEqual({ id: svc.creds.botId, name: 'Triage Bot', description: expect.any(String), thumbnail: '', outgoing_url: null, bot_type: 'webhook' });
    const shown = (await svc.request({ url: `${A}/conversations/${id}`, token: svc.creds.adminToken })).body as { meta: { assignee?: { id: number }; assignee_type?: string } };
    expect(shown.meta).toMatchObject({ assignee: { id: svc.creds.botId }, assignee_type: 'AgentBot' });
    const partner = (svc.db.prepare("SELECT id FROM inboxes WHERE name = 'Partner API'").get() as { id: number }).id;
    const created = (await svc.request({ method: 'POST', url: `${A}/conversations`, token: svc.creds.adminToken, payload: { inbox_id: partner, contact_id: 1, status: 'open' } })).body as { status: string };
    expect(created.status).toBe('pending');
  });
});
