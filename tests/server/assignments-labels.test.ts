// Conversation assignments (agent, agent bot, team) and labels (chatwoot-compat §1.2, §1.3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, ADMIN_EMAIL, AGENT_EMAIL, agentConversation, conversationRow, expectSpecErrorShape, lastMessageOf, recordEvents, userIdOf } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

type Conversation = { meta: { assignee?: { id: number }; assignee_type?: string; team?: { id: number } }; labels: string[] };
const assign = (id: number, payload: unknown, token = svc.creds.adminToken) => svc.request({ method: 'POST', url: `${A}/conversations/${id}/assignments`, token, payload });
const show = async (id: number) => (await svc.request({ url: `${A}/conversations/${id}`, token: svc.creds.adminToken })).body as Conversation;
const teamId = (name: string) => (svc.db.prepare('SELECT id FROM teams WHERE name = ?').get(name) as { id: number }).id;

describe('POST conversations/{id}/assignments', () => {
  it('assigns an agent: answers the agent partial, records activity, emits assignee.changed with [previous, current]', async () => {
    const sam = userIdOf(svc, AGENT_EMAIL);
    const id = agentConversation(svc, 'c.assignee_id IS NULL');
    const rec = recordEvents(svc);
    const res = await assign(id, { assignee_id: sam });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: sam, account_id: svc.creds.accountId, email: AGENT_EMAIL, role: 'agent', available_name: 'Sam Patel' });
    expect((await show(id)).meta).toMatchObject({ assignee: { id: sam }, assignee_type: 'User' });
    const changed = rec.events.find((e) => e.name === 'assignee.changed') as { changes: Record<string, unknown>; performer: unknown };
    expect(changed.changes.assignee_id).toEqual([null, sam]);
    expect(changed.performer).toEqual({ type: 'user', id: userIdOf(svc, ADMIN_EMAIL) });
    expect(lastMessageOf(svc, conversationRow(svc, id).id).content).toBe('Assigned to Sam Patel by Alex Rivera');
    rec.off();
  });

  it('assignee_id null, an unknown user, or another account\'s user unassigns and answers null', async () => {
    const sam = userIdOf(svc, AGENT_EMAIL);
    const grace = userIdOf(svc, 'grace@globex.example');
    for (const assignee_id of [null, 987654, grace]) {
      const id = agentConversation(svc, 'c.assignee_id = ?', sam);
      const res = await assign(id, { assignee_id });
      expect(res.status).toBe(200);
      expect(res.text).toBe('null');
      expect((await show(id)).meta.assignee).toBeUndefined();
    }
  });

  it('assigns a team (raw team JSON); a team without the assignee clears it; an unknown team unassigns with null', async () => {
    const sam = userIdOf(svc, AGENT_EMAIL);
    const id = agentConversation(svc, 'c.assignee_id = ? AND c.team_id IS NULL', sam);
    const sales = teamId('sales'); // Sam is not in sales
    const res = await assign(id, { team_id: sales });
    expect(res.body).toEqual({ id: sales, name: 'sales', description: 'Plans and upgrades', allow_auto_assign: true, account_id: svc.creds.accountId, created_at: expect.any(String), updated_at: expect.any(String) });
    const after = await show(id);
    expect(after.meta.team?.id).toBe(sales);
    expect(after.meta.assignee?.id).not.toBe(sam);
    const cleared = await assign(id, { team_id: 99999 });
    expect(cleared.text).toBe('null');
    expect((await show(id)).meta.team).toBeUndefined();
  });

  it('a team with auto-assignment picks an online member of the team and the inbox when nobody is assigned', async () => {
    const billing = teamId('billing'); // Sam and Priya
    const id = agentConversation(svc, "c.assignee_id IS NULL AND c.team_id IS NULL AND i.channel_type = 'Channel::Email'");
    await assign(id, { team_id: billing });
    const members = (svc.db.prepare('SELECT user_id FROM team_members WHERE team_id = ?').all(billing) as { user_id: number }[]).map((r) => r.user_id);
    expect(members).toContain((await show(id)).meta.assignee?.id);
  });

  it('with neither key answers null and changes nothing; malformed ids are 422', async () => {
    const id = agentConversation(svc);
    const before = conversationRow(svc, id);
    expect((await assign(id, {})).text).toBe('null');
    expect(conversationRow(svc, id)).toEqual(before);
    for (const payload of [{ assignee_id: 'abc' }, { team_id: { id: 1 } }, { assignee_id: 1, assignee_type: 'Robot' }]) {
      const res = await assign(id, payload);
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expectSpecErrorShape(res.body);
    }
    expect(conversationRow(svc, id)).toEqual(before);
  });
});

describe('conversation labels', () => {
  it('GET answers {payload:[labels]}', async () => {
    const id = agentConversation(svc, 'EXISTS (SELECT 1 FROM conversation_labels l WHERE l.conversation_id = c.id)');
    const res = await svc.request({ url: `${A}/conversations/${id}/labels`, token: svc.creds.agentToken });
    expect(res.body).toEqual({ payload: (await show(id)).labels });
    expect((res.body as { payload: string[] }).payload.length).toBeGreaterThan(0);
  });

  it('POST replaces the whole set (labels need not exist), records activity, and repeating it changes nothing', async () => {
    const id = agentConversation(svc);
    const rec = recordEvents(svc);
    const res = await svc.request({ method: 'POST', url: `${A}/conversations/${id}/labels`, token: svc.creds.agentToken, payload: { labels: ['vip', 'brand-new-label'] } });
    expect(res.body).toEqual({ payload: ['brand-new-label', 'vip'] });
    expect((await show(id)).labels).toEqual(['brand-new-label', 'vip']);
    const updated = rec.events.find((e) => e.name === 'conversation.updated') as { changes: Record<string, [string[], string[]]> };
    expect(updated.changes.label_list![1]).toEqual(['brand-new-label', 'vip']);
    rec.clear();
    await svc.request({ method: 'POST', url: `${A}/conversations/${id}/labels`, token: svc.creds.agentToken, payload: { labels: ['vip', 'brand-new-label'] } });
    expect(rec.events).toEqual([]);
    const emptied = await svc.request({ method: 'POST', url: `${A}/conversations/${id}/labels`, token: svc.creds.agentToken, payload: { labels: [] } });
    expect(emptied.body).toEqual({ payload: [] });
    rec.off();
  });

  it('rejects a missing or malformed labels list with 422 and keeps the labels', async () => {
    const id = agentConversation(svc, 'EXISTS (SELECT 1 FROM conversation_labels l WHERE l.conversation_id = c.id)');
    const before = (await show(id)).labels;
    for (const payload of [{}, { labels: 'vip' }, { labels: [1, 2] }, { labels: [''] }]) {
      const res = await svc.request({ method: 'POST', url: `${A}/conversations/${id}/labels`, token: svc.creds.adminToken, payload });
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), attributes: ['labels'] });
    }
    expect((await show(id)).labels).toEqual(before);
  });
});
