// Client family conformance (spec: Endpoints → Client family; Authentication → Client family;
// chatwoot-compat §1.16 for the paths and shapes the spec leaves out).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../server/events/bus';
import { conversationByDisplayId } from '../../server/store/conversations';
import { createMessage } from '../../server/store/writes';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { clientPath, createClientContact, extraTenant } from '../support/public-api';

let svc: DemoService;
const events: DomainEvent[] = [];
beforeAll(async () => {
  svc = await demoService();
  svc.bus.on((e) => events.push(e));
});
afterAll(() => svc.close());

const api = () => svc.creds.apiInboxIdentifier;
type PublicConversation = { id: number; uuid: string; inbox_id: number; status: string; contact_last_seen_at: number; agent_last_seen_at: number; messages: { id: number; message_type: number }[]; contact: { id: number } };
type PublicMessage = { id: number; content: string; message_type: number; conversation_id: number; sender?: { type: string; id: number }; echo_id?: string };

async function newConversation(sourceId: string, inbox = api()) {
  const res = await svc.request({ method: 'POST', url: clientPath(inbox, `/contacts/${sourceId}/conversations`), payload: {} });
  expect(res.status).toBe(200);
  return res.body as PublicConversation;
}

describe('inbox lookup (GET /public/api/v1/inboxes/{inbox_identifier})', () => {
  it('returns the public inbox fields', async () => {
    const res = await svc.request({ url: clientPath(api()) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ identifier: api(), identity_validation_enabled: false, name: 'Mobile app', timezone: expect.any(String), working_hours: expect.any(Array), working_hours_enabled: false, csat_survey_enabled: false, greeting_enabled: false });
  });
  it('answers 404 for an unknown inbox_identifier', async () => {
    const res = await svc.request({ url: clientPath('no-such-inbox') });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
  });
  it('answers 404 when the identifier belongs to an inbox that is not Channel::Api', async () => {
    svc.db.prepare("UPDATE inboxes SET identifier = 'widget-with-identifier' WHERE id = ?").run(svc.creds.widgetInboxId);
    const res = await svc.request({ url: clientPath('widget-with-identifier') });
    expect(res.status).toBe(404);
    const contacts = await svc.request({ method: 'POST', url: clientPath('widget-with-identifier', '/contacts'), payload: {} });
    expect(contacts.status).toBe(404);
    svc.db.prepare('UPDATE inboxes SET identifier = NULL WHERE id = ?').run(svc.creds.widgetInboxId);
  });
});

