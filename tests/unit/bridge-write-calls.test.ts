// The write calls (triage and messages.create): bad input is refused before anything reaches the
// service, each call lands on the service as the operation says, and a POST goes exactly once even
// when the service fails (main retries GETs only; the renderer's outbox decides).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { fetchVia } from '../support/fake-service';
import { signedInCore as signedInCoreOf } from '../support/signed-in-core';
import { agentConversation, conversationRow } from '../server/fixtures';

let svc: DemoService;
const UUID = '0b7c2f6e-1d2a-4c3b-8e9f-a0b1c2d3e4f5';

const signedInCore = (opts: { fetch?: typeof fetch } = {}) => signedInCoreOf(svc, { ...opts, retryAttempts: 3 });

beforeAll(async () => {
  svc = await demoService();
});
afterAll(() => svc.close());

const db = () => svc.db;
const labelsOf = (displayId: number) => (db().prepare('SELECT title FROM conversation_labels WHERE conversation_id = ? ORDER BY title').all(conversationRow(svc, displayId).id) as { title: string }[]).map((r) => r.title);
const messageCount = (displayId: number) => (db().prepare('SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?').get(conversationRow(svc, displayId).id) as { n: number }).n;

describe('input validation', () => {
  it('refuses malformed ids, enums, label sets, snooze times and messages with invalid_input', async () => {
    const { core, requests } = await signedInCore();
    const before = requests.length;
    const bad: [string, unknown][] = [
      ['conversations.toggleStatus', { conversationId: 1, status: 'closed' }],
      ['conversations.toggleStatus', { conversationId: 0, status: 'open' }],
      ['conversations.toggleStatus', { conversationId: 1, status: 'resolved', snoozedUntil: 2_000_000_000 }],
      ['conversations.toggleStatus', { conversationId: 1, status: 'snoozed', snoozedUntil: 1.5 }],
      ['conversations.toggleStatus', { conversationId: '1/../../profile', status: 'open' }],
      ['conversations.togglePriority', { conversationId: 1, priority: 'critical' }],
      ['conversations.assign', { conversationId: 1, assigneeId: -3 }],
      ['conversations.assign', { conversationId: 1 }],
      ['conversations.assignTeam', { conversationId: 1, teamId: 'billing' }],
      ['conversations.setLabels', { conversationId: 1, labels: ['vip', ' '] }],
      ['conversations.setLabels', { conversationId: 1, labels: ['vip', 'vip'] }],
      ['conversations.setLabels', { conversationId: 1, labels: Array.from({ length: 101 }, (_, i) => `l${i}`) }],
      ['conversations.setLabels', { conversationId: 1, labels: ['x'.repeat(256)] }],
      ['conversations.markUnread', { conversationId: 2 ** 60 }],
      ['messages.create', { conversationId: 1, content: '   ', private: false, clientId: UUID }],
      ['messages.create', { conversationId: 1, content: 'x'.repeat(150_001), private: false, clientId: UUID }],
      ['messages.create', { conversationId: 1, content: 'hi', private: false, clientId: 'not-a-uuid' }],
      ['messages.create', { conversationId: 1, content: 'hi', private: 'yes', clientId: UUID }],
    ];
    for (const [name, input] of bad) {
      expect(await core.call(name, input), `${name} ${JSON.stringify(input).slice(0, 60)}`).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    }
    expect(requests.length).toBe(before);
  });
});

