// Contacts, their labels and notes (spec: Application endpoints, Pagination, Retries; chatwoot-compat §1.4, §2.7, §2.13).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, AGENT_EMAIL, expectSpecErrorShape, recordEvents, userIdOf } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

type Contact = { id: number; name: string; email: string | null; phone_number: string | null; identifier: string | null; blocked: boolean; custom_attributes: Record<string, unknown>; additional_attributes: Record<string, unknown>; contact_inboxes?: { source_id: string; inbox: { id: number; channel_type: string } }[] };
type List = { meta: { count: number; current_page: number }; payload: Contact[] };
const get = async <T>(path: string, token = svc.creds.agentToken) => (await svc.request({ url: `${A}${path}`, token })).body as T;
const resolvedCount = () =>
  (svc.db.prepare("SELECT COUNT(*) AS n FROM contacts WHERE account_id = ? AND (COALESCE(email,'') != '' OR COALESCE(phone_number,'') != '' OR COALESCE(identifier,'') != '')").get(svc.creds.accountId) as { n: number }).n;

describe('GET contacts (15 a page, {meta:{count, current_page}, payload})', () => {
  it('pages 15 at a time over resolved contacts and ends with an empty page', async () => {
    const seen: number[] = [];
    for (let page = 1; ; page++) {
      const list = await get<List>(`/contacts?page=${page}`);
      expect(list.meta).toEqual({ count: resolvedCount(), current_page: page });
      if (list.payload.length === 0) break;
      expect(list.payload.length).toBeLessThanOrEqual(15);
      seen.push(...list.payload.map((c) => c.id));
    }
    expect(seen.length).toBe(resolvedCount());
    expect(new Set(seen).size).toBe(seen.length);
    const first = await get<List>('/contacts');
    expect(first.meta.current_page).toBe(1);
    expect(first.payload.length).toBe(15);
    expect(first.payload.every((c) => c.email || c.phone_number || c.identifier)).toBe(true);
  });

  it('sorts by an allowed attribute, descending with a leading minus; includes contact_inboxes unless asked not to', async () => {
    const names = (await get<List>('/contacts?sort=-name')).payload.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    const withInboxes = (await get<List>('/contacts')).payload;
    expect(withInboxes.every((c) => Array.isArray(c.contact_inboxes))).toBe(true);
    const without = (await get<List>('/contacts?include_contact_inboxes=false')).payload;
    expect(without.every((c) => !('contact_inboxes' in c))).toBe(true);
  });

  it('answers 400 for a malformed page', async () => {
    const res = await svc.request({ url: `${A}/contacts?page=two`, token: svc.creds.agentToken });
    expect(res.status).toBe(400);
    expectSpecErrorShape(res.body);
  });
});

describe('GET contacts/search', () => {
  it('matches name, email, phone and identifier, with the list shape', async () => {
    const sample = svc.db.prepare("SELECT name, email FROM contacts WHERE account_id = ? AND email IS NOT NULL LIMIT 1").get(svc.creds.accountId) as { name: string; email: string };
    const byEmail = await get<List>(`/contacts/search?q=${encodeURIComponent(sample.email)}`);
    expect(byEmail.payload.map((c) => c.email)).toContain(sample.email);
    const lastName = sample.name.split(' ')[1]!;
    const byName = await get<List>(`/contacts/search?q=${encodeURIComponent(lastName.toLowerCase())}`);
    expect(byName.payload.length).toBeGreaterThan(0);
    expect(byName.payload.every((c) => c.name.toLowerCase().includes(lastName.toLowerCase()) || (c.email ?? '').includes(lastName.toLowerCase()))).toBe(true);
    expect(byName.meta.current_page).toBe(1);
  });
  it('answers 422 without q', async () => {
    const res = await svc.request({ url: `${A}/contacts/search`, token: svc.creds.agentToken });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'Specify search string with parameter q', attributes: ['q'] });
  });
});

