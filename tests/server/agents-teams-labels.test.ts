// Agents, teams (and members), labels and canned responses: bare arrays for the collections, CRUD
// with the administrator checks (a role failure is 401), validation as 422 (chatwoot-compat §1.6-§1.9).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, AGENT_EMAIL, expectSpecErrorShape, userIdOf } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

const call = (method: string, path: string, payload?: unknown, token = svc.creds.adminToken) => svc.request({ method, url: `${A}${path}`, token, ...(payload === undefined ? {} : { payload }) });
const NOT_AUTHORIZED = { error: 'You are not authorized to do this action' };

describe('agents', () => {
  it('GET is a bare array of the whole collection, ordered by name', async () => {
    const res = await call('GET', '/agents', undefined, svc.creds.agentToken);
    const agents = res.body as { name: string; role: string; email: string }[];
    expect(Array.isArray(agents)).toBe(true);
    expect(agents.length).toBe(5);
    expect(agents.map((a) => a.name)).toEqual([...agents.map((a) => a.name)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(agents[0]).toEqual({ id: expect.any(Number), account_id: svc.creds.accountId, availability_status: expect.any(String), auto_offline: expect.any(Boolean), confirmed: true, email: expect.any(String), provider: 'email', available_name: expect.any(String), name: expect.any(String), role: expect.any(String), thumbnail: '' });
  });

  it('an administrator adds, changes and removes an agent; an agent gets 401 for each', async () => {
    for (const [method, path] of [['POST', '/agents'], ['PATCH', `/agents/${userIdOf(svc, AGENT_EMAIL)}`], ['DELETE', `/agents/${userIdOf(svc, AGENT_EMAIL)}`]] as const) {
      const res = await call(method, path, { agent: { email: 'x@acme.example', name: 'X' } }, svc.creds.agentToken);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toEqual(NOT_AUTHORIZED);
    }
    const created = await call('POST', '/agents', { agent: { email: 'New.Person@Acme.example', name: 'New Person', role: 'agent' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ email: 'new.person@acme.example', name: 'New Person', role: 'agent' });
    const id = (created.body as { id: number }).id;
    // The new agent can use the API with its own token.
    const token = (svc.db.prepare("SELECT token FROM access_tokens WHERE owner_type = 'User' AND owner_id = ?").get(id) as { token: string }).token;
    expect((await svc.request({ url: `${A}/conversations`, token })).status).toBe(200);
    const dup = await call('POST', '/agents', { email: 'new.person@acme.example' });
    expect(dup.status).toBe(422);
    expect(dup.body).toEqual({ message: 'Email has already been taken', attributes: ['email'] });
    const changed = await call('PUT', `/agents/${id}`, { role: 'administrator', availability: 'busy' });
    expect(changed.body).toMatchObject({ id, role: 'administrator', availability_status: 'busy' });
    expect((await call('DELETE', `/agents/${id}`)).status).toBe(200);
    expect((await call('DELETE', `/agents/${id}`)).status).toBe(404);
    expect((await svc.request({ url: `${A}/conversations`, token })).status).toBe(404);
  });

  it('rejects invalid agent fields with 422', async () => {
    for (const payload of [{}, { email: 'nope' }, { email: 'ok@acme.example', role: 'owner' }, { email: 'ok@acme.example', availability: 'away' }]) {
      const res = await call('POST', '/agents', payload);
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expectSpecErrorShape(res.body);
    }
  });
});

describe('teams and team members', () => {
  it('lists (bare array), shows, creates (lower-cased, unique), updates and deletes teams; agents may read, not write', async () => {
    const list = (await call('GET', '/teams', undefined, svc.creds.agentToken)).body as { id: number; name: string; is_member: boolean }[];
    expect(list.map((t) => t.name)).toEqual(['billing', 'technical support', 'sales']);
    expect(list.find((t) => t.name === 'billing')!.is_member).toBe(true);
    expect((await call('POST', '/teams', { team: { name: 'Escalations' } }, svc.creds.agentToken)).status).toBe(401);
    const created = await call('POST', '/teams', { team: { name: 'Escalations', description: 'Hard cases', allow_auto_assign: false } });
    expect(created.body).toMatchObject({ name: 'escalations', description: 'Hard cases', allow_auto_assign: false, is_member: false });
    const id = (created.body as { id: number }).id;
    expect((await call('POST', '/teams', { name: 'ESCALATIONS' })).body).toEqual({ message: 'Name has already been taken', attributes: ['name'] });
    expect((await call('GET', `/teams/${id}`, undefined, svc.creds.agentToken)).body).toMatchObject({ id, name: 'escalations' });
    expect((await call('PATCH', `/teams/${id}`, { description: 'Very hard cases' })).body).toMatchObject({ id, name: 'escalations', description: 'Very hard cases' });
    expect((await call('DELETE', `/teams/${id}`)).status).toBe(200);
    expect((await call('GET', `/teams/${id}`)).status).toBe(404);
    expect((await call('DELETE', `/teams/${id}`)).status).toBe(404);
  });

  it('team members: POST adds (answers the newly added), PATCH sets the exact list, DELETE removes; ids outside the account are 422', async () => {
    const team = (svc.db.prepare("SELECT id FROM teams WHERE name = 'sales'").get() as { id: number }).id;
    const sam = userIdOf(svc, AGENT_EMAIL);
    const jordan = userIdOf(svc, 'jordan@acme.example');
    const M = `/teams/${team}/team_members`;
    const before = ((await call('GET', M, undefined, svc.creds.agentToken)).body as { id: number }[]).map((a) => a.id);
    const added = (await call('POST', M, { user_ids: [sam, ...before] })).body as { id: number }[];
    expect(added.map((a) => a.id)).toEqual([sam]);
    const set = (await call('PATCH', M, { user_ids: [jordan] })).body as { id: number }[];
    expect(set.map((a) => a.id)).toEqual([jordan]);
    expect((await call('DELETE', M, { user_ids: [jordan] })).status).toBe(200);
    expect((await call('GET', M)).body).toEqual([]);
    const invalid = await call('POST', M, { user_ids: [userIdOf(svc, 'grace@globex.example')] });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toEqual({ message: 'Invalid User IDs', attributes: ['user_ids'] });
    expect((await call('POST', M, { user_ids: [sam] }, svc.creds.agentToken)).status).toBe(401);
  });
});

describe('labels', () => {
  it('everyone lists under payload; administrators show, create (lower-cased, validated, unique), update, delete', async () => {
    expect(((await call('GET', '/labels', undefined, svc.creds.agentToken)).body as { payload: unknown[] }).payload.length).toBe(8);
    expect((await call('POST', '/labels', { label: { title: 'x' } }, svc.creds.agentToken)).status).toBe(401);
    const created = await call('POST', '/labels', { label: { title: 'Churn-Risk', description: 'May leave', color: '#ff0000', show_on_sidebar: false } });
    expect(created.body).toEqual({ id: expect.any(Number), title: 'churn-risk', description: 'May leave', color: '#ff0000', show_on_sidebar: false });
    const id = (created.body as { id: number }).id;
    expect((await call('GET', `/labels/${id}`, undefined, svc.creds.agentToken)).status).toBe(401);
    expect((await call('GET', `/labels/${id}`)).body).toMatchObject({ id, title: 'churn-risk' });
    for (const payload of [{ title: 'churn-risk' }, { title: 'has space' }, { title: '' }, { title: 'ok', color: 'red' }]) {
      const res = await call('POST', '/labels', payload);
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expectSpecErrorShape(res.body);
    }
    expect((await call('PUT', `/labels/${id}`, { color: '#00ff00' })).body).toMatchObject({ title: 'churn-risk', color: '#00ff00' });
    expect((await call('DELETE', `/labels/${id}`)).status).toBe(200);
    expect((await call('DELETE', `/labels/${id}`)).status).toBe(404);
  });
});

describe('canned responses', () => {
  it('a bare array of raw models; any member creates, updates and deletes; short codes are unique', async () => {
    const list = (await call('GET', '/canned_responses', undefined, svc.creds.agentToken)).body as Record<string, unknown>[];
    expect(list[0]).toEqual({ id: expect.any(Number), content: expect.any(String), short_code: expect.any(String), account_id: svc.creds.accountId, created_at: expect.stringMatching(/Z$/), updated_at: expect.stringMatching(/Z$/) });
    const created = await call('POST', '/canned_responses', { canned_response: { short_code: 'bye', content: 'Goodbye!' } }, svc.creds.agentToken);
    expect(created.body).toMatchObject({ short_code: 'bye', content: 'Goodbye!' });
    const id = (created.body as { id: number }).id;
    expect((await call('POST', '/canned_responses', { short_code: 'bye', content: 'again' }, svc.creds.agentToken)).body).toEqual({ message: 'Short code has already been taken', attributes: ['short_code'] });
    expect((await call('POST', '/canned_responses', { short_code: 'x' }, svc.creds.agentToken)).status).toBe(422);
    expect((await call('PATCH', `/canned_responses/${id}`, { content: 'See you!' }, svc.creds.agentToken)).body).toMatchObject({ id, short_code: 'bye', content: 'See you!' });
    expect((await call('DELETE', `/canned_responses/${id}`, undefined, svc.creds.agentToken)).status).toBe(200);
    expect((await call('DELETE', `/canned_responses/${id}`, undefined, svc.creds.agentToken)).status).toBe(404);
  });
});
