// Creating and deleting conversations (spec: Application endpoints, Retries; chatwoot-compat §1.2).
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

type Conversation = { id: number; inbox_id: number; status: string; messages: { content: string; message_type: number }[]; meta: { sender: { id: number }; assignee?: { id: number } }; custom_attributes: Record<string, unknown> };
const create = (payload: unknown, token = svc.creds.adminToken) => svc.request({ method: 'POST', url: `${A}/conversations`, token, payload });
const count = () => (svc.db.prepare('SELECT COUNT(*) AS n FROM conversations WHERE account_id = ?').get(svc.creds.accountId) as { n: number }).n;
const contactId = () => (svc.db.prepare('SELECT id FROM contacts WHERE account_id = ? ORDER BY id LIMIT 1').get(svc.creds.accountId) as { id: number }).id;

describe('POST conversations', () => {
  it('creates one from inbox_id + contact_id, with an optional first message, and emits conversation.created', async () => {
    const rec = recordEvents(svc);
    const res = await create({ inbox_id: svc.creds.apiInboxId, contact_id: contactId(), custom_attributes: { order: 'A-1' }, message: { content: 'Hello from support' } });
    expect(res.status).toBe(200);
    const c = res.body as Conversation;
    expect(c).toMatchObject({ inbox_id: svc.creds.apiInboxId, status: 'open', custom_attributes: { order: 'A-1' }, meta: { sender: { id: contactId() } } });
    expect(c.messages).toEqual([expect.objectContaining({ content: 'Hello from support', message_type: 1 })]);
    // The first reply also sets first_reply_created_at (conversation.updated).
    expect(rec.names().filter((n) => !n.startsWith('notification.'))).toEqual(['conversation.created', 'message.created', 'conversation.updated']);
    rec.off();
  });

  it('a retried create makes a second conversation (no deduplication)', async () => {
    const before = count();
    const payload = { inbox_id: svc.creds.apiInboxId, contact_id: contactId() };
    const a = (await create(payload)).body as Conversation;
    const b = (await create(payload)).body as Conversation;
    expect(b.id).not.toBe(a.id);
    expect(count()).toBe(before + 2);
  });

  it('finds the contact inbox by source_id, and a source_id owned by another contact is 422', async () => {
    const first = (await create({ inbox_id: svc.creds.apiInboxId, contact_id: contactId(), source_id: 'ext-42' })).body as Conversation;
    const again = (await create({ source_id: 'ext-42', status: 'pending' })).body as Conversation;
    expect(again.meta.sender.id).toBe(first.meta.sender.id);
    expect(again.status).toBe('pending');
    const other = (svc.db.prepare('SELECT id FROM contacts WHERE account_id = ? AND id != ? LIMIT 1').get(svc.creds.accountId, contactId()) as { id: number }).id;
    const clash = await create({ inbox_id: svc.creds.apiInboxId, contact_id: other, source_id: 'ext-42' });
    expect(clash.status).toBe(422);
    expect(clash.body).toEqual({ message: 'source_id should be unique', attributes: ['source_id'] });
    expect((await create({ source_id: 'nobody-has-this' })).status).toBe(404);
  });

  it('starts resolved when the contact is blocked', async () => {
    const blocked = contactId();
    svc.db.prepare('UPDATE contacts SET blocked = 1 WHERE id = ?').run(blocked);
    const c = (await create({ inbox_id: svc.creds.apiInboxId, contact_id: blocked })).body as Conversation;
    expect(c.status).toBe('resolved');
    svc.db.prepare('UPDATE contacts SET blocked = 0 WHERE id = ?').run(blocked);
  });

  it('assigns at creation an agent of the account; another account\'s user is 422', async () => {
    const sam = userIdOf(svc, AGENT_EMAIL);
    const c = (await create({ inbox_id: svc.creds.apiInboxId, contact_id: contactId(), assignee_id: sam })).body as Conversation;
    expect(c.meta.assignee?.id).toBe(sam);
    const res = await create({ inbox_id: svc.creds.apiInboxId, contact_id: contactId(), assignee_id: userIdOf(svc, 'grace@globex.example') });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: expect.any(String), attributes: ['assignee_id'] });
  });

  it('answers 422 without inbox+contact or source_id, 422 for bad types, 404 for unknown or other-account records, 401 for an inbox the agent is not in', async () => {
    const before = count();
    for (const payload of [{}, { inbox_id: svc.creds.apiInboxId }, { inbox_id: 'x', contact_id: 1 }, { inbox_id: svc.creds.apiInboxId, contact_id: contactId(), status: 'archived' }, { inbox_id: svc.creds.apiInboxId, contact_id: contactId(), custom_attributes: [] }]) {
      const res = await create(payload);
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expectSpecErrorShape(res.body);
    }
    expect((await create({ inbox_id: 99999, contact_id: contactId() })).status).toBe(404);
    expect((await create({ inbox_id: svc.creds.apiInboxId, contact_id: 99999 })).status).toBe(404);
    const globexInbox = (svc.db.prepare('SELECT id FROM inboxes WHERE account_id = ?').get(svc.creds.otherAccountId) as { id: number }).id;
    const globexContact = (svc.db.prepare('SELECT id FROM contacts WHERE account_id = ?').get(svc.creds.otherAccountId) as { id: number }).id;
    expect((await create({ inbox_id: globexInbox, contact_id: contactId() })).status).toBe(404);
    expect((await create({ inbox_id: svc.creds.apiInboxId, contact_id: globexContact })).status).toBe(404);
    const partner = (svc.db.prepare("SELECT id FROM inboxes WHERE name = 'Partner API'").get() as { id: number }).id; // Sam is not a member
    const denied = await create({ inbox_id: partner, contact_id: contactId() }, svc.creds.agentToken);
    expect(denied.status).toBe(401);
    expect(count()).toBe(before);
  });
});

describe('DELETE conversations/{id}', () => {
  it('is for administrators (401 for an agent); deleting twice is 404; the display id is never reused', async () => {
    const c = (await create({ inbox_id: svc.creds.apiInboxId, contact_id: contactId(), message: { content: 'to be deleted' } })).body as Conversation;
    const path = `${A}/conversations/${c.id}`;
    svc.db.prepare('INSERT OR IGNORE INTO inbox_members (inbox_id, user_id) VALUES (?, ?)').run(svc.creds.apiInboxId, userIdOf(svc, AGENT_EMAIL));
    const agent = await svc.request({ method: 'DELETE', url: path, token: svc.creds.agentToken });
    expect(agent.status).toBe(401);
    expect(agent.body).toEqual({ error: 'You are not authorized to do this action' });
    const first = await svc.request({ method: 'DELETE', url: path, token: svc.creds.adminToken });
    expect(first.status).toBe(200);
    expect(first.text).toBe('');
    expect((await svc.request({ url: path, token: svc.creds.adminToken })).status).toBe(404);
    const second = await svc.request({ method: 'DELETE', url: path, token: svc.creds.adminToken });
    expect(second.status).toBe(404);
    const next = (await create({ inbox_id: svc.creds.apiInboxId, contact_id: contactId() })).body as Conversation;
    expect(next.id).toBe(c.id + 1);
  });
});
