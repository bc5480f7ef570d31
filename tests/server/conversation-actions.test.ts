// Conversation actions (spec: Application endpoints; chatwoot-compat §1.2): toggle_status with snooze,
// toggle_priority, PATCH priority, typing, read markers, custom attributes, transcript.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService, DEMO_NOW } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, ADMIN_EMAIL, AGENT_EMAIL, agentConversation, conversationRow, expectSpecErrorShape, hiddenFromAgent, lastMessageOf, recordEvents, userIdOf } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

type Conversation = { id: number; status: string; priority: string | null; snoozed_until: string | null; unread_count: number; agent_last_seen_at: number; custom_attributes: Record<string, unknown>; meta: { assignee?: { id: number } } };
const post = (path: string, payload?: unknown, token = svc.creds.adminToken) => svc.request({ method: 'POST', url: `${A}${path}`, token, ...(payload === undefined ? {} : { payload }) });
const show = async (id: number, token = svc.creds.adminToken) => (await svc.request({ url: `${A}/conversations/${id}`, token })).body as Conversation;

describe('POST conversations/{id}/toggle_status', () => {
  it('sets a status and answers {payload:{success, conversation_id, current_status, snoozed_until}} with no meta key', async () => {
    const id = agentConversation(svc, "c.status = 'open'");
    const rec = recordEvents(svc);
    const res = await post(`/conversations/${id}/toggle_status`, { status: 'resolved' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ payload: { success: true, conversation_id: id, current_status: 'resolved', snoozed_until: null } });
    expect((await show(id)).status).toBe('resolved');
    const changed = rec.events.find((e) => e.name === 'conversation.status_changed') as { changes: Record<string, unknown[]>; performer: unknown };
    expect(changed.changes.status).toEqual(['open', 'resolved']);
    expect(changed.performer).toEqual({ type: 'user', id: userIdOf(svc, ADMIN_EMAIL) });
    expect(rec.names()).toEqual(['conversation.status_changed', 'conversation.updated', 'message.created']);
    expect(lastMessageOf(svc, conversationRow(svc, id).id)).toMatchObject({ message_type: 2, content: 'Conversation was marked resolved by Alex Rivera' });
    rec.off();
  });

  it('without a status toggles open → resolved and resolved/pending/snoozed → open', async () => {
    const id = agentConversation(svc, "c.status = 'pending'");
    expect(((await post(`/conversations/${id}/toggle_status`)).body as { payload: { current_status: string } }).payload.current_status).toBe('open');
    expect(((await post(`/conversations/${id}/toggle_status`)).body as { payload: { current_status: string } }).payload.current_status).toBe('resolved');
    expect(((await post(`/conversations/${id}/toggle_status`, {})).body as { payload: { current_status: string } }).payload.current_status).toBe('open');
  });

  it('snoozes until snoozed_until (epoch seconds), and clears it when the conversation leaves snoozed', async () => {
    const id = agentConversation(svc, "c.status = 'open'");
    const until = Math.floor(DEMO_NOW / 1000) + 3600;
    const res = await post(`/conversations/${id}/toggle_status`, { status: 'snoozed', snoozed_until: String(until) });
    expect(res.body).toEqual({ payload: { success: true, conversation_id: id, current_status: 'snoozed', snoozed_until: new Date(until * 1000).toISOString() } });
    expect((await show(id)).snoozed_until).toBe(new Date(until * 1000).toISOString());
    // Snoozed without a time: until the next reply (null).
    await post(`/conversations/${id}/toggle_status`, { status: 'snoozed' });
    expect((await show(id)).snoozed_until).toBeNull();
    await post(`/conversations/${id}/toggle_status`, { status: 'snoozed', snoozed_until: until });
    await post(`/conversations/${id}/toggle_status`, { status: 'open' });
    const reopened = await show(id);
    expect(reopened.status).toBe('open');
    expect(reopened.snoozed_until).toBeNull();
  });

  it('accepts the status in the query string, as Rails clients send it', async () => {
    const id = agentConversation(svc, "c.status = 'open'");
    const res = await svc.request({ method: 'POST', url: `${A}/conversations/${id}/toggle_status?status=pending`, token: svc.creds.adminToken });
    expect((res.body as { payload: { current_status: string } }).payload.current_status).toBe('pending');
  });

  it('self-assigns an agent who leaves the conversation open; an administrator is not assigned', async () => {
    const sam = userIdOf(svc, AGENT_EMAIL);
    const id = agentConversation(svc, "c.status = 'resolved' AND (c.assignee_id IS NULL OR c.assignee_id != ?)", sam);
    await post(`/conversations/${id}/toggle_status`, { status: 'open' }, svc.creds.agentToken);
    expect((await show(id)).meta.assignee?.id).toBe(sam);
    const other = agentConversation(svc, "c.status = 'resolved' AND c.assignee_id IS NULL");
    await post(`/conversations/${other}/toggle_status`, { status: 'open' });
    expect((await show(other)).meta.assignee).toBeUndefined();
  });

  it('rejects an unknown status or a malformed snoozed_until with 422 {message, attributes} and changes nothing', async () => {
    const id = agentConversation(svc, "c.status = 'open'");
    const before = conversationRow(svc, id);
    for (const [payload, attribute] of [
      [{ status: 'foo' }, 'status'],
      [{ status: 'snoozed', snoozed_until: 'next tuesday' }, 'snoozed_until'],
      [{ status: 7 }, 'status'],
    ] as const) {
      const res = await post(`/conversations/${id}/toggle_status`, payload);
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), attributes: [attribute] });
    }
    expect(conversationRow(svc, id)).toEqual(before);
  });

  it('answers 404 for an unknown or other-account conversation and 401 for one in an inbox the agent is not in', async () => {
    expect((await post('/conversations/999999/toggle_status', { status: 'open' })).status).toBe(404);
    const other = await svc.request({ method: 'POST', url: `/api/v1/accounts/${svc.creds.otherAccountId}/conversations/1/toggle_status`, token: svc.creds.adminToken, payload: { status: 'resolved' } });
    expect(other.status).toBe(404);
    const hidden = await post(`/conversations/${hiddenFromAgent(svc)}/toggle_status`, { status: 'resolved' }, svc.creds.agentToken);
    expect(hidden.status).toBe(401);
    expect(hidden.body).toEqual({ error: 'You are not authorized to do this action' });
  });
});

