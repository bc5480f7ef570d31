// Profile, account, account creation, custom filters (chatwoot-compat §1.1, §1.10, §1.15; spec: Retries).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, expectSpecErrorShape } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

type Profile = { id: number; name: string; display_name: string | null; access_token: string; message_signature: string | null; ui_settings: Record<string, unknown>; account_id: number; accounts: { id: number; role: string; availability: string }[] };

describe('profile', () => {
  it('PATCH/PUT change name, display name, signature; ui_settings merge; the same body twice gives the same profile', async () => {
    const first = await svc.request({ method: 'PATCH', url: '/api/v1/profile', token: svc.creds.agentToken, payload: { profile: { display_name: 'Sammy', message_signature: '-- Sam', ui_settings: { theme: 'dark' } } } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ display_name: 'Sammy', available_name: 'Sammy', message_signature: '-- Sam', ui_settings: { theme: 'dark' } });
    const second = await svc.request({ method: 'PUT', url: '/api/v1/profile', token: svc.creds.agentToken, payload: { ui_settings: { density: 'compact' } } });
    expect((second.body as Profile).ui_settings).toEqual({ theme: 'dark', density: 'compact' });
    const again = await svc.request({ method: 'PUT', url: '/api/v1/profile', token: svc.creds.agentToken, payload: { ui_settings: { density: 'compact' } } });
    expect(again.body).toEqual(second.body);
  });
  it('no profile parameters is 422; a taken email is 422; passwords are refused; bots are 401', async () => {
    const none = await svc.request({ method: 'PATCH', url: '/api/v1/profile', token: svc.creds.agentToken, payload: {} });
    expect(none.status).toBe(422);
    expect(none.body).toEqual({ message: 'param is missing or the value is empty: profile', attributes: ['profile'] });
    expect((await svc.request({ method: 'PATCH', url: '/api/v1/profile', token: svc.creds.agentToken, payload: { profile: { email: 'alex@acme.example' } } })).status).toBe(422);
    expect((await svc.request({ method: 'PATCH', url: '/api/v1/profile', token: svc.creds.agentToken, payload: { profile: { password: 'x' } } })).status).toBe(422);
  });
  it('availability per account, and reset_access_token invalidates the old token at once', async () => {
    const res = await svc.request({ method: 'POST', url: '/api/v1/profile/availability', token: svc.creds.adminToken, payload: { profile: { account_id: svc.creds.accountId, availability: 'busy' } } });
    expect((res.body as Profile).accounts[0]).toMatchObject({ id: svc.creds.accountId, availability: 'busy' });
    expect((await svc.request({ method: 'POST', url: '/api/v1/profile/availability', token: svc.creds.adminToken, payload: { profile: { account_id: svc.creds.otherAccountId, availability: 'busy' } } })).status).toBe(404);
    const old = svc.creds.otherAccountAdminToken;
    const reset = (await svc.request({ method: 'POST', url: '/api/v1/profile/reset_access_token', token: old })).body as Profile;
    expect(reset.access_token).not.toBe(old);
    expect((await svc.request({ url: '/api/v1/profile', token: old })).body).toEqual({ error: 'Invalid Access Token' });
    expect((await svc.request({ url: '/api/v1/profile', token: reset.access_token })).status).toBe(200);
    svc.creds.otherAccountAdminToken = reset.access_token;
  });
});

describe('account', () => {
  it('members read it; administrators change it (agents get 401); another account is 404', async () => {
    const res = await svc.request({ url: A, token: svc.creds.agentToken });
    expect(res.body).toMatchObject({ id: svc.creds.accountId, name: 'Acme Support', locale: 'en', status: 'active', custom_attributes: {} });
    expect((await svc.request({ method: 'PATCH', url: A, token: svc.creds.agentToken, payload: { name: 'Hacked' } })).status).toBe(401);
    const changed = await svc.request({ method: 'PATCH', url: A, token: svc.creds.adminToken, payload: { name: 'Acme Help', support_email: 'help@acme.example', auto_resolve_duration: 7 } });
    expect(changed.body).toMatchObject({ name: 'Acme Help', support_email: 'help@acme.example', auto_resolve_duration: 7 });
    expect((await svc.request({ method: 'PATCH', url: A, token: svc.creds.adminToken, payload: { support_email: 'nope' } })).status).toBe(422);
    expect((await svc.request({ url: `/api/v1/accounts/${svc.creds.otherAccountId}`, token: svc.creds.agentToken })).status).toBe(404);
  });

  it('POST /api/v1/accounts signed out: a sign-up makes the account and its administrator and answers {data: profile with access_token}', async () => {
    const res = await svc.request({ method: 'POST', url: '/api/v1/accounts', payload: { account_name: 'Initech', email: 'peter@initech.example', user_full_name: 'Peter Gibbons' } });
    expect(res.status).toBe(200);
    const { data } = res.body as { data: Profile };
    expect(data).toMatchObject({ name: 'Peter Gibbons', email: 'peter@initech.example', role: 'administrator', accounts: [expect.objectContaining({ name: 'Initech', role: 'administrator' })] });
    const conversations = await svc.request({ url: `/api/v1/accounts/${data.account_id}/conversations`, token: data.access_token });
    expect(conversations.body).toEqual({ data: { meta: { mine_count: 0, assigned_count: 0, unassigned_count: 0, all_count: 0 }, payload: [] } });
    const again = await svc.request({ method: 'POST', url: '/api/v1/accounts', payload: { account_name: 'Initech', email: 'peter@initech.example' } });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ message: 'Email has already been taken', attributes: ['email'] });
    for (const payload of [{}, { account_name: 'x' }, { account_name: '', email: 'a@b.example' }, { account_name: 'x', email: 'bad' }]) {
      const bad = await svc.request({ method: 'POST', url: '/api/v1/accounts', payload });
      expect(bad.status, JSON.stringify(payload)).toBe(422);
      expectSpecErrorShape(bad.body);
    }
  });

  it('POST /api/v1/accounts signed in adds an account for the caller; a retry makes a second one', async () => {
    const count = () => (svc.db.prepare("SELECT COUNT(*) AS n FROM accounts WHERE name = 'Side Project'").get() as { n: number }).n;
    const a = (await svc.request({ method: 'POST', url: '/api/v1/accounts', token: svc.creds.agentToken, payload: { account_name: 'Side Project' } })).body as { data: Profile };
    const b = (await svc.request({ method: 'POST', url: '/api/v1/accounts', token: svc.creds.agentToken, payload: { account_name: 'Side Project' } })).body as { data: Profile };
    expect(count()).toBe(2);
    expect(b.data.accounts.map((x) => x.id)).toEqual(expect.arrayContaining(a.data.accounts.map((x) => x.id)));
    expect((await svc.request({ method: 'POST', url: '/api/v1/accounts', token: 'wrong', payload: { account_name: 'x' } })).status).toBe(401);
  });
});

