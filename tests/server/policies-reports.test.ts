// Assignment policies (spec: "List inboxes using a policy", 403) and reports v2 (chatwoot-compat §1.13).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService, DEMO_NOW } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, AGENT_EMAIL, expectSpecErrorShape, userIdOf } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

const call = (method: string, url: string, payload?: unknown, token = svc.creds.adminToken) => svc.request({ method, url, token, ...(payload === undefined ? {} : { payload }) });

describe('assignment policies', () => {
  let policy: number;
  it('administrators create, read, update policies (agents get 401)', async () => {
    expect((await call('POST', `${A}/assignment_policies`, { name: 'x' }, svc.creds.agentToken)).status).toBe(401);
    const created = await call('POST', `${A}/assignment_policies`, { assignment_policy: { name: 'Balanced day shift', assignment_order: 'balanced', fair_distribution_limit: 20 } });
    expect(created.body).toEqual({ id: expect.any(Number), name: 'Balanced day shift', description: '', assignment_order: 'balanced', conversation_priority: 'earliest_created', fair_distribution_limit: 20, fair_distribution_window: 3600, enabled: true, created_at: expect.any(Number), updated_at: expect.any(Number) });
    policy = (created.body as { id: number }).id;
    // The demo seeds one ("Website round robin"); the new one is listed after it.
    expect(((await call('GET', `${A}/assignment_policies`)).body as { name: string }[]).map((p) => p.name)).toEqual(['Website round robin', 'Balanced day shift']);
    expect((await call('PATCH', `${A}/assignment_policies/${policy}`, { enabled: false })).body).toMatchObject({ id: policy, name: 'Balanced day shift', enabled: false });
    for (const payload of [{}, { name: 'y', assignment_order: 'random' }, { name: 'Balanced day shift' }]) {
      const res = await call('POST', `${A}/assignment_policies`, payload);
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expectSpecErrorShape(res.body);
    }
  });

  it('GET assignment_policies/{id}/inboxes answers {inboxes:[full inbox]} (key inboxes, not payload), bound through the inbox', async () => {
    expect((await call('GET', `${A}/assignment_policies/${policy}/inboxes`)).body).toEqual({ inboxes: [] });
    const bound = await call('POST', `${A}/inboxes/${svc.creds.apiInboxId}/assignment_policy`, { assignment_policy_id: policy });
    expect(bound.body).toMatchObject({ id: policy });
    const res = await call('GET', `${A}/assignment_policies/${policy}/inboxes`);
    expect(Object.keys(res.body as object)).toEqual(['inboxes']);
    expect((res.body as { inboxes: { id: number; channel_type: string; working_hours: unknown[] }[] }).inboxes).toEqual([expect.objectContaining({ id: svc.creds.apiInboxId, channel_type: 'Channel::Api', working_hours: expect.any(Array) })]);
    expect((await call('GET', `${A}/inboxes/${svc.creds.apiInboxId}/assignment_policy`)).body).toMatchObject({ id: policy });
  });

  it('answers 403 {error} to an agent (checked by hand), 404 for an unknown policy or another account', async () => {
    const res = await call('GET', `${A}/assignment_policies/${policy}/inboxes`, undefined, svc.creds.agentToken);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await call('GET', `${A}/assignment_policies/99999/inboxes`)).status).toBe(404);
    expect((await call('GET', `/api/v1/accounts/${svc.creds.otherAccountId}/assignment_policies/${policy}/inboxes`, undefined, svc.creds.otherAccountAdminToken)).status).toBe(404);
  });

  it('unbinding and deleting: the second time is 404', async () => {
    expect((await call('DELETE', `${A}/inboxes/${svc.creds.apiInboxId}/assignment_policy`)).status).toBe(200);
    expect((await call('DELETE', `${A}/inboxes/${svc.creds.apiInboxId}/assignment_policy`)).status).toBe(404);
    expect((await call('DELETE', `${A}/assignment_policies/${policy}`)).status).toBe(200);
    expect((await call('DELETE', `${A}/assignment_policies/${policy}`)).status).toBe(404);
  });
});

