// Search (chatwoot-compat §1.12, §2.15), conversation search (§1.2, §2.3) and conversation meta counts (§1.2, §7).
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

const get = async <T>(path: string, token = svc.creds.agentToken) => (await svc.request({ url: `${A}${path}`, token })).body as T;
const samInboxes = () => (svc.db.prepare('SELECT inbox_id FROM inbox_members WHERE user_id = ?').all(userIdOf(svc, AGENT_EMAIL)) as { inbox_id: number }[]).map((r) => r.inbox_id);

describe('GET search', () => {
  it('answers {payload:{conversations, contacts, messages, articles}} for q', async () => {
    const res = await get<{ payload: Record<string, unknown[]> }>('/search?q=refund');
    expect(Object.keys(res.payload).sort()).toEqual(['articles', 'contacts', 'conversations', 'messages']);
    expect(res.payload.messages!.length).toBeGreaterThan(0);
    expect(res.payload.messages!.length).toBeLessThanOrEqual(15);
  });

  it('messages: content matches, from the last 3 months and the agent\'s inboxes only, REST message shape', async () => {
    const res = await get<{ payload: { messages: { id: number; content: string; inbox_id: number; message_type: number; created_at: number }[] } }>('/search/messages?q=invoice');
    expect(res.payload.messages.length).toBeGreaterThan(0);
    for (const m of res.payload.messages) {
      expect(m.content.toLowerCase()).toContain('invoice');
      expect(samInboxes()).toContain(m.inbox_id);
      expect([0, 1]).toContain(m.message_type);
      expect(m.created_at * 1000).toBeGreaterThanOrEqual(DEMO_NOW - 90 * 86_400_000);
    }
    // An old message does not match.
    const old = svc.db.prepare("SELECT id FROM messages WHERE account_id = ? AND content LIKE '%invoice%' LIMIT 1").get(svc.creds.accountId) as { id: number };
    svc.db.prepare('UPDATE messages SET created_at = ? WHERE id = ?').run(DEMO_NOW - 100 * 86_400_000, old.id);
    const after = await get<{ payload: { messages: { id: number }[] } }>('/search/messages?q=invoice', svc.creds.adminToken);
    expect(after.payload.messages.map((m) => m.id)).not.toContain(old.id);
  });

  it('pages 15 per type', async () => {
    const one = await get<{ payload: { messages: { id: number }[] } }>('/search/messages?q=the', svc.creds.adminToken);
    const two = await get<{ payload: { messages: { id: number }[] } }>('/search/messages?q=the&page=2', svc.creds.adminToken);
    expect(one.payload.messages.length).toBe(15);
    expect(two.payload.messages.length).toBeGreaterThan(0);
    expect(two.payload.messages.some((m) => one.payload.messages.some((o) => o.id === m.id))).toBe(false);
  });

  it('contacts and conversations by contact name, with the search shapes', async () => {
    const contact = svc.db.prepare("SELECT c.name FROM contacts c JOIN conversations v ON v.contact_id = c.id WHERE c.account_id = ? AND c.email IS NOT NULL LIMIT 1").get(svc.creds.accountId) as { name: string };
    const q = encodeURIComponent(contact.name);
    const contacts = await get<{ payload: { contacts: Record<string, unknown>[] } }>(`/search/contacts?q=${q}`, svc.creds.adminToken);
    expect(contacts.payload.contacts[0]).toEqual({ email: expect.any(String), id: expect.any(Number), name: contact.name, phone_number: expect.toBeOneOf([null, expect.any(String)]), identifier: expect.toBeOneOf([null, expect.any(String)]), additional_attributes: expect.any(Object), last_activity_at: expect.toBeOneOf([null, expect.any(Number)]) });
    const conversations = await get<{ payload: { conversations: Record<string, unknown>[] } }>(`/search/conversations?q=${q}`, svc.creds.adminToken);
    expect(conversations.payload.conversations.length).toBeGreaterThan(0);
    expect(conversations.payload.conversations[0]).toMatchObject({ id: expect.any(Number), account_id: svc.creds.accountId, created_at: expect.any(Number), message: expect.any(Object), contact: { name: contact.name }, inbox: { id: expect.any(Number), channel_type: expect.any(String) }, additional_attributes: expect.any(Object) });
  });

  it('answers 422 without q and 400 for a malformed page; another account is 404', async () => {
    const none = await svc.request({ url: `${A}/search`, token: svc.creds.agentToken });
    expect(none.status).toBe(422);
    expectSpecErrorShape(none.body);
    expect((await svc.request({ url: `${A}/search/contacts?q=a&page=x`, token: svc.creds.agentToken })).status).toBe(400);
    expect((await svc.request({ url: `/api/v1/accounts/${svc.creds.otherAccountId}/search?q=a`, token: svc.creds.agentToken })).status).toBe(404);
  });
});

describe('GET conversations/search', () => {
  it('finds conversations by message content in any status, with the matching messages, and meta without assigned_count', async () => {
    const res = await get<{ meta: Record<string, number>; payload: { id: number; uuid: string; contact: { id: number; name: string }; inbox: { id: number; name: string; channel_type: string }; messages: { content: string; message_type: number }[] }[] }>(
      '/conversations/search?q=duplicate%20charge',
      svc.creds.adminToken,
    );
    expect(Object.keys(res.meta).sort()).toEqual(['all_count', 'mine_count', 'unassigned_count']);
    expect(res.payload.length).toBeGreaterThan(0);
    for (const c of res.payload) {
      expect(c.messages.length).toBeGreaterThan(0);
      expect(c.messages.every((m) => m.content.toLowerCase().includes('duplicate charge') && [0, 1].includes(m.message_type))).toBe(true);
      expect(c).toMatchObject({ uuid: expect.any(String), contact: { id: expect.any(Number), name: expect.any(String) }, inbox: { channel_type: expect.any(String) } });
    }
    const statuses = svc.db
      .prepare("SELECT DISTINCT c.status FROM conversations c WHERE c.account_id = ? AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.message_type IN (0,1) AND m.content LIKE '%duplicate charge%')")
      .all(svc.creds.accountId);
    expect(res.meta.all_count).toBe(
      (svc.db.prepare("SELECT COUNT(*) AS n FROM conversations c WHERE c.account_id = ? AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.message_type IN (0,1) AND m.content LIKE '%duplicate charge%')").get(svc.creds.accountId) as { n: number }).n,
    );
    expect(statuses.length).toBeGreaterThan(1);
  });
});

describe('GET conversations/meta', () => {
  it('answers {meta:{mine_count, assigned_count, unassigned_count, all_count}} equal to the list meta, without a data wrapper', async () => {
    for (const q of ['', '?status=all', '?status=pending&inbox_id=1', '?labels[]=billing']) {
      const meta = await get<{ meta: Record<string, number> }>(`/conversations/meta${q}`);
      const list = await get<{ data: { meta: Record<string, number> } }>(`/conversations${q}`);
      expect(meta).toEqual({ meta: list.data.meta });
    }
  });
  it('answers 400 for malformed filters', async () => {
    expect((await svc.request({ url: `${A}/conversations/meta?status=nope`, token: svc.creds.agentToken })).status).toBe(400);
  });
});
