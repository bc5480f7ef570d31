// Cross-cutting rules of the spec, one test per rule where no area suite states it already:
// Resources (Inbox), Authentication, Errors and status codes, Pagination, Retries, Limits' other
// constants, Versioning, and durable data (everything survives a restart).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildService } from '../../server/app';
import { seedDemo } from '../../server/demo/seed';
import { demoService, DEMO_NOW } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, agentConversation, expectSpecErrorShape } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

const fingerprint = () =>
  ['contacts', 'conversations', 'messages', 'notifications', 'contact_notes', 'labels', 'teams', 'canned_responses'].map((t) => svc.db.prepare(`SELECT COUNT(*) AS n, '${t}' AS t FROM ${t}`).get()).concat(svc.db.prepare('SELECT MAX(updated_at) AS u FROM conversations').get());

describe('Resources: Inbox', () => {
  // [field, type, nullable] from the spec's Inbox table.
  const fields: [string, 'number' | 'string' | 'boolean' | 'object' | 'array', boolean][] = [
    ['id', 'number', false], ['name', 'string', false], ['channel_id', 'number', false], ['channel_type', 'string', false], ['avatar_url', 'string', false],
    ['website_url', 'string', true], ['widget_color', 'string', true], ['website_token', 'string', true], ['web_widget_script', 'string', true], ['welcome_title', 'string', true],
    ['welcome_tagline', 'string', true], ['greeting_enabled', 'boolean', false], ['greeting_message', 'string', true], ['enable_auto_assignment', 'boolean', false],
    ['auto_assignment_config', 'object', false], ['working_hours_enabled', 'boolean', false], ['working_hours', 'array', false], ['out_of_office_message', 'string', true],
    ['timezone', 'string', false], ['enable_email_collect', 'boolean', false], ['csat_survey_enabled', 'boolean', false], ['csat_config', 'object', false],
    ['callback_webhook_url', 'string', true], ['allow_messages_after_resolved', 'boolean', false], ['lock_to_single_conversation', 'boolean', false], ['sender_name_type', 'string', false],
    ['business_name', 'string', true], ['hmac_mandatory', 'boolean', true], ['hmac_token', 'string', false], ['allowed_domains', 'string', false], ['selected_feature_flags', 'array', true],
    ['reply_time', 'string', true], ['pre_chat_form_enabled', 'boolean', false], ['pre_chat_form_options', 'object', false], ['continuity_via_email', 'boolean', false],
    ['messaging_service_sid', 'string', true], ['phone_number', 'string', true], ['provider', 'string', true], ['medium', 'string', false],
  ];
  const typeOf = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);

  it('is a full object with every field of the spec table, of the declared type (administrator view)', async () => {
    const { payload } = (await svc.request({ url: `${A}/inboxes`, token: svc.creds.adminToken })).body as { payload: Record<string, unknown>[] };
    expect(payload.map((i) => i.channel_type)).toEqual(expect.arrayContaining(['Channel::WebWidget', 'Channel::Api']));
    const problems: string[] = [];
    for (const inbox of payload) {
      for (const [name, type, nullable] of fields) {
        if (!(name in inbox)) problems.push(`${inbox.name}: ${name} missing`);
        else if (!(typeOf(inbox[name]) === type || (nullable && inbox[name] === null))) problems.push(`${inbox.name}: ${name} is ${typeOf(inbox[name])}`);
      }
      for (const entry of inbox.working_hours as Record<string, unknown>[]) {
        expect(Object.keys(entry).sort()).toEqual(['close_hour', 'close_minutes', 'closed_all_day', 'day_of_week', 'open_all_day', 'open_hour', 'open_minutes']);
        expect(entry.day_of_week).toBeGreaterThanOrEqual(0);
        expect(entry.day_of_week).toBeLessThanOrEqual(6);
      }
      const options = inbox.pre_chat_form_options as { pre_chat_fields: Record<string, unknown>[]; pre_chat_message: string };
      expect(typeof options.pre_chat_message).toBe('string');
      for (const f of options.pre_chat_fields) expect(Object.keys(f).sort()).toEqual(['enabled', 'field_type', 'label', 'name', 'required', 'type']);
    }
    expect(problems).toEqual([]);
  });

  it('hmac_token, a credential, is only in administrators\' view', async () => {
    const { payload } = (await svc.request({ url: `${A}/inboxes`, token: svc.creds.agentToken })).body as { payload: Record<string, unknown>[] };
    expect(payload.length).toBeGreaterThan(0);
    expect(payload.some((i) => 'hmac_token' in i)).toBe(false);
  });
});