describe('custom filters', () => {
  const F = () => `${A}/custom_filters`;
  it('are per user and type, a bare array; create, show, update, delete (204, then 404)', async () => {
    const created = await svc.request({ method: 'POST', url: F(), token: svc.creds.agentToken, payload: { custom_filter: { name: 'My urgent', filter_type: 'conversation', query: { payload: [{ attribute_key: 'priority', filter_operator: 'equal_to', values: ['urgent'] }] } } } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'My urgent', filter_type: 'conversation', query: { payload: [expect.any(Object)] }, created_at: expect.stringMatching(/Z$/) });
    const id = (created.body as { id: number }).id;
    await svc.request({ method: 'POST', url: F(), token: svc.creds.agentToken, payload: { name: 'Contact filter', filter_type: 'contact', query: {} } });
    const names = async (query: string, token: string) => ((await svc.request({ url: `${F()}${query}`, token })).body as { name: string }[]).map((f) => f.name);
    // The demo seeds Sam "Urgent billing" (conversation) and "VIP contacts" (contact).
    expect(await names('', svc.creds.agentToken)).toEqual(['Urgent billing', 'My urgent']);
    expect(await names('?filter_type=contact', svc.creds.agentToken)).toEqual(['VIP contacts', 'Contact filter']);
    expect(await names('', svc.creds.adminToken)).toEqual([]);
    expect((await svc.request({ url: `${F()}/${id}`, token: svc.creds.adminToken })).status).toBe(404);
    expect((await svc.request({ method: 'PATCH', url: `${F()}/${id}`, token: svc.creds.agentToken, payload: { name: 'Urgent only' } })).body).toMatchObject({ id, name: 'Urgent only', filter_type: 'conversation' });
    const deleted = await svc.request({ method: 'DELETE', url: `${F()}/${id}`, token: svc.creds.agentToken });
    expect(deleted.status).toBe(204);
    expect((await svc.request({ method: 'DELETE', url: `${F()}/${id}`, token: svc.creds.agentToken })).status).toBe(404);
  });
  it('rejects invalid filters (422) and an unknown filter_type query (400)', async () => {
    for (const payload of [{}, { name: 'x' }, { name: 'x', query: [] }, { name: 'x', query: {}, filter_type: 'report_card' }]) {
      const res = await svc.request({ method: 'POST', url: F(), token: svc.creds.agentToken, payload });
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expectSpecErrorShape(res.body);
    }
    expect((await svc.request({ url: `${F()}?filter_type=banana`, token: svc.creds.agentToken })).status).toBe(400);
  });
  it('allows at most 1000 per user per account', async () => {
    const insert = svc.db.prepare("INSERT INTO custom_filters (account_id, user_id, name, filter_type, query, created_at, updated_at) VALUES (?, (SELECT id FROM users WHERE email = 'jordan@acme.example'), ?, 'conversation', '{}', 0, 0)");
    svc.db.transaction(() => {
      for (let i = 0; i < 1000; i++) insert.run(svc.creds.accountId, `f${i}`);
    })();
    const jordanToken = (svc.db.prepare("SELECT token FROM access_tokens t JOIN users u ON u.id = t.owner_id WHERE u.email = 'jordan@acme.example'").get() as { token: string }).token;
    const res = await svc.request({ method: 'POST', url: F(), token: jordanToken, payload: { name: 'one more', query: {} } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: expect.stringContaining('Account Limit reached'), attributes: ['account_id'] });
    expect(((await svc.request({ url: F(), token: jordanToken })).body as unknown[]).length).toBe(1000);
  });
});
