// The walking skeleton's slice of the service: profile, conversation list, message cursors, auth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../server/events/bus';
import { commit, insertContact, insertConversation, insertMessage } from '../../server/store/writes';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';

let svc: DemoService;
beforeAll(async () => {
  svc = await demoService();
});
afterAll(() => svc.close());

const conv = (path = '') => `/api/v1/accounts/${svc.creds.accountId}/conversations${path}`;
type List = { data: { meta: Record<string, number>; payload: { id: number; status: string; inbox_id: number; meta: { assignee?: { id: number } } }[] } };
type Messages = { meta: Record<string, unknown>; payload: { id: number; conversation_id: number }[] };

describe('authentication (spec: Authentication, Errors)', () => {
  it('answers 401 {errors:[string]} when the api_access_token header is missing', async () => {
    const res = await svc.request({ url: '/api/v1/profile' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ errors: [expect.any(String)] });
  });
  it('answers 401 {error: "Invalid Access Token"} for a wrong token', async () => {
    const res = await svc.request({ url: '/api/v1/profile', token: 'nope' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid Access Token' });
  });
  it('answers 404 for another account, as if it did not exist', async () => {
    const other = await svc.request({ url: `/api/v1/accounts/${svc.creds.otherAccountId}/conversations`, token: svc.creds.agentToken });
    const missing = await svc.request({ url: '/api/v1/accounts/999999/conversations', token: svc.creds.agentToken });
    expect(other.status).toBe(404);
    expect(other.body).toEqual(missing.body);
  });
});

describe('GET /api/v1/profile', () => {
  it('returns the user with accounts, role and pubsub token', async () => {
    const res = await svc.request({ url: '/api/v1/profile', token: svc.creds.agentToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: 'sam@acme.example', role: 'agent', account_id: svc.creds.accountId, pubsub_token: expect.any(String) });
    expect((res.body as { accounts: unknown[] }).accounts).toEqual([expect.objectContaining({ id: svc.creds.accountId, role: 'agent' })]);
  });
});

describe('GET conversations', () => {
  it('pages 25 at a time and signals the end with an empty page', async () => {
    const ids: number[] = [];
    let pages = 0;
    for (let page = 1; ; page++) {
      const res = await svc.request({ url: conv(`?status=all&page=${page}`), token: svc.creds.adminToken });
      const body = res.body as List;
      if (body.data.payload.length === 0) break;
      expect(body.data.payload.length).toBeLessThanOrEqual(25);
      ids.push(...body.data.payload.map((c) => c.id));
      pages++;
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toBeGreaterThan(5);
    const meta = ((await svc.request({ url: conv('?status=all'), token: svc.creds.adminToken })).body as List).data.meta;
    expect(ids.length).toBe(meta.all_count);
  });

  it('filters by status (open by default) and reports counts before the assignee filter', async () => {
    const all = (await svc.request({ url: conv(), token: svc.creds.agentToken })).body as List;
    expect(all.data.payload.every((c) => c.status === 'open')).toBe(true);
    const mine = (await svc.request({ url: conv('?assignee_type=me'), token: svc.creds.agentToken })).body as List;
    expect(mine.data.meta).toEqual(all.data.meta);
    const profile = (await svc.request({ url: '/api/v1/profile', token: svc.creds.agentToken })).body as { id: number };
    expect(mine.data.payload.every((c) => c.meta.assignee?.id === profile.id)).toBe(true);
    const m = all.data.meta;
    expect(m.assigned_count! + m.unassigned_count!).toBe(m.all_count);
    const unassigned = (await svc.request({ url: conv('?assignee_type=unassigned&status=pending'), token: svc.creds.agentToken })).body as List;
    expect(unassigned.data.payload.every((c) => c.status === 'pending' && !c.meta.assignee)).toBe(true);
  });

  it('shows an agent only the inboxes it is a member of', async () => {
    const admin = (await svc.request({ url: conv('?status=all'), token: svc.creds.adminToken })).body as List;
    const agent = (await svc.request({ url: conv('?status=all'), token: svc.creds.agentToken })).body as List;
    expect(agent.data.meta.all_count).toBeLessThan(admin.data.meta.all_count!);
  });

  it('answers 400 {error} for malformed query parameters', async () => {
    for (const q of ['?page=abc', '?page=0', '?status=bogus', '?inbox_id=1;drop']) {
      const res = await svc.request({ url: conv(q), token: svc.creds.agentToken });
      expect(res.status, q).toBe(400);
      expect(res.body, q).toEqual({ error: expect.any(String) });
    }
  });
});

describe('GET messages: the four cursor cases (spec: Pagination)', () => {
  let id: number;
  let all: number[];
  beforeAll(async () => {
    // The longest conversation in the demo, read completely through `before` pages.
    const list = (await svc.request({ url: conv('?status=all&sort_by=created_at_asc'), token: svc.creds.adminToken })).body as List;
    let best = { id: 0, n: 0 };
    for (const c of list.data.payload) {
      const n = (svc.db.prepare('SELECT COUNT(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.display_id = ? AND c.account_id = ?').get(c.id, svc.creds.accountId) as { n: number }).n;
      if (n > best.n) best = { id: c.id, n };
    }
    id = best.id;
    expect(best.n).toBeGreaterThan(150);
    all = (svc.db.prepare('SELECT m.id FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.display_id = ? AND c.account_id = ? ORDER BY m.id').all(id, svc.creds.accountId) as { id: number }[]).map((r) => r.id);
  });
  const page = async (q = '') => ((await svc.request({ url: conv(`/${id}/messages${q}`), token: svc.creds.adminToken })).body as Messages).payload.map((m) => m.id);

  it('no cursor: the most recent 20, oldest first', async () => {
    expect(await page()).toEqual(all.slice(-20));
  });
  it('before: up to 20 older than that id, oldest first', async () => {
    const before = all[100]!;
    expect(await page(`?before=${before}`)).toEqual(all.slice(80, 100));
    expect(await page(`?before=${all[5]}`)).toEqual(all.slice(0, 5));
  });
  it('after: up to 100 newer than that id', async () => {
    expect(await page(`?after=${all[10]}`)).toEqual(all.slice(11, 111));
  });
  it('before and after: the messages between them (after inclusive, compat §7), oldest first', async () => {
    const got = await page(`?after=${all[3]}&before=${all[150]}`);
    expect(got).toEqual(all.slice(3, 150));
  });
  it('ignores page', async () => {
    expect(await page('?page=3')).toEqual(all.slice(-20));
  });
  it('answers 400 for a malformed cursor and 404 for a conversation the agent cannot see', async () => {
    expect((await svc.request({ url: conv(`/${id}/messages?before=x`), token: svc.creds.adminToken })).status).toBe(400);
    expect((await svc.request({ url: conv('/999999/messages'), token: svc.creds.adminToken })).status).toBe(404);
  });
});

// The demo's longest conversation is far below 1000 messages, so the caps are proved on one built here.
describe('GET messages: the caps, on a conversation of more than 1000 messages (spec: Pagination)', () => {
  const TOTAL = 1234;
  let id: number;
  let all: number[];
  beforeAll(() => {
    // Written through the shared domain writes, in one transaction, on a bus nobody listens to (no
    // notifications, live events or webhooks for 1234 messages).
    const ctx = { db: svc.db, bus: new EventBus(), now: svc.clock() };
    const c = commit(ctx, (events) => {
      const contact = insertContact(ctx, { accountId: svc.creds.accountId, name: 'Long talker', email: 'long@example.com' }, events);
      const conversation = insertConversation(ctx, { accountId: svc.creds.accountId, inboxId: svc.creds.apiInboxId, contactId: contact.id, contactInboxId: null }, events);
      for (let i = 0; i < TOTAL; i++) {
        insertMessage(ctx, { conversation, messageType: (i % 2) as 0 | 1, content: `message ${i}`, sender: null }, events);
      }
      return conversation;
    });
    id = c.display_id;
    all = (svc.db.prepare('SELECT id FROM messages WHERE conversation_id = ? ORDER BY id').all(c.id) as { id: number }[]).map((r) => r.id);
    expect(all).toHaveLength(TOTAL);
  });
  const page = async (q: string) => {
    const res = await svc.request({ url: conv(`/${id}/messages${q}`), token: svc.creds.adminToken });
    expect(res.status).toBe(200);
    return (res.body as Messages).payload.map((m) => m.id);
  };

  it('before and after: exactly 1000, the oldest of the range first', async () => {
    expect(await page(`?after=${all[0]}&before=${all[TOTAL - 1]}`)).toEqual(all.slice(0, 1000));
    expect(await page(`?after=${all[100]}&before=${all[TOTAL - 1]! + 1}`)).toEqual(all.slice(100, 1100));
  });
  it('after: exactly 100 newer, oldest first', async () => {
    expect(await page(`?after=${all[0]}`)).toEqual(all.slice(1, 101));
  });
  it('before: exactly 20 older, oldest first; no cursor: the newest 20', async () => {
    expect(await page(`?before=${all[TOTAL - 1]}`)).toEqual(all.slice(TOTAL - 21, TOTAL - 1));
    expect(await page('')).toEqual(all.slice(-20));
  });
  it('paging with after from the first message reads every later one once, in order, and ends with an empty page', async () => {
    const seen: number[] = [];
    const sizes: number[] = [];
    let cursor = all[0]!;
    for (let pages = 0; pages < 50; pages++) {
      const got = await page(`?after=${cursor}`);
      sizes.push(got.length);
      if (got.length === 0) break;
      seen.push(...got);
      cursor = got[got.length - 1]!;
    }
    expect(seen).toEqual(all.slice(1));
    // 1233 newer messages: twelve full pages, one of 33, then the empty page that ends the list.
    expect(sizes).toEqual([...Array(12).fill(100), 33, 0]);
  });
});

describe('account collections the app reads', () => {
  const A = () => `/api/v1/accounts/${svc.creds.accountId}`;
  it('inboxes: key payload, agents see only their inboxes, hmac_token for administrators only', async () => {
    const admin = (await svc.request({ url: `${A()}/inboxes`, token: svc.creds.adminToken })).body as { payload: { id: number; channel_type: string; hmac_token?: string }[] };
    const agent = (await svc.request({ url: `${A()}/inboxes`, token: svc.creds.agentToken })).body as { payload: { id: number; hmac_token?: string }[] };
    expect(admin.payload.map((i) => i.channel_type)).toEqual(expect.arrayContaining(['Channel::WebWidget', 'Channel::Api']));
    expect(agent.payload.length).toBeLessThan(admin.payload.length);
    expect(admin.payload.every((i) => typeof i.hmac_token === 'string')).toBe(true);
    expect(agent.payload.some((i) => 'hmac_token' in i)).toBe(false);
    const hidden = admin.payload.find((i) => !agent.payload.some((a) => a.id === i.id))!;
    // Same account, inbox the agent is not a member of: a role failure, 401 (chatwoot-compat §6.1).
    const denied = await svc.request({ url: `${A()}/inboxes/${hidden.id}`, token: svc.creds.agentToken });
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ error: 'You are not authorized to do this action' });
  });
  it('agents, teams and canned responses are bare arrays; labels are under payload', async () => {
    for (const path of ['agents', 'teams', 'canned_responses']) {
      const res = await svc.request({ url: `${A()}/${path}`, token: svc.creds.agentToken });
      expect(Array.isArray(res.body), path).toBe(true);
      expect((res.body as unknown[]).length, path).toBeGreaterThan(0);
    }
    const labels = (await svc.request({ url: `${A()}/labels`, token: svc.creds.agentToken })).body as { payload: { title: string }[] };
    expect(labels.payload.map((l) => l.title)).toContain('billing');
  });
  it('canned responses rank short-code prefix matches first', async () => {
    const res = (await svc.request({ url: `${A()}/canned_responses?search=re`, token: svc.creds.agentToken })).body as { short_code: string }[];
    expect(res[0]!.short_code.startsWith('re')).toBe(true);
  });
  it('a contact and its conversations, 404 across accounts', async () => {
    const list = (await svc.request({ url: `${A()}/conversations`, token: svc.creds.agentToken })).body as { data: { payload: { meta: { sender: { id: number } } }[] } };
    const contactId = list.data.payload[0]!.meta.sender.id;
    const contact = (await svc.request({ url: `${A()}/contacts/${contactId}`, token: svc.creds.agentToken })).body as { payload: { id: number } };
    expect(contact.payload.id).toBe(contactId);
    const convs = (await svc.request({ url: `${A()}/contacts/${contactId}/conversations`, token: svc.creds.agentToken })).body as { payload: unknown[] };
    expect(convs.payload.length).toBeGreaterThan(0);
    expect((await svc.request({ url: `/api/v1/accounts/${svc.creds.otherAccountId}/contacts/${contactId}`, token: svc.creds.agentToken })).status).toBe(404);
  });
});