describe('reports v2', () => {
  const R = () => `/api/v2/accounts/${svc.creds.accountId}/reports`;
  const seconds = (ms: number) => Math.floor(ms / 1000);

  it('summary counts what happened in the range, with averages from reporting events and the previous period', async () => {
    const since = DEMO_NOW + 1000;
    svc.setNow(since);
    const created = (await call('POST', `${A}/conversations`, { inbox_id: svc.creds.apiInboxId, contact_id: 1 })).body as { id: number };
    svc.setNow(since + 10_000);
    await call('POST', `${A}/conversations/${created.id}/messages`, { content: 'question?', message_type: 'incoming' });
    svc.setNow(since + 70_000);
    await call('POST', `${A}/conversations/${created.id}/messages`, { content: 'answer!' });
    svc.setNow(since + 130_000);
    await call('POST', `${A}/conversations/${created.id}/toggle_status`, { status: 'resolved' });
    const until = since + 200_000;
    const res = await call('GET', `${R()}/summary?since=${seconds(since)}&until=${seconds(until) + 1}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      conversations_count: 1,
      incoming_messages_count: 1,
      outgoing_messages_count: 1,
      avg_first_response_time: 70,
      avg_resolution_time: 130,
      resolutions_count: 1,
      reply_time: 60,
      previous: expect.objectContaining({ conversations_count: 0, resolutions_count: 0, avg_resolution_time: null }),
    });
    const agent = await call('GET', `${R()}/summary?type=agent&id=${userIdOf(svc, AGENT_EMAIL)}&since=${seconds(since)}&until=${seconds(until) + 1}`);
    expect(agent.body).toMatchObject({ conversations_count: 0, outgoing_messages_count: 0 });
    const inbox = await call('GET', `${R()}/summary?type=inbox&id=${svc.creds.apiInboxId}&since=${seconds(since)}&until=${seconds(until) + 1}`);
    expect(inbox.body).toMatchObject({ conversations_count: 1, resolutions_count: 1 });
    svc.setNow(DEMO_NOW);
  });

  it('a metric time series per day: [{value, timestamp}] covering the range', async () => {
    const since = DEMO_NOW - 7 * 86_400_000;
    const res = await call('GET', `${R()}?metric=incoming_messages_count&since=${seconds(since)}&until=${seconds(DEMO_NOW)}&group_by=day`);
    const series = res.body as { value: number; timestamp: number }[];
    // Noon to noon over 7 days touches 8 calendar days (UTC): each bucket is a whole day.
    expect(series.length).toBe(8);
    expect(series.map((b) => b.timestamp % 86_400)).toEqual(Array(8).fill(0));
    const total = (svc.db.prepare('SELECT COUNT(*) AS n FROM messages WHERE account_id = ? AND message_type = 0 AND created_at >= ? AND created_at < ?').get(svc.creds.accountId, since, DEMO_NOW) as { n: number }).n;
    expect(series.reduce((n, b) => n + b.value, 0)).toBe(total);
    expect(series[0]!.timestamp).toBe(seconds(since) - 12 * 3600);
    const shifted = (await call('GET', `${R()}?metric=incoming_messages_count&since=${seconds(since)}&until=${seconds(DEMO_NOW)}&timezone_offset=5.5`)).body as { timestamp: number }[];
    // Local midnight at UTC+5:30 on the day of `since` is 18:30 UTC the day before.
    expect(shifted[0]!.timestamp).toBe(seconds(since) - 17.5 * 3600);
  });

  it('is for administrators (401 for agents); malformed or impossible parameters are 400/422; unknown ids 404', async () => {
    const agent = await call('GET', `${R()}/summary`, undefined, svc.creds.agentToken);
    expect(agent.status).toBe(401);
    expect(agent.body).toEqual({ error: 'You are not authorized to do this action' });
    expect((await call('GET', `${R()}/summary?since=yesterday`)).status).toBe(400);
    expect((await call('GET', `${R()}/summary?type=galaxy`)).status).toBe(400);
    expect((await call('GET', `${R()}?metric=happiness`)).status).toBe(400);
    expect((await call('GET', `${R()}/summary?since=200&until=100`)).status).toBe(422);
    expect((await call('GET', `${R()}/summary?type=agent`)).status).toBe(422);
    expect((await call('GET', `${R()}/summary?type=inbox&id=99999`)).status).toBe(404);
    expect((await call('GET', `${R()}?metric=conversations_count&group_by=hour&since=0&until=${seconds(DEMO_NOW)}`)).status).toBe(422);
    expect((await call('GET', `${R()}/summary?business_hours=true`)).status).toBe(422);
    expect((await call('GET', `/api/v2/accounts/${svc.creds.otherAccountId}/reports/summary`)).status).toBe(404);
  });
});
