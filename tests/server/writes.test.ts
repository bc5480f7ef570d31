// The shared domain writes: conversation bookkeeping on new messages, and events after commit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../server/events/bus';
import { conversationByDisplayId } from '../../server/store/conversations';
import { createContact, createConversation, createMessage } from '../../server/store/writes';
import { createContactInbox } from '../../server/store/provision';
import { DEMO_NOW, demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';

let svc: DemoService;
const events: DomainEvent[] = [];
beforeAll(async () => {
  svc = await demoService();
  svc.bus.on((e) => events.push(e));
});
afterAll(() => svc.close());

describe('writes', () => {
  it('creates a contact and a conversation with events, and tracks waiting and first reply', async () => {
    const ctx = (now: number) => ({ db: svc.db, bus: svc.bus, now });
    const contact = createContact(ctx(DEMO_NOW), { accountId: svc.creds.accountId, name: 'Test Person' });
    const ci = createContactInbox(svc.db, contact.id, svc.creds.apiInboxId, DEMO_NOW);
    const conv = createConversation(ctx(DEMO_NOW), { accountId: svc.creds.accountId, inboxId: svc.creds.apiInboxId, contactId: contact.id, contactInboxId: ci.id });
    // Notifications (made by the notifier from these events) are tested in notifications.test.ts.
    expect(events.map((e) => e.name).filter((n) => !n.startsWith('notification.'))).toEqual(['contact.created', 'conversation.created']);

    createMessage(ctx(DEMO_NOW + 1000), { conversation: conv, messageType: 0, content: 'hello', sender: { type: 'Contact', id: contact.id } });
    let row = conversationByDisplayId(svc.db, svc.creds.accountId, conv.display_id)!;
    expect(row.waiting_since).toBe(DEMO_NOW + 1000);
    expect(row.last_activity_at).toBe(DEMO_NOW + 1000);

    createMessage(ctx(DEMO_NOW + 2000), { conversation: row, messageType: 1, content: 'note', private: true, sender: { type: 'User', id: 1 } });
    row = conversationByDisplayId(svc.db, svc.creds.accountId, conv.display_id)!;
    expect(row.waiting_since).toBe(DEMO_NOW + 1000); // a private note is not a reply
    expect(row.first_reply_created_at).toBeNull();

    createMessage(ctx(DEMO_NOW + 3000), { conversation: row, messageType: 1, content: 'hi!', sender: { type: 'User', id: 1 } });
    row = conversationByDisplayId(svc.db, svc.creds.accountId, conv.display_id)!;
    expect(row.waiting_since).toBeNull();
    expect(row.first_reply_created_at).toBe(DEMO_NOW + 3000);
  });

  it('reopens a resolved conversation on a new incoming message, emitting status_changed', async () => {
    const ctx = { db: svc.db, bus: svc.bus, now: DEMO_NOW + 5000 };
    const resolved = svc.db.prepare("SELECT * FROM conversations WHERE status = 'resolved' AND account_id = ? LIMIT 1").get(svc.creds.accountId) as Parameters<typeof createMessage>[1]['conversation'];
    events.length = 0;
    createMessage(ctx, { conversation: resolved, messageType: 0, content: 'back again', sender: { type: 'Contact', id: resolved.contact_id } });
    expect(conversationByDisplayId(svc.db, svc.creds.accountId, resolved.display_id)!.status).toBe('open');
    expect(events.map((e) => e.name)).toEqual(['message.created', 'conversation.status_changed', 'conversation.updated']);
    const changed = events[1] as DomainEvent & { changes?: Record<string, [unknown, unknown]> };
    expect(changed.changes?.status).toEqual(['resolved', 'open']);
  });

  it('emits nothing when the transaction fails', async () => {
    events.length = 0;
    const ctx = { db: svc.db, bus: svc.bus, now: DEMO_NOW };
    expect(() => createConversation(ctx, { accountId: svc.creds.accountId, inboxId: 999_999, contactId: 1, contactInboxId: null })).toThrow();
    expect(events).toEqual([]);
  });
});