describe('against the demo service', () => {
  it('sets status (snooze with a time, until the next reply without), priority, assignee, team, labels', async () => {
    const { core } = await signedInCore();
    const id = agentConversation(svc, "c.status = 'open'");
    expect(await core.call('conversations.toggleStatus', { conversationId: id, status: 'resolved' })).toMatchObject({ ok: true, value: { payload: { current_status: 'resolved', conversation_id: id } } });
    expect(conversationRow(svc, id).status).toBe('resolved');

    const until = Math.floor(svc.clock() / 1000) + 3600;
    const snoozed = await core.call('conversations.toggleStatus', { conversationId: id, status: 'snoozed', snoozedUntil: until });
    expect(snoozed).toMatchObject({ ok: true, value: { payload: { current_status: 'snoozed', snoozed_until: new Date(until * 1000).toISOString() } } });
    await core.call('conversations.toggleStatus', { conversationId: id, status: 'snoozed' });
    expect(conversationRow(svc, id)).toMatchObject({ status: 'snoozed', snoozed_until: null });

    expect(await core.call('conversations.togglePriority', { conversationId: id, priority: 'urgent' })).toEqual({ ok: true, value: null });
    expect(conversationRow(svc, id).priority).toBe('urgent');
    await core.call('conversations.togglePriority', { conversationId: id, priority: null });
    expect(conversationRow(svc, id).priority).toBeNull();

    const jordan = (db().prepare("SELECT id FROM users WHERE email = 'jordan@acme.example'").get() as { id: number }).id;
    expect(await core.call('conversations.assign', { conversationId: id, assigneeId: jordan })).toMatchObject({ ok: true, value: { id: jordan, name: 'Jordan Lee' } });
    expect(conversationRow(svc, id).assignee_id).toBe(jordan);
    expect(await core.call('conversations.assign', { conversationId: id, assigneeId: null })).toEqual({ ok: true, value: null });
    expect(conversationRow(svc, id).assignee_id).toBeNull();

    const billing = (db().prepare("SELECT id FROM teams WHERE name = 'billing'").get() as { id: number }).id;
    expect(await core.call('conversations.assignTeam', { conversationId: id, teamId: billing })).toMatchObject({ ok: true, value: { id: billing, name: 'billing' } });
    expect(conversationRow(svc, id).team_id).toBe(billing);
    expect(await core.call('conversations.assignTeam', { conversationId: id, teamId: null })).toEqual({ ok: true, value: null });

    expect(await core.call('conversations.setLabels', { conversationId: id, labels: ['vip', 'billing'] })).toEqual({ ok: true, value: { payload: ['billing', 'vip'] } });
    expect(labelsOf(id)).toEqual(['billing', 'vip']);
    await core.call('conversations.setLabels', { conversationId: id, labels: ['vip'] });
    expect(labelsOf(id)).toEqual(['vip']);
  });

  it('marks read and unread, answering the conversation', async () => {
    const { core } = await signedInCore();
    const id = agentConversation(svc, 'EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.message_type = 0)');
    const unread = await core.call('conversations.markUnread', { conversationId: id });
    expect(unread.ok && (unread.value as { unread_count: number }).unread_count).toBeGreaterThan(0);
    const read = await core.call('conversations.updateLastSeen', { conversationId: id });
    expect(read).toMatchObject({ ok: true, value: { id, unread_count: 0 } });
  });

  it('messages.create sends a reply or note with echo_id and the marker in content_attributes', async () => {
    const { core } = await signedInCore();
    const id = agentConversation(svc);
    const r = await core.call('messages.create', { conversationId: id, content: 'On it.', private: true, clientId: UUID });
    expect(r).toMatchObject({ ok: true, value: { content: 'On it.', private: true, message_type: 1, echo_id: UUID, content_attributes: { client_message_id: UUID } } });
    const stored = db().prepare('SELECT content_attributes FROM messages WHERE id = ?').get((r as { value: { id: number } }).value.id) as { content_attributes: string };
    expect(JSON.parse(stored.content_attributes)).toEqual({ client_message_id: UUID });
  });

  it('another account\'s conversation is not_found, and nothing changes', async () => {
    const { core } = await signedInCore();
    const globex = (db().prepare('SELECT display_id FROM conversations WHERE account_id = ?').get(svc.creds.otherAccountId) as { display_id: number }).display_id;
    const before = messageCount(globex);
    expect(await core.call('messages.create', { conversationId: globex + 100_000, content: 'x', private: false, clientId: UUID })).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    expect(messageCount(globex)).toBe(before);
  });
});

describe('a failing write goes once', () => {
  it('a 5xx on messages.create is reported, not retried by main (the outbox decides)', async () => {
    let posts = 0;
    const inner = fetchVia(svc);
    const failing: typeof fetch = async (input, init) => {
      if (init?.method === 'POST' && String(input).endsWith('/messages')) {
        posts++;
        // The service stored it, then the answer was lost behind a failing proxy.
        await inner(input, init);
        return new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } });
      }
      return inner(input, init);
    };
    const { core } = await signedInCore({ fetch: failing });
    const id = agentConversation(svc);
    const before = messageCount(id);
    // A send of its own (the client id is also the idempotency key: reusing another test's would replay that send).
    expect(await core.call('messages.create', { conversationId: id, content: 'once', private: false, clientId: randomUUID() })).toMatchObject({ ok: false, error: { kind: 'server' } });
    expect(posts).toBe(1);
    expect(messageCount(id)).toBe(before + 1);
  });
});