describe('create a contact (POST …/contacts)', () => {
  it('returns source_id (the contact_identifier), pubsub_token and the contact basics', async () => {
    const c = await createClientContact(svc, api(), { name: 'Ada Client', email: 'ada@client.example' });
    expect(c).toEqual({ source_id: expect.any(String), pubsub_token: expect.any(String), id: expect.any(Number), name: 'Ada Client', email: 'ada@client.example', phone_number: null });
  });
  it('without source_id, every call creates a new contact inbox (a retry duplicates)', async () => {
    const a = await createClientContact(svc, api(), { name: 'Retry Person' });
    const b = await createClientContact(svc, api(), { name: 'Retry Person' });
    expect(a.source_id).not.toBe(b.source_id);
    expect(a.id).not.toBe(b.id);
    expect(a.source_id).toMatch(/^[0-9a-f-]{36}$/);
  });
  it('with a stable source_id, an existing contact inbox is returned unchanged (upsert)', async () => {
    const sourceId = `stable-${Date.now()}-b6f1e0a2c9`;
    const first = await createClientContact(svc, api(), { source_id: sourceId, name: 'First Name' });
    const again = await createClientContact(svc, api(), { source_id: sourceId, name: 'Changed Name', email: 'changed@example.com' });
    expect(again).toEqual(first);
    const count = svc.db.prepare('SELECT COUNT(*) AS n FROM contact_inboxes WHERE source_id = ?').get(sourceId) as { n: number };
    expect(count.n).toBe(1);
  });
  it('rejects a malformed email with 422 {message, attributes} and creates nothing', async () => {
    const before = (svc.db.prepare('SELECT COUNT(*) AS n FROM contacts').get() as { n: number }).n;
    const res = await svc.request({ method: 'POST', url: clientPath(api(), '/contacts'), payload: { email: 'not-an-email' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: expect.any(String), attributes: ['email'] });
    expect((svc.db.prepare('SELECT COUNT(*) AS n FROM contacts').get() as { n: number }).n).toBe(before);
  });
});

describe('read and update a contact', () => {
  it('reads the contact by its contact_identifier', async () => {
    const c = await createClientContact(svc, api(), { name: 'Reader' });
    const res = await svc.request({ url: clientPath(api(), `/contacts/${c.source_id}`) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(c);
  });
  it('answers 404 for a contact_identifier that is not a source_id in that inbox', async () => {
    const c = await createClientContact(svc, api(), { name: 'Elsewhere' });
    expect((await svc.request({ url: clientPath(api(), '/contacts/not-a-source-id') })).status).toBe(404);
    const tenant = extraTenant(svc);
    expect((await svc.request({ url: clientPath(tenant.api.identifier!, `/contacts/${c.source_id}`) })).status).toBe(404);
  });
  it('PATCH returns the Contact record with every spec field; custom attributes merge; identifier is not changed', async () => {
    const c = await createClientContact(svc, api(), { name: 'Patchy', custom_attributes: { plan: 'pro' } });
    const res = await svc.request({ method: 'PATCH', url: clientPath(api(), `/contacts/${c.source_id}`), payload: { name: 'Patched', phone_number: '+351912345678', custom_attributes: { seats: 3 }, identifier: 'ignored-id' } });
    expect(res.status).toBe(200);
    const body = res.body as Record<string, unknown>;
    for (const key of ['id', 'name', 'email', 'phone_number', 'account_id', 'created_at', 'updated_at', 'additional_attributes', 'identifier', 'custom_attributes', 'last_activity_at', 'contact_type', 'middle_name', 'last_name', 'location', 'country_code', 'blocked', 'company_id', 'label_list']) {
      expect(body, key).toHaveProperty(key);
    }
    expect(body).toMatchObject({ id: c.id, name: 'Patched', phone_number: '+351912345678', custom_attributes: { plan: 'pro', seats: 3 }, identifier: null, account_id: svc.creds.accountId, blocked: false, label_list: [] });
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(body.additional_attributes).toMatchObject({ avatar_background_color: expect.any(String), illustration_avatar_index: expect.any(Number) });
    const put = await svc.request({ method: 'PUT', url: clientPath(api(), `/contacts/${c.source_id}`), payload: { name: 'Put Name' } });
    expect(put.status).toBe(200);
    expect((put.body as { name: string }).name).toBe('Put Name');
  });
  it('PATCH answers 404 {error} for an unknown contact_identifier', async () => {
    const res = await svc.request({ method: 'PATCH', url: clientPath(api(), '/contacts/unknown'), payload: { name: 'x' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
  });
});

describe("a contact's conversations", () => {
  it('creates, lists and shows conversations; public_conversation shape', async () => {
    const c = await createClientContact(svc, api(), { name: 'Convo' });
    const created = await newConversation(c.source_id);
    expect(created).toMatchObject({ id: expect.any(Number), uuid: expect.any(String), inbox_id: svc.creds.apiInboxId, status: 'open', contact_last_seen_at: 0, agent_last_seen_at: 0, messages: [], contact: { id: c.id } });
    const list = await svc.request({ url: clientPath(api(), `/contacts/${c.source_id}/conversations`) });
    expect(list.status).toBe(200);
    expect((list.body as PublicConversation[]).map((x) => x.id)).toEqual([created.id]);
    const show = await svc.request({ url: clientPath(api(), `/contacts/${c.source_id}/conversations/${created.id}`) });
    expect(show.status).toBe(200);
    expect((show.body as PublicConversation).uuid).toBe(created.uuid);
  });
  it('answers 404 for a conversation that is not of that contact, or unknown', async () => {
    const mine = await createClientContact(svc, api(), { name: 'Mine' });
    const other = await createClientContact(svc, api(), { name: 'Other' });
    const theirs = await newConversation(other.source_id);
    for (const path of [`/conversations/${theirs.id}`, `/conversations/${theirs.id}/messages`, '/conversations/999999', '/conversations/abc']) {
      const res = await svc.request({ url: clientPath(api(), `/contacts/${mine.source_id}${path}`) });
      expect(res.status, path).toBe(404);
    }
    const post = await svc.request({ method: 'POST', url: clientPath(api(), `/contacts/${mine.source_id}/conversations/${theirs.id}/messages`), payload: { content: 'sneaky' } });
    expect(post.status).toBe(404);
    // A seeded conversation of the demo (another contact) is out of reach too.
    const seeded = svc.db.prepare('SELECT display_id FROM conversations WHERE inbox_id = ? LIMIT 1').get(svc.creds.apiInboxId) as { display_id: number };
    expect((await svc.request({ url: clientPath(api(), `/contacts/${mine.source_id}/conversations/${seeded.display_id}`) })).status).toBe(404);
  });
  it('toggle_status resolves (and stays resolved when repeated)', async () => {
    const c = await createClientContact(svc, api());
    const conv = await newConversation(c.source_id);
    const url = clientPath(api(), `/contacts/${c.source_id}/conversations/${conv.id}/toggle_status`);
    const first = await svc.request({ method: 'POST', url });
    expect(first.status).toBe(200);
    expect((first.body as PublicConversation).status).toBe('resolved');
    events.length = 0;
    const second = await svc.request({ method: 'POST', url });
    expect((second.body as PublicConversation).status).toBe('resolved');
    expect(events.filter((e) => e.name === 'conversation.status_changed')).toEqual([]);
  });
  it('toggle_typing answers 200 and emits typing_on/off from the contact; other values are 422', async () => {
    const c = await createClientContact(svc, api());
    const conv = await newConversation(c.source_id);
    const url = clientPath(api(), `/contacts/${c.source_id}/conversations/${conv.id}/toggle_typing`);
    events.length = 0;
    expect((await svc.request({ method: 'POST', url, payload: { typing_status: 'on' } })).status).toBe(200);
    expect((await svc.request({ method: 'POST', url, payload: { typing_status: 'off' } })).status).toBe(200);
    expect(events.map((e) => e.name)).toEqual(['conversation.typing_on', 'conversation.typing_off']);
    expect(events[0]).toMatchObject({ typer: { type: 'contact', id: c.id } });
    const bad = await svc.request({ method: 'POST', url, payload: { typing_status: 'sideways' } });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ message: expect.any(String), attributes: ['typing_status'] });
  });
  it('update_last_seen records contact_last_seen_at and emits conversation.read', async () => {
    const c = await createClientContact(svc, api());
    const conv = await newConversation(c.source_id);
    svc.setNow(svc.clock() + 60_000);
    events.length = 0;
    const res = await svc.request({ method: 'POST', url: clientPath(api(), `/contacts/${c.source_id}/conversations/${conv.id}/update_last_seen`) });
    expect(res.status).toBe(200);
    expect(events.map((e) => e.name)).toEqual(['conversation.read']);
    const show = await svc.request({ url: clientPath(api(), `/contacts/${c.source_id}/conversations/${conv.id}`) });
    expect((show.body as PublicConversation).contact_last_seen_at).toBe(Math.floor(svc.clock() / 1000));
  });
});

describe('messages', () => {
  it('creates an incoming message from the contact and echoes echo_id', async () => {
    const c = await createClientContact(svc, api(), { name: 'Writer' });
    const conv = await newConversation(c.source_id);
    const res = await svc.request({ method: 'POST', url: clientPath(api(), `/contacts/${c.source_id}/conversations/${conv.id}/messages`), payload: { content: 'Hello there', echo_id: 'tmp-42' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ content: 'Hello there', message_type: 0, conversation_id: conv.id, echo_id: 'tmp-42', sender: { type: 'contact', id: c.id } });
  });
  it('rejects blank content with 422 and stores nothing', async () => {
    const c = await createClientContact(svc, api());
    const conv = await newConversation(c.source_id);
    const res = await svc.request({ method: 'POST', url: clientPath(api(), `/contacts/${c.source_id}/conversations/${conv.id}/messages`), payload: { content: '   ' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: "Content can't be blank", attributes: ['content'] });
    const list = await svc.request({ url: clientPath(api(), `/contacts/${c.source_id}/conversations/${conv.id}/messages`) });
    expect(list.body).toEqual([]);
  });
  it('lists a bare array, 20 at most, private notes and activity left out, paged by `before` only', async () => {
    const c = await createClientContact(svc, api());
    const conv = await newConversation(c.source_id);
    const row = conversationByDisplayId(svc.db, svc.creds.accountId, conv.id)!;
    const ctx = { db: svc.db, bus: svc.bus, now: svc.clock() };
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) {
      ids.push(createMessage(ctx, { conversation: row, messageType: i % 2 ? 1 : 0, content: `m${i}`, sender: i % 2 ? { type: 'User', id: 1 } : { type: 'Contact', id: c.id } }).id);
    }
    createMessage(ctx, { conversation: row, messageType: 1, content: 'secret note', private: true, sender: { type: 'User', id: 1 } });
    createMessage(ctx, { conversation: row, messageType: 2, content: 'Assigned to someone', sender: null });
    const base = clientPath(api(), `/contacts/${c.source_id}/conversations/${conv.id}/messages`);
    const latest = (await svc.request({ url: base })).body as PublicMessage[];
    expect(Array.isArray(latest)).toBe(true);
    expect(latest.map((m) => m.id)).toEqual(ids.slice(5));
    const older = (await svc.request({ url: `${base}?before=${ids[5]}` })).body as PublicMessage[];
    expect(older.map((m) => m.id)).toEqual(ids.slice(0, 5));
    // `after` is not a cursor in this family: it is ignored.
    const withAfter = (await svc.request({ url: `${base}?after=${ids[20]}` })).body as PublicMessage[];
    expect(withAfter.map((m) => m.id)).toEqual(ids.slice(5));
    const show = (await svc.request({ url: clientPath(api(), `/contacts/${c.source_id}/conversations/${conv.id}`) })).body as PublicConversation;
    expect(show.messages.map((m) => m.id)).toEqual(ids);
  });
});

describe('the Client family reaches nothing else', () => {
  it('cannot list contacts, and its identifiers are not Application credentials', async () => {
    const c = await createClientContact(svc, api());
    expect((await svc.request({ url: clientPath(api(), '/contacts') })).status).toBe(404);
    for (const token of [c.source_id, c.pubsub_token, api()]) {
      const res = await svc.request({ url: `/api/v1/accounts/${svc.creds.accountId}/conversations`, token });
      expect(res.status).toBe(401);
    }
  });
  it("cannot read another contact's conversations through the list", async () => {
    const a = await createClientContact(svc, api());
    const b = await createClientContact(svc, api());
    await newConversation(b.source_id);
    const list = await svc.request({ url: clientPath(api(), `/contacts/${a.source_id}/conversations`) });
    expect(list.body).toEqual([]);
  });
});
