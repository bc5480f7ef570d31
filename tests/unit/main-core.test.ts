// Main core drives the bridge contract: it validates every call, signs in through the profile
// endpoint, answers reads from the real service, and never returns the token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMainCore } from '../../main/core/core';
import { redactingLogger } from '../../main/core/redact';
import { memoryVault } from '../../main/core/vault';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { fetchVia } from '../support/fake-service';

let svc: DemoService;
const BASE = 'http://service.test';
const logLines: string[] = [];
const requests: { url: string; headers: Record<string, string> }[] = [];

const makeCore = () =>
  createMainCore({
    vault: memoryVault(),
    logger: redactingLogger((_l, line) => logLines.push(line), () => [svc.creds.agentToken]),
    fetch: fetchVia(svc, requests),
    clientOptions: { retry: { attempts: 1, baseMs: 1, maxMs: 1 } },
  });

beforeAll(async () => {
  svc = await demoService();
});
afterAll(() => svc.close());

describe('bridge validation', () => {
  it('refuses unknown call names and malformed input with invalid_input', async () => {
    const core = makeCore();
    expect(await core.call('shell.exec', {})).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('__proto__', {})).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('messages.list', { conversationId: -1 })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('session.signIn', { baseUrl: 'file:///etc/passwd', accessToken: 'x' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('session.signIn', { baseUrl: 'https://evil.example?x=', accessToken: 'x' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
  });

  it('answers not_signed_in before sign-in', async () => {
    expect(await makeCore().call('conversations.list', {})).toMatchObject({ ok: false, error: { kind: 'not_signed_in' } });
  });
});

describe('sign in and read', () => {
  it('rejects a wrong token with unauthorized and stays signed out', async () => {
    const core = makeCore();
    const r = await core.call('session.signIn', { baseUrl: BASE, accessToken: 'wrong-token' });
    expect(r).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    expect(await core.call('session.get', {})).toEqual({ ok: true, value: { status: 'signed_out' } });
  });

  it('signs in through the profile, lists conversations and messages, never returning the token', async () => {
    const core = makeCore();
    const events: unknown[] = [];
    core.onEvent((name, payload) => events.push({ name, payload }));
    const signIn = await core.call('session.signIn', { baseUrl: `${BASE}/`, accessToken: svc.creds.agentToken });
    expect(signIn).toMatchObject({ ok: true, value: { status: 'signed_in', session: { baseUrl: BASE, accountId: svc.creds.accountId, user: { email: 'sam@acme.example' } } } });
    const list = await core.call('conversations.list', { status: 'open', page: 1 });
    expect(list.ok).toBe(true);
    const first = list.ok ? (list.value as { data: { payload: { id: number }[] } }).data.payload[0]! : undefined;
    const messages = await core.call('messages.list', { conversationId: first!.id });
    expect(messages.ok && (messages.value as { payload: unknown[] }).payload.length).toBeGreaterThan(0);

    const everything = JSON.stringify([signIn, list, messages, events, logLines]);
    expect(everything).not.toContain(svc.creds.agentToken);
    expect(everything).not.toContain('pubsub_token');
    // The token did travel, in the header, to the signed-in service only.
    expect(requests.every((r) => r.url.startsWith(`${BASE}/api/`))).toBe(true);
    expect(requests.at(-1)!.headers['api_access_token']).toBe(svc.creds.agentToken);
  });

  it('marks the session expired when the service starts answering 401', async () => {
    const core = makeCore();
    const { token } = (await import('../../server/store/provision')).createUser(svc.db, { name: 'Temp', email: `temp${Date.now()}@acme.example` }, Date.now());
    (await import('../../server/store/provision')).addToAccount(svc.db, svc.creds.accountId, (svc.db.prepare('SELECT owner_id AS id FROM access_tokens WHERE token = ?').get(token) as { id: number }).id, 'agent');
    expect((await core.call('session.signIn', { baseUrl: BASE, accessToken: token })).ok).toBe(true);
    svc.db.prepare('DELETE FROM access_tokens WHERE token = ?').run(token);
    const r = await core.call('conversations.list', {});
    expect(r).toMatchObject({ ok: false, error: { kind: 'session_expired' } });
    expect(await core.call('session.get', {})).toMatchObject({ ok: true, value: { status: 'expired' } });
  });
});
