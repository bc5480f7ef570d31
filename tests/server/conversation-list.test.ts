// The conversation list's filters (inbox_id, team_id, labels, q, sort_by) and the conversation and
// message record shapes the spec leaves "not shown" (chatwoot-compat §2.1, §2.4, §3, §7).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, agentConversation } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

type Row = { id: number; inbox_id: number; labels: string[]; priority: string | null; created_at: number; last_activity_at: number; meta: { team?: { id: number }; sender: { name: string; email: string | null } } };
const list = async (q: string) => ((await svc.request({ url: `${A}/conversations?status=all&${q}`, token: svc.creds.adminToken })).body as { data: { meta: Record<string, number>; payload: Row[] } }).data;
const countWhere = (where: string, ...args: unknown[]) => (svc.db.prepare(`SELECT COUNT(*) AS n FROM conversations c WHERE c.account_id = ? AND ${where}`).get(svc.creds.accountId, ...args) as { n: number }).n;

describe('GET conversations: filters', () => {
  it('inbox_id', async () => {
    const data = await list(`inbox_id=${svc.creds.apiInboxId}`);
    expect(data.payload.every((c) => c.inbox_id === svc.creds.apiInboxId)).toBe(true);
    expect(data.meta.all_count).toBe(countWhere('c.inbox_id = ?', svc.creds.apiInboxId));
  });
  it('team_id', async () => {
    const team = (svc.db.prepare("SELECT id FROM teams WHERE name = 'billing'").get() as { id: number }).id;
    const data = await list(`team_id=${team}`);
    expect(data.payload.length).toBeGreaterThan(0);
    expect(data.payload.every((c) => c.meta.team?.id === team)).toBe(true);
    expect(data.meta.all_count).toBe(countWhere('c.team_id = ?', team));
  });
  it('labels (every listed label, as labels[]= or a comma list)', async () => {
    const data = await list('labels[]=billing&labels[]=vip');
    expect(data.payload.every((c) => c.labels.includes('billing') && c.labels.includes('vip'))).toBe(true);
    expect(data.meta.all_count).toBe(countWhere("EXISTS (SELECT 1 FROM conversation_labels l WHERE l.conversation_id = c.id AND l.title = 'billing') AND EXISTS (SELECT 1 FROM conversation_labels l WHERE l.conversation_id = c.id AND l.title = 'vip')"));
    expect((await list('labels=billing,vip')).meta).toEqual(data.meta);
  });
  it('q: contact name or email, display id, or message text', async () => {
    const sample = svc.db.prepare('SELECT ct.name FROM conversations c JOIN contacts ct ON ct.id = c.contact_id WHERE c.account_id = ? LIMIT 1').get(svc.creds.accountId) as { name: string };
    const data = await list(`q=${encodeURIComponent(sample.name)}`);
    expect(data.payload.length).toBeGreaterThan(0);
    expect(data.payload.every((c) => c.meta.sender.name === sample.name)).toBe(true);
    expect((await list('q=duplicate%20charge')).payload.length).toBeGreaterThan(0);
    expect((await list('q=zzzz-no-such-text')).payload).toEqual([]);
  });
  it('sort_by: created_at_asc, priority_desc (nulls last), default last_activity_at_desc; unknown is the default', async () => {
    const asc = (await list('sort_by=created_at_asc')).payload.map((c) => c.created_at);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const rank = { urgent: 3, high: 2, medium: 1, low: 0 } as Record<string, number>;
    const prio = (await list('sort_by=priority_desc')).payload.map((c) => (c.priority === null ? -1 : rank[c.priority]!));
    expect(prio).toEqual([...prio].sort((a, b) => b - a));
    const plain = (await list('')).payload.map((c) => c.last_activity_at);
    expect(plain).toEqual([...plain].sort((a, b) => b - a));
    expect((await list('sort_by=whatever')).payload.map((c) => c.id)).toEqual((await list('')).payload.map((c) => c.id));
  });
});

describe('record shapes (compat §2.1, §2.4)', () => {
  it('a conversation has the REST keys in the reference order, epoch ints, float updated_at, ISO snoozed_until', async () => {
    const id = agentConversation(svc);
    const c = (await svc.request({ url: `${A}/conversations/${id}`, token: svc.creds.adminToken })).body as Record<string, unknown>;
    expect(Object.keys(c)).toEqual([
      'meta', 'id', 'messages', 'account_id', 'uuid', 'additional_attributes', 'agent_last_seen_at', 'assignee_last_seen_at', 'can_reply', 'contact_last_seen_at', 'custom_attributes', 'inbox_id',
      'labels', 'muted', 'snoozed_until', 'status', 'created_at', 'updated_at', 'timestamp', 'first_reply_created_at', 'unread_count', 'last_non_activity_message', 'last_activity_at', 'priority',
      'waiting_since', 'sla_policy_id',
    ]);
    expect(Number.isInteger(c.created_at)).toBe(true);
    expect(typeof c.updated_at).toBe('number');
    expect(c.unread_count as number).toBeLessThanOrEqual(10);
    expect(Object.keys(c.meta as object)).toEqual(expect.arrayContaining(['sender', 'channel', 'hmac_verified']));
  });
  it('a message has the REST keys, an integer message_type, and no sender_type/account_id/updated_at', async () => {
    const id = agentConversation(svc);
    const { payload } = (await svc.request({ url: `${A}/conversations/${id}/messages`, token: svc.creds.adminToken })).body as { payload: Record<string, unknown>[] };
    for (const m of payload) {
      expect(Object.keys(m).filter((k) => !['sender', 'attachments'].includes(k))).toEqual(['id', 'content', 'inbox_id', 'conversation_id', 'message_type', 'content_type', 'status', 'content_attributes', 'created_at', 'private', 'source_id']);
      expect([0, 1, 2, 3]).toContain(m.message_type);
      expect(m.conversation_id).toBe(id);
    }
  });
});