describe('Authentication (Application family)', () => {
  it('takes the token in the api_access_token header (also spelled Api-Access-Token)', async () => {
    expect((await svc.request({ url: '/api/v1/profile', headers: { 'Api-Access-Token': svc.creds.agentToken } })).status).toBe(200);
    expect((await svc.request({ url: '/api/v1/profile', headers: { api_access_token: svc.creds.agentToken } })).status).toBe(200);
  });
  it('a token is user-scoped: the same token works in every account its user belongs to', async () => {
    const created = (await svc.request({ method: 'POST', url: '/api/v1/accounts', token: svc.creds.agentToken, payload: { account_name: 'Second job' } })).body as { data: { accounts: { id: number; name: string }[] } };
    const second = created.data.accounts.find((a) => a.name === 'Second job')!;
    expect((await svc.request({ url: `/api/v1/accounts/${second.id}/conversations`, token: svc.creds.agentToken })).status).toBe(200);
    expect((await svc.request({ url: `${A}/conversations`, token: svc.creds.agentToken })).status).toBe(200);
  });
  it('a suspended account answers 401 {error: "Account is suspended"} (compat §0)', async () => {
    svc.db.prepare("UPDATE accounts SET status = 'suspended' WHERE id = ?").run(svc.creds.otherAccountId);
    const res = await svc.request({ url: `/api/v1/accounts/${svc.creds.otherAccountId}/conversations`, token: svc.creds.otherAccountAdminToken });
    svc.db.prepare("UPDATE accounts SET status = 'active' WHERE id = ?").run(svc.creds.otherAccountId);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Account is suspended' });
  });
  it('an agent token cannot reach what an administrator token can: 401 {error}', async () => {
    const res = await svc.request({ method: 'POST', url: `${A}/labels`, token: svc.creds.agentToken, payload: { title: 'x' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'You are not authorized to do this action' });
    expect((await svc.request({ method: 'POST', url: `${A}/labels`, token: svc.creds.adminToken, payload: { title: 'x' } })).status).toBe(200);
  });
});

describe('Errors: shapes and status codes', () => {
  it('single message {error}: missing record 404, invalid token 401, permission failure 401, hand-checked administrator 403', async () => {
    const cases = [
      [await svc.request({ url: `${A}/conversations/999999`, token: svc.creds.adminToken }), 404],
      [await svc.request({ url: `${A}/conversations`, token: 'bogus' }), 401],
      [await svc.request({ url: `/api/v2/accounts/${svc.creds.accountId}/reports/summary`, token: svc.creds.agentToken }), 401],
      [await svc.request({ url: `${A}/assignment_policies/1/inboxes`, token: svc.creds.agentToken }), 403],
    ] as const;
    for (const [res, status] of cases) {
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });
  it('validation {message, attributes} for a create or update failing validation (422)', async () => {
    const res = await svc.request({ method: 'POST', url: `${A}/teams`, token: svc.creds.adminToken, payload: { team: { name: '' } } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: expect.any(String), attributes: ['name'] });
  });
  it('not signed in {errors:[string]} only when the header is missing', async () => {
    const res = await svc.request({ url: `${A}/contacts` });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ errors: [expect.any(String)] });
  });
  it('400 for an unparseable body and for malformed query parameters', async () => {
    const body = await svc.request({ method: 'POST', url: `${A}/contacts`, token: svc.creds.adminToken, payload: '{nope' });
    expect(body.status).toBe(400);
    expectSpecErrorShape(body.body);
    const query = await svc.request({ url: `${A}/contacts?page=x`, token: svc.creds.adminToken });
    expect(query.status).toBe(400);
    expectSpecErrorShape(query.body);
  });
  it('never the declared-but-unused schema (description + errors[{field}])', async () => {
    for (const res of [await svc.request({ method: 'POST', url: `${A}/contacts`, token: svc.creds.adminToken, payload: { email: 'x' } }), await svc.request({ url: `${A}/nope`, token: svc.creds.adminToken })]) {
      expect(res.body).not.toHaveProperty('description');
      expectSpecErrorShape(res.body);
    }
  });
});