describe('POST contacts', () => {
  it('creates a contact ({payload:{contact, contact_inbox}}), with a contact inbox when inbox_id is given, and emits contact.created', async () => {
    const rec = recordEvents(svc);
    const res = await svc.request({ method: 'POST', url: `${A}/contacts`, token: svc.creds.agentToken, payload: { name: 'Ada Lovelace', email: 'ada@example.com', phone_number: '+447700900123', custom_attributes: { tier: 'gold' }, inbox_id: svc.creds.apiInboxId } });
    expect(res.status).toBe(200);
    const { payload } = res.body as { payload: { contact: Contact; contact_inbox: { inbox: { id: number; account_id: number }; source_id: string } } };
    expect(payload.contact).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', phone_number: '+447700900123', custom_attributes: { tier: 'gold' }, blocked: false });
    expect(payload.contact_inbox).toMatchObject({ inbox: { id: svc.creds.apiInboxId, account_id: svc.creds.accountId }, source_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(payload.contact.contact_inboxes).toEqual([{ source_id: payload.contact_inbox.source_id, inbox: expect.objectContaining({ id: svc.creds.apiInboxId, channel_type: 'Channel::Api' }) }]);
    expect(rec.events).toEqual([{ name: 'contact.created', accountId: svc.creds.accountId, contactId: payload.contact.id }]);
    rec.off();
    const plain = (await svc.request({ method: 'POST', url: `${A}/contacts`, token: svc.creds.agentToken, payload: { name: 'No Inbox' } })).body as { payload: { contact_inbox: unknown } };
    expect(plain.payload.contact_inbox).toEqual({ inbox: null, source_id: null });
  });

  it('a retried create is a second contact (no deduplication)', async () => {
    const payload = { name: 'Twice', email: 'twice@example.com' };
    const a = (await svc.request({ method: 'POST', url: `${A}/contacts`, token: svc.creds.agentToken, payload })).body as { payload: { contact: Contact } };
    const b = (await svc.request({ method: 'POST', url: `${A}/contacts`, token: svc.creds.agentToken, payload })).body as { payload: { contact: Contact } };
    expect(b.payload.contact.id).not.toBe(a.payload.contact.id);
    expect(svc.db.prepare("SELECT COUNT(*) AS n FROM contacts WHERE email = 'twice@example.com'").get()).toEqual({ n: 2 });
  });

  it('rejects invalid fields with 422 naming them, and creates nothing', async () => {
    const before = svc.db.prepare('SELECT COUNT(*) AS n FROM contacts').get();
    for (const [payload, attribute] of [
      [{ phone_number: '0044 7700' }, 'phone_number'],
      [{ email: 'nope' }, 'email'],
      [{ name: 42 }, 'name'],
      [{ custom_attributes: 'x' }, 'custom_attributes'],
      [{ blocked: 'maybe' }, 'blocked'],
      [{ name: 'x'.repeat(256) }, 'name'],
    ] as const) {
      const res = await svc.request({ method: 'POST', url: `${A}/contacts`, token: svc.creds.agentToken, payload });
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), attributes: [attribute] });
    }
    expect((await svc.request({ method: 'POST', url: `${A}/contacts`, token: svc.creds.agentToken, payload: { name: 'x', inbox_id: 99999 } })).status).toBe(404);
    expect(svc.db.prepare('SELECT COUNT(*) AS n FROM contacts').get()).toEqual(before);
  });
});

describe('PATCH/PUT contacts/{id}', () => {
  it('updates fields and merges attributes; repeating the same body is a no-op; emits contact.updated with changes', async () => {
    const created = (await svc.request({ method: 'POST', url: `${A}/contacts`, token: svc.creds.agentToken, payload: { name: 'Grace', custom_attributes: { a: 1 }, additional_attributes: { city: 'Lisbon' } } })).body as { payload: { contact: Contact } };
    const id = created.payload.contact.id;
    const rec = recordEvents(svc);
    const res = await svc.request({ method: 'PATCH', url: `${A}/contacts/${id}`, token: svc.creds.agentToken, payload: { name: 'Grace H.', custom_attributes: { b: 2 } } });
    expect(res.status).toBe(200);
    expect((res.body as { payload: Contact }).payload).toMatchObject({ id, name: 'Grace H.', custom_attributes: { a: 1, b: 2 }, additional_attributes: { city: 'Lisbon' } });
    expect(rec.events).toEqual([{ name: 'contact.updated', accountId: svc.creds.accountId, contactId: id, changes: { name: ['Grace', 'Grace H.'], custom_attributes: [{ a: 1 }, { a: 1, b: 2 }] } }]);
    rec.clear();
    const again = await svc.request({ method: 'PUT', url: `${A}/contacts/${id}`, token: svc.creds.agentToken, payload: { name: 'Grace H.', custom_attributes: { b: 2 } } });
    expect(again.body).toEqual(res.body);
    expect(rec.events).toEqual([]);
    rec.off();
  });

  it('answers 404 for an unknown or other-account contact and 422 for invalid fields', async () => {
    const globex = (svc.db.prepare('SELECT id FROM contacts WHERE account_id = ?').get(svc.creds.otherAccountId) as { id: number }).id;
    expect((await svc.request({ method: 'PATCH', url: `${A}/contacts/${globex}`, token: svc.creds.adminToken, payload: { name: 'x' } })).status).toBe(404);
    expect((await svc.request({ method: 'PATCH', url: `${A}/contacts/999999`, token: svc.creds.adminToken, payload: { name: 'x' } })).status).toBe(404);
    const res = await svc.request({ method: 'PATCH', url: `${A}/contacts/1`, token: svc.creds.adminToken, payload: { email: 'bad' } });
    expect(res.status).toBe(422);
  });
});

