// The shared domain writes: conversation bookkeeping on new messages, and events after commit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../server/events/bus';
import { EventBus } from '../../server/events/bus';
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

  it("a message takes the change sequence's next value in its insert, and the insert trigger does not write its row again (migration 9)", () => {
    const conv = svc.db.prepare("SELECT * FROM conversations WHERE status = 'open' AND account_id = ? LIMIT 1").get(svc.creds.accountId) as Parameters<typeof createMessage>[1]['conversation'];
    const changes = () => (svc.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    const sequence = () => (svc.db.prepare('SELECT value FROM change_sequence WHERE id = 1').get() as { value: number }).value;
    const before = changes();
    // A bus of its own: listeners (notifications, reports) write rows of their own.
    const m = createMessage({ db: svc.db, bus: new EventBus(), now: DEMO_NOW + 6000 }, { conversation: conv, messageType: 0, content: 'once', sender: { type: 'Contact', id: conv.contact_id } });
    // The insert, its sequence step; the conversation's update, its sequence step and change_seq;
    // the contact's last activity. The message row's second write (the trigger's) was one more.
    expect(changes() - before).toBe(6);
    const row = svc.db.prepare('SELECT change_seq FROM messages WHERE id = ?').get(m.id) as { change_seq: number };
    const conversationSeq = (svc.db.prepare('SELECT change_seq FROM conversations WHERE id = ?').get(conv.id) as { change_seq: number }).change_seq;
    expect([row.change_seq, conversationSeq]).toEqual([sequence() - 1, sequence()]);
    // The row the create answers (its insert's RETURNING) is the row as stored, keys in order.
    const stored = svc.db.prepare('SELECT * FROM messages WHERE id = ?').get(m.id) as object;
    expect(m).toEqual(stored);
    expect(Object.keys(m)).toEqual(Object.keys(stored));
    // An insert that names no change_seq still gets the next value from the trigger.
    const raw = svc.db
      .prepare("INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, created_at, updated_at) VALUES (?, ?, ?, 0, 'raw', 1, 1)")
      .run(conv.account_id, conv.inbox_id, conv.id).lastInsertRowid;
    expect(svc.db.prepare('SELECT change_seq FROM messages WHERE id = ?').get(raw)).toEqual({ change_seq: sequence() });
  });
});
