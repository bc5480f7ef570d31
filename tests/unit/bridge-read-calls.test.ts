// The read calls the inbox added (directory, contacts, search, shell.openExternal): bad input is
// refused before anything runs, and the happy paths work against the real demo service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { fetchVia } from '../support/fake-service';
import { signedInCore as signedInCoreOf } from '../support/signed-in-core';

let svc: DemoService;

const signedInCore = (opts: { fetch?: typeof fetch } = {}) => signedInCoreOf(svc, { ...opts });

beforeAll(async () => {
  svc = await demoService();
});
afterAll(() => svc.close());

describe('input validation', () => {
  it('refuses malformed input with invalid_input', async () => {
    const { core } = await signedInCore();
    expect(await core.call('contacts.get', { contactId: 0 })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('contacts.conversations', { contactId: '1/../../profile' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('search.all', { q: '   ' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('search.all', { q: 'x'.repeat(201) })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('cannedResponses.list', { search: 'x'.repeat(501) })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('shell.openExternal', { url: 42 })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
  });
});

describe('directory and contacts against the demo service', () => {
  it('lists inboxes, agents, teams, labels and canned responses', async () => {
    const { core } = await signedInCore();
    const inboxes = await core.call('inboxes.list', {});
    const agents = await core.call('agents.list', {});
    const teams = await core.call('teams.list', {});
    const labels = await core.call('labels.list', {});
    const canned = await core.call('cannedResponses.list', { search: 'refund' });
    expect(inboxes.ok && (inboxes.value as { payload: { name: string }[] }).payload.map((i) => i.name)).toContain('Email support');
    expect(agents.ok && (agents.value as { email: string }[]).map((a) => a.email)).toContain('sam@acme.example');
    expect(teams.ok && (teams.value as { name: string }[]).map((t) => t.name)).toContain('billing');
    expect(labels.ok && (labels.value as { payload: { title: string }[] }).payload.map((l) => l.title)).toContain('vip');
    expect(canned.ok && (canned.value as { short_code: string }[])[0]?.short_code).toBe('refund-policy');
    // The parsed records carry no credential even for an admin-only field.
    expect(JSON.stringify(inboxes)).not.toContain('hmac_token');
  });

  it('reads a contact and its conversations; another account\'s contact is not_found', async () => {
    const { core } = await signedInCore();
    const list = await core.call('conversations.list', { status: 'all' });
    const first = list.ok ? (list.value as { data: { payload: { meta: { sender?: { id: number } } }[] } }).data.payload[0] : undefined;
    const contactId = first!.meta.sender!.id;
    const contact = await core.call('contacts.get', { contactId });
    expect(contact).toMatchObject({ ok: true, value: { payload: { id: contactId } } });
    const convs = await core.call('contacts.conversations', { contactId });
    expect(convs.ok && (convs.value as { payload: unknown[] }).payload.length).toBeGreaterThan(0);
    const globex = svc.db.prepare('SELECT id FROM contacts WHERE account_id = ?').get(svc.creds.otherAccountId) as { id: number };
    expect(await core.call('contacts.get', { contactId: globex.id })).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  });
});

describe('search.all', () => {
  it('asks GET /api/v1/accounts/{id}/search with q and page, and keeps the hits that parse', async () => {
    const seen: string[] = [];
    const inner = fetchVia(svc);
    const fake: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      if (!url.pathname.endsWith('/search')) return inner(input, init);
      seen.push(url.pathname + url.search);
      return new Response(
        JSON.stringify({
          payload: {
            conversations: [{ id: 7, created_at: 1, contact: { id: 3, name: 'Ava' }, message: null }, { id: 'bad' }],
            contacts: [{ id: 3, name: 'Ava', email: 'ava@example.com' }],
            messages: [{ id: 99, content: 'refund please', conversation_id: 7, message_type: 0, created_at: 5 }],
            articles: [{ id: 1 }],
          },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    };
    const { core } = await signedInCore({ fetch: fake });
    const r = await core.call('search.all', { q: ' refund ', page: 2 });
    expect(seen).toEqual([`/api/v1/accounts/${svc.creds.accountId}/search?q=refund&page=2`]);
    expect(r.ok).toBe(true);
    const value = r.ok ? (r.value as { payload: Record<string, unknown[]> }) : undefined;
    expect(value!.payload.conversations).toHaveLength(1);
    expect(value!.payload.contacts).toHaveLength(1);
    expect(value!.payload.messages).toHaveLength(1);
    expect(value!.payload).not.toHaveProperty('articles');
  });

  it('answers not_found where the service has no search endpoint', async () => {
    const { core } = await signedInCore();
    const r = await core.call('search.all', { q: 'refund' });
    expect(r.ok).toBe(true);
    const payload = (r as { value: { payload: { conversations: unknown[]; contacts: unknown[]; messages: { content: string | null }[] } } }).value.payload;
    expect(payload.messages.length).toBeGreaterThan(0);
    expect(payload.messages.every((m) => (m.content ?? '').toLowerCase().includes('refund'))).toBe(true);
  });
});