describe('Pagination', () => {
  it('page is an integer starting at 1; 0, negatives and non-integers are 400', async () => {
    for (const page of ['0', '-1', '1.5', 'one']) expect((await svc.request({ url: `${A}/conversations?page=${page}`, token: svc.creds.adminToken })).status, page).toBe(400);
    const first = (await svc.request({ url: `${A}/conversations?page=1`, token: svc.creds.adminToken })).body;
    expect(first).toEqual((await svc.request({ url: `${A}/conversations`, token: svc.creds.adminToken })).body);
  });
  it('conversation list meta has the four status-bucket counts and no page total', async () => {
    const { data } = (await svc.request({ url: `${A}/conversations`, token: svc.creds.adminToken })).body as { data: { meta: Record<string, number> } };
    expect(Object.keys(data.meta).sort()).toEqual(['all_count', 'assigned_count', 'mine_count', 'unassigned_count']);
  });
  it('message history ignores page; before and after take message ids', async () => {
    const id = agentConversation(svc);
    const plain = (await svc.request({ url: `${A}/conversations/${id}/messages`, token: svc.creds.adminToken })).body;
    expect((await svc.request({ url: `${A}/conversations/${id}/messages?page=7`, token: svc.creds.adminToken })).body).toEqual(plain);
  });
});