describe('priority: toggle_priority and PATCH/PUT conversations/{id}', () => {
  it('toggle_priority sets and removes the priority, answering 200 with an empty body', async () => {
    const id = agentConversation(svc, 'c.priority IS NULL');
    const rec = recordEvents(svc);
    const res = await post(`/conversations/${id}/toggle_priority`, { priority: 'high' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect((await show(id)).priority).toBe('high');
    expect((rec.events.find((e) => e.name === 'conversation.updated') as { changes: Record<string, unknown> }).changes.priority).toEqual([null, 'high']);
    expect(lastMessageOf(svc, conversationRow(svc, id).id).content).toBe('Alex Rivera set the priority to high');
    await post(`/conversations/${id}/toggle_priority`, { priority: '' });
    expect((await show(id)).priority).toBeNull();
    rec.off();
  });

  it('rejects an unknown priority with 422', async () => {
    const id = agentConversation(svc);
    const res = await post(`/conversations/${id}/toggle_priority`, { priority: 'critical' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: expect.stringContaining('low, medium, high, urgent'), attributes: ['priority'] });
  });

  it('PATCH and PUT update only the priority and return the conversation; repeating the body changes nothing more', async () => {
    const id = agentConversation(svc, "c.priority IS NULL AND c.status = 'open'");
    for (const method of ['PATCH', 'PUT']) {
      const res = await svc.request({ method, url: `${A}/conversations/${id}`, token: svc.creds.agentToken, payload: { priority: 'urgent', status: 'resolved' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, priority: 'urgent' });
    }
    const rec = recordEvents(svc);
    const before = conversationRow(svc, id);
    await svc.request({ method: 'PATCH', url: `${A}/conversations/${id}`, token: svc.creds.agentToken, payload: { priority: 'urgent' } });
    expect(rec.events).toEqual([]);
    expect(conversationRow(svc, id)).toEqual(before);
    expect(before.status).not.toBe('resolved');
    rec.off();
  });
});

describe('toggle_typing_status', () => {
  it('emits typing_on/off with the typer and answers 200 empty', async () => {
    const id = agentConversation(svc);
    const rec = recordEvents(svc);
    const res = await post(`/conversations/${id}/toggle_typing_status`, { typing_status: 'on', is_private: true }, svc.creds.agentToken);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    await post(`/conversations/${id}/toggle_typing_status`, { typing_status: 'off' }, svc.creds.agentToken);
    expect(rec.events).toEqual([
      { name: 'conversation.typing_on', accountId: svc.creds.accountId, conversationId: conversationRow(svc, id).id, typer: { type: 'user', id: userIdOf(svc, AGENT_EMAIL) }, isPrivate: true },
      { name: 'conversation.typing_off', accountId: svc.creds.accountId, conversationId: conversationRow(svc, id).id, typer: { type: 'user', id: userIdOf(svc, AGENT_EMAIL) }, isPrivate: false },
    ]);
    rec.off();
  });
  it('rejects a missing or unknown typing_status with 422', async () => {
    const id = agentConversation(svc);
    for (const payload of [{}, { typing_status: 'maybe' }]) {
      const res = await post(`/conversations/${id}/toggle_typing_status`, payload);
      expect(res.status).toBe(422);
      expectSpecErrorShape(res.body);
    }
  });
});

describe('update_last_seen and unread', () => {
  it('update_last_seen marks the conversation read now, without events', async () => {
    const id = agentConversation(svc, 'EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.message_type = 0) AND c.agent_last_seen_at IS NULL');
    expect((await show(id)).unread_count).toBeGreaterThan(0);
    const rec = recordEvents(svc);
    svc.setNow(DEMO_NOW + 60_000);
    const res = await post(`/conversations/${id}/update_last_seen`, undefined, svc.creds.agentToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, agent_last_seen_at: Math.floor((DEMO_NOW + 60_000) / 1000), unread_count: 0 });
    expect(rec.events).toEqual([]);
    rec.off();
    svc.setNow(DEMO_NOW);
  });
  it('unread moves "last seen" to one second before the newest incoming message', async () => {
    const id = agentConversation(svc, 'EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.message_type = 0)');
    await post(`/conversations/${id}/update_last_seen`);
    const res = await post(`/conversations/${id}/unread`);
    const newest = svc.db.prepare('SELECT MAX(created_at) AS at FROM messages WHERE conversation_id = ? AND message_type = 0').get(conversationRow(svc, id).id) as { at: number };
    expect(res.body).toMatchObject({ id, agent_last_seen_at: Math.floor((newest.at - 1000) / 1000) });
    expect((res.body as Conversation).unread_count).toBeGreaterThanOrEqual(1);
  });
});

describe('custom_attributes', () => {
  it('replaces the whole hash and answers {custom_attributes}', async () => {
    const id = agentConversation(svc);
    await post(`/conversations/${id}/custom_attributes`, { custom_attributes: { plan: 'pro', seats: 3 } });
    const res = await post(`/conversations/${id}/custom_attributes`, { custom_attributes: { region: 'eu' } });
    expect(res.body).toEqual({ custom_attributes: { region: 'eu' } });
    expect((await show(id)).custom_attributes).toEqual({ region: 'eu' });
  });
  it('rejects a missing or non-object custom_attributes with 422', async () => {
    const id = agentConversation(svc);
    for (const payload of [{}, { custom_attributes: 'x' }, { custom_attributes: [1] }]) {
      const res = await post(`/conversations/${id}/custom_attributes`, payload);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), attributes: ['custom_attributes'] });
    }
  });
});

describe('transcript', () => {
  it('answers 422 "email param missing" without email, and 200 empty with one (recorded for mail delivery)', async () => {
    const id = agentConversation(svc);
    const missing = await post(`/conversations/${id}/transcript`, {});
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ message: 'email param missing', attributes: ['email'] });
    expect((await post(`/conversations/${id}/transcript`, { email: 'not-an-email' })).status).toBe(422);
    const ok = await post(`/conversations/${id}/transcript`, { email: 'customer@example.com' });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('');
    expect(svc.db.prepare('SELECT email FROM transcript_requests WHERE conversation_id = ?').all(conversationRow(svc, id).id)).toEqual([{ email: 'customer@example.com' }]);
  });
});