describe('POST contacts/{id}/destroy_custom_attributes', () => {
  it('drops the named custom attributes (update only merges) and answers {payload: contact}; emits contact.updated once, nothing when none was there', async () => {
    const created = (await svc.request({ method: 'POST', url: `${A}/contacts`, token: svc.creds.agentToken, payload: { name: 'Ada', custom_attributes: { plan: 'pro', seats: 4, keep: true } } })).body as { payload: { contact: Contact } };
    const id = created.payload.contact.id;
    const rec = recordEvents(svc);
    const res = await svc.request({ method: 'POST', url: `${A}/contacts/${id}/destroy_custom_attributes`, token: svc.creds.agentToken, payload: { custom_attributes: ['plan', 'seats', 'absent'] } });
    expect(res.status).toBe(200);
    expect((res.body as { payload: Contact }).payload).toMatchObject({ id, custom_attributes: { keep: true } });
    expect(rec.events).toEqual([{ name: 'contact.updated', accountId: svc.creds.accountId, contactId: id, changes: { custom_attributes: [{ plan: 'pro', seats: 4, keep: true }, { keep: true }] } }]);
    rec.clear();
    expect((await svc.request({ method: 'POST', url: `${A}/contacts/${id}/destroy_custom_attributes`, token: svc.creds.agentToken, payload: { custom_attributes: ['plan'] } })).status).toBe(200);
    expect(rec.events).toEqual([]);
    rec.off();
    const bad = await svc.request({ method: 'POST', url: `${A}/contacts/${id}/destroy_custom_attributes`, token: svc.creds.agentToken, payload: { custom_attributes: 'plan' } });
    expect(bad.status).toBe(422);
    expectSpecErrorShape(bad.body);
    expect((await svc.request({ method: 'POST', url: `${A}/contacts/999999/destroy_custom_attributes`, token: svc.creds.agentToken, payload: { custom_attributes: [] } })).status).toBe(404);
  });
});

describe('DELETE contacts/{id}', () => {
  it('is for administrators; deletes the contact and its conversations; a second delete is 404', async () => {
    const id = (svc.db.prepare('SELECT contact_id AS id FROM conversations WHERE account_id = ? LIMIT 1').get(svc.creds.accountId) as { id: number }).id;
    const agent = await svc.request({ method: 'DELETE', url: `${A}/contacts/${id}`, token: svc.creds.agentToken });
    expect(agent.status).toBe(401);
    const rec = recordEvents(svc);
    expect((await svc.request({ method: 'DELETE', url: `${A}/contacts/${id}`, token: svc.creds.adminToken })).status).toBe(200);
    expect(svc.db.prepare('SELECT COUNT(*) AS n FROM conversations WHERE contact_id = ?').get(id)).toEqual({ n: 0 });
    expect(rec.events[0]).toMatchObject({ name: 'contact.deleted', contactId: id, snapshot: { id, type: 'contact' } });
    expect((await svc.request({ method: 'DELETE', url: `${A}/contacts/${id}`, token: svc.creds.adminToken })).status).toBe(404);
    rec.off();
  });
});