describe('Retries and idempotency (Application endpoints)', () => {
  it('GET is safe to retry: the same answer, nothing changed', async () => {
    const before = fingerprint();
    for (const path of ['/conversations', '/contacts', '/notifications', '/conversations/meta', '/agents', '/search?q=refund']) {
      const a = await svc.request({ url: `${A}${path}`, token: svc.creds.agentToken });
      const b = await svc.request({ url: `${A}${path}`, token: svc.creds.agentToken });
      expect(b.body, path).toEqual(a.body);
    }
    expect(fingerprint()).toEqual(before);
  });
  it('PATCH and PUT: repeating the same body gives the same end state', async () => {
    for (const [method, path, payload] of [
      ['PATCH', '/contacts/7', { name: 'Same Name', custom_attributes: { k: 1 } }],
      ['PUT', '/contacts/7', { name: 'Same Name', custom_attributes: { k: 1 } }],
      ['PATCH', `/conversations/${agentConversation(svc)}`, { priority: 'high' }],
      ['PUT', `/labels/1`, { description: 'Payments' }],
      ['PATCH', `/teams/1`, { description: 'Billing team' }],
      ['PUT', '/canned_responses/1', { content: 'Hello!' }],
      ['PATCH', '', { name: 'Acme Support' }],
    ] as const) {
      const first = await svc.request({ method, url: `${A}${path}`, token: svc.creds.adminToken, payload });
      const state = fingerprint();
      const second = await svc.request({ method, url: `${A}${path}`, token: svc.creds.adminToken, payload });
      expect(first.status, path).toBe(200);
      expect(second.body, path).toEqual(first.body);
      expect(fingerprint(), path).toEqual(state);
    }
  });
  it('DELETE on an already-deleted resource is 404', async () => {
    const note = (await svc.request({ method: 'POST', url: `${A}/contacts/8/notes`, token: svc.creds.adminToken, payload: { content: 'n' } })).body as { id: number };
    const filter = (await svc.request({ method: 'POST', url: `${A}/custom_filters`, token: svc.creds.adminToken, payload: { name: 'f', query: {} } })).body as { id: number };
    const canned = (await svc.request({ method: 'POST', url: `${A}/canned_responses`, token: svc.creds.adminToken, payload: { short_code: 'tmp', content: 'x' } })).body as { id: number };
    for (const path of [`/contacts/8/notes/${note.id}`, `/custom_filters/${filter.id}`, `/canned_responses/${canned.id}`, '/labels/8', '/teams/3', '/contacts/9']) {
      expect((await svc.request({ method: 'DELETE', url: `${A}${path}`, token: svc.creds.adminToken })).status, path).toBeLessThan(300);
      const again = await svc.request({ method: 'DELETE', url: `${A}${path}`, token: svc.creds.adminToken });
      expect(again.status, path).toBe(404);
      expect(again.body).toEqual({ error: 'Resource could not be found' });
    }
  });
  // The spec has no client key; this service offers one as an opt-in extension (SYNC-PROTOCOL.md,
  // idempotency-keys.test.ts). A client that does not send it gets the spec's behaviour: duplicates.
  it('no client idempotency key in the spec: a POST retried without the Idempotency-Key extension creates twice', async () => {
    const id = agentConversation(svc);
    const count = () => (svc.db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n;
    const before = count();
    for (let i = 0; i < 2; i++) await svc.request({ method: 'POST', url: `${A}/conversations/${id}/messages`, token: svc.creds.adminToken, payload: { content: 'dup' } });
    expect(count()).toBe(before + 2);
  });
});

describe('Limits: other constants', () => {
  it('agents, teams, canned responses and custom filters are whole collections with no size cap', async () => {
    const insert = svc.db.prepare('INSERT INTO canned_responses (account_id, short_code, content, created_at, updated_at) VALUES (?, ?, ?, 0, 0)');
    svc.db.transaction(() => {
      for (let i = 0; i < 150; i++) insert.run(svc.creds.accountId, `bulk-${i}`, 'text');
    })();
    const all = (await svc.request({ url: `${A}/canned_responses`, token: svc.creds.agentToken })).body as unknown[];
    expect(all.length).toBe((svc.db.prepare('SELECT COUNT(*) AS n FROM canned_responses WHERE account_id = ?').get(svc.creds.accountId) as { n: number }).n);
    expect(all.length).toBeGreaterThan(150);
  });
});

describe('Versioning', () => {
  it('the version is in the path: Application under /api/v1, reports under /api/v2; no version header needed', async () => {
    expect((await svc.request({ url: `${A}/conversations`, token: svc.creds.adminToken })).status).toBe(200);
    expect((await svc.request({ url: `/api/v2/accounts/${svc.creds.accountId}/reports/summary`, token: svc.creds.adminToken })).status).toBe(200);
    expect((await svc.request({ url: `/api/v1/accounts/${svc.creds.accountId}/reports/summary`, token: svc.creds.adminToken })).status).toBe(404);
  });
});

describe('Data: SQLite file, everything survives a restart', () => {
  it('writes made through the API are there after the service is closed and reopened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-restart-'));
    const file = join(dir, 'service.sqlite');
    try {
      let now = DEMO_NOW;
      const first = await buildService({ db: file, clock: () => now });
      const creds = seedDemo(first.db, now);
      const inject = (s: typeof first, method: string, url: string, payload?: object) => s.app.inject({ method: method as 'GET', url, headers: { api_access_token: creds.adminToken }, ...(payload ? { payload } : {}) });
      const P = `/api/v1/accounts/${creds.accountId}`;
      const contact = (await inject(first, 'POST', `${P}/contacts`, { name: 'Durable', email: 'durable@example.com' })).json() as { payload: { contact: { id: number } } };
      await inject(first, 'POST', `${P}/conversations/1/toggle_status`, { status: 'snoozed', snoozed_until: Math.floor(now / 1000) + 60 });
      await inject(first, 'POST', `${P}/contacts/${contact.payload.contact.id}/notes`, { content: 'kept' });
      expect(first.db.pragma('journal_mode', { simple: true })).toBe('wal');
      await first.close();
      now += 1000;
      const second = await buildService({ db: file, clock: () => now });
      expect((await inject(second, 'GET', `${P}/contacts/${contact.payload.contact.id}`)).json()).toMatchObject({ payload: { name: 'Durable' } });
      expect((await inject(second, 'GET', `${P}/conversations/1`)).json()).toMatchObject({ status: 'snoozed', snoozed_until: expect.any(String) });
      expect(((await inject(second, 'GET', `${P}/contacts/${contact.payload.contact.id}/notes`)).json() as { content: string }[]).map((n) => n.content)).toEqual(['kept']);
      expect(second.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(2);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