describe("a contact's conversations and labels", () => {
  it('conversations: the latest 20, only from inboxes the agent may see', async () => {
    const row = svc.db.prepare('SELECT contact_id AS id, COUNT(*) AS n FROM conversations WHERE account_id = ? GROUP BY contact_id ORDER BY n DESC LIMIT 1').get(svc.creds.accountId) as { id: number; n: number };
    const admin = await get<{ payload: { inbox_id: number }[] }>(`/contacts/${row.id}/conversations`, svc.creds.adminToken);
    expect(admin.payload.length).toBe(Math.min(20, row.n));
    const sam = userIdOf(svc, AGENT_EMAIL);
    const mine = (svc.db.prepare('SELECT inbox_id FROM inbox_members WHERE user_id = ?').all(sam) as { inbox_id: number }[]).map((r) => r.inbox_id);
    const agent = await get<{ payload: { inbox_id: number }[] }>(`/contacts/${row.id}/conversations`);
    expect(agent.payload.every((c) => mine.includes(c.inbox_id))).toBe(true);
  });

  it('labels: GET {payload}, POST replaces the set; malformed is 422', async () => {
    expect(await get(`/contacts/20/labels`)).toEqual({ payload: [] });
    const set = await svc.request({ method: 'POST', url: `${A}/contacts/20/labels`, token: svc.creds.agentToken, payload: { labels: ['vip', 'billing'] } });
    expect(set.body).toEqual({ payload: ['billing', 'vip'] });
    const replaced = await svc.request({ method: 'POST', url: `${A}/contacts/20/labels`, token: svc.creds.agentToken, payload: { labels: ['refund'] } });
    expect(replaced.body).toEqual({ payload: ['refund'] });
    expect(await get(`/contacts/20/labels`)).toEqual({ payload: ['refund'] });
    expect((await svc.request({ method: 'POST', url: `${A}/contacts/20/labels`, token: svc.creds.agentToken, payload: { labels: 'vip' } })).status).toBe(422);
  });

  it('labels filter the contact list', async () => {
    await svc.request({ method: 'POST', url: `${A}/contacts/3/labels`, token: svc.creds.agentToken, payload: { labels: ['wholesale'] } });
    const list = await get<List>('/contacts?labels[]=wholesale');
    expect(list.payload.map((c) => c.id)).toEqual(svc.db.prepare("SELECT c.id FROM contacts c JOIN contact_labels l ON l.contact_id = c.id WHERE l.title = 'wholesale' AND (COALESCE(c.email,'') != '' OR COALESCE(c.phone_number,'') != '' OR COALESCE(c.identifier,'') != '')").all().map((r) => (r as { id: number }).id));
  });
});

describe('contact notes', () => {
  it('create, list (latest first, a bare array), read, update, delete; a deleted note is 404', async () => {
    const N = `${A}/contacts/4/notes`;
    const first = await svc.request({ method: 'POST', url: N, token: svc.creds.agentToken, payload: { note: { content: 'Called about invoice' } } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ content: 'Called about invoice', contact_id: 4, account_id: svc.creds.accountId, user: { id: userIdOf(svc, AGENT_EMAIL), email: AGENT_EMAIL }, created_at: expect.any(Number) });
    svc.setNow(svc.clock() + 1000);
    const second = (await svc.request({ method: 'POST', url: N, token: svc.creds.adminToken, payload: { note: { content: 'Follow up Monday' } } })).body as { id: number };
    const list = (await svc.request({ url: N, token: svc.creds.agentToken })).body as { id: number; content: string }[];
    expect(list.map((n) => n.content)).toEqual(['Follow up Monday', 'Called about invoice']);
    expect((await svc.request({ url: `${N}/${second.id}`, token: svc.creds.agentToken })).body).toMatchObject({ id: second.id });
    const updated = await svc.request({ method: 'PATCH', url: `${N}/${second.id}`, token: svc.creds.agentToken, payload: { note: { content: 'Follow up Tuesday' } } });
    expect(updated.body).toMatchObject({ id: second.id, content: 'Follow up Tuesday' });
    expect((await svc.request({ method: 'DELETE', url: `${N}/${second.id}`, token: svc.creds.agentToken })).status).toBe(200);
    expect((await svc.request({ method: 'DELETE', url: `${N}/${second.id}`, token: svc.creds.agentToken })).status).toBe(404);
    expect((await svc.request({ url: `${N}/${second.id}`, token: svc.creds.agentToken })).status).toBe(404);
    // Rails-style unwrapped attributes work too.
    const flat = await svc.request({ method: 'POST', url: N, token: svc.creds.agentToken, payload: { content: 'Flat body' } });
    expect(flat.body).toMatchObject({ content: 'Flat body' });
  });
  it('rejects a blank or missing note with 422', async () => {
    for (const payload of [{}, { note: {} }, { note: { content: '  ' } }, { note: 'text' }]) {
      const res = await svc.request({ method: 'POST', url: `${A}/contacts/4/notes`, token: svc.creds.agentToken, payload });
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), attributes: ['content'] });
    }
  });
});
