// Notifications: made as the reference does (assignment, new message for the assignee, mentions,
// creation), announced on the bus, and the notifications endpoints (chatwoot-compat §1.11, §2.14).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService, DEMO_NOW } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, ADMIN_EMAIL, AGENT_EMAIL, agentConversation, conversationRow, recordEvents, userIdOf } from './fixtures';

let svc: DemoService;
let A: string;
let sam: number;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
  sam = userIdOf(svc, AGENT_EMAIL);
});
afterAll(() => svc.close());

type Item = { id: number; notification_type: string; push_message_title: string; push_message_body: string; primary_actor_type: string; primary_actor_id: number; primary_actor: { id: number; meta: Record<string, unknown>; messages: unknown[] }; read_at: string | null; secondary_actor: Record<string, unknown> | null; user: { id: number }; snoozed_until: string | null };
type List = { data: { meta: { unread_count: number; count: number; current_page: number }; payload: Item[] } };
const list = async (query = '', token = svc.creds.agentToken) => (await svc.request({ url: `${A}/notifications${query}`, token })).body as List;
const rowsFor = (userId: number, type: string) => svc.db.prepare('SELECT * FROM notifications WHERE user_id = ? AND notification_type = ? ORDER BY id').all(userId, type) as { id: number; primary_actor_id: number; secondary_actor_id: number | null }[];

describe('notifications are made from domain events', () => {
  it('conversation_assignment for the new assignee (not for self-assignment), announced as notification.created', async () => {
    const id = agentConversation(svc, "c.assignee_id IS NULL AND c.status = 'open'");
    const rec = recordEvents(svc);
    await svc.request({ method: 'POST', url: `${A}/conversations/${id}/assignments`, token: svc.creds.adminToken, payload: { assignee_id: sam } });
    const made = rowsFor(sam, 'conversation_assignment').filter((n) => n.primary_actor_id === conversationRow(svc, id).id);
    expect(made.length).toBe(1);
    expect(rec.events).toContainEqual({ name: 'notification.created', accountId: svc.creds.accountId, userId: sam, notificationId: made[0]!.id });
    // The event that caused it was delivered first.
    expect(rec.names().indexOf('assignee.changed')).toBeLessThan(rec.names().indexOf('notification.created'));
    const self = agentConversation(svc, "c.assignee_id IS NULL AND c.status = 'open'");
    await svc.request({ method: 'POST', url: `${A}/conversations/${self}/assignments`, token: svc.creds.agentToken, payload: { assignee_id: sam } });
    expect(rowsFor(sam, 'conversation_assignment').filter((n) => n.primary_actor_id === conversationRow(svc, self).id)).toEqual([]);
    rec.off();
  });

  it('assigned_conversation_new_message for the assignee when someone else writes', async () => {
    const id = agentConversation(svc, 'c.assignee_id = ?', sam);
    const before = rowsFor(sam, 'assigned_conversation_new_message').length;
    await svc.request({ method: 'POST', url: `${A}/conversations/${id}/messages`, token: svc.creds.adminToken, payload: { content: 'I replied for you' } });
    expect(rowsFor(sam, 'assigned_conversation_new_message').length).toBe(before + 1);
    await svc.request({ method: 'POST', url: `${A}/conversations/${id}/messages`, token: svc.creds.agentToken, payload: { content: 'my own reply' } });
    expect(rowsFor(sam, 'assigned_conversation_new_message').length).toBe(before + 1);
  });

  it('conversation_mention for users mentioned in a private note, with conversation.mentioned', async () => {
    const admin = userIdOf(svc, ADMIN_EMAIL);
    const id = agentConversation(svc, 'c.assignee_id = ?', sam);
    const rec = recordEvents(svc);
    const before = rowsFor(sam, 'assigned_conversation_new_message').length;
    const mentionsBefore = rowsFor(sam, 'conversation_mention').length;
    await svc.request({ method: 'POST', url: `${A}/conversations/${id}/messages`, token: svc.creds.adminToken, payload: { content: `[@Sam Patel](mention://user/${sam}/Sam%20Patel) please check`, private: true } });
    const mentions = rowsFor(sam, 'conversation_mention');
    expect(mentions.length).toBe(mentionsBefore + 1);
    expect(mentions.at(-1)!.primary_actor_id).toBe(conversationRow(svc, id).id);
    expect(rec.events).toContainEqual(expect.objectContaining({ name: 'conversation.mentioned', userId: sam, conversationId: conversationRow(svc, id).id, performer: { type: 'user', id: admin } }));
    // Mentioned, so not notified twice for the same message.
    expect(rowsFor(sam, 'assigned_conversation_new_message').length).toBe(before);
    // A mention in a public reply, or of someone outside the inbox, makes nothing.
    const grace = userIdOf(svc, 'grace@globex.example');
    await svc.request({ method: 'POST', url: `${A}/conversations/${id}/messages`, token: svc.creds.adminToken, payload: { content: `[@Grace](mention://user/${grace}/Grace) hi`, private: true } });
    expect(rowsFor(grace, 'conversation_mention')).toEqual([]);
    rec.off();
  });

  it('conversation_creation for every agent of the inbox, not for pending conversations', async () => {
    const agents = (svc.db.prepare('SELECT user_id FROM inbox_members WHERE inbox_id = ?').all(svc.creds.apiInboxId) as { user_id: number }[]).map((r) => r.user_id);
    const created = (await svc.request({ method: 'POST', url: `${A}/conversations`, token: svc.creds.adminToken, payload: { inbox_id: svc.creds.apiInboxId, contact_id: 1 } })).body as { id: number };
    const dbId = conversationRow(svc, created.id).id;
    const notified = (svc.db.prepare("SELECT user_id FROM notifications WHERE notification_type = 'conversation_creation' AND primary_actor_id = ? ORDER BY user_id").all(dbId) as { user_id: number }[]).map((r) => r.user_id);
    expect(notified).toEqual([...agents].sort((a, b) => a - b));
    const pending = (await svc.request({ method: 'POST', url: `${A}/conversations`, token: svc.creds.adminToken, payload: { inbox_id: svc.creds.apiInboxId, contact_id: 1, status: 'pending' } })).body as { id: number };
    expect(svc.db.prepare("SELECT COUNT(*) AS n FROM notifications WHERE primary_actor_id = ?").get(conversationRow(svc, pending.id).id)).toEqual({ n: 0 });
  });
});

describe('GET notifications', () => {
  it('answers {data:{meta:{unread_count, count, current_page}, payload}} with the list item shape, newest first', async () => {
    const res = await list();
    expect(res.data.meta).toEqual({ unread_count: expect.any(Number), count: expect.any(Number), current_page: 1 });
    expect(res.data.meta.count).toBeGreaterThanOrEqual(3);
    const item = res.data.payload.find((n) => n.notification_type === 'conversation_mention' && n.secondary_actor?.private === true)!;
    expect(item).toMatchObject({ primary_actor_type: 'Conversation', primary_actor: { meta: expect.objectContaining({ sender: expect.any(Object) }) }, read_at: null, user: { id: sam }, snoozed_until: null, secondary_actor: expect.objectContaining({ private: true }) });
    expect(item.push_message_title).toBe(`You have been mentioned in conversation (#${item.primary_actor.id})`);
    expect(item.push_message_body).toMatch(/^Alex Rivera: \[@Sam Patel\]/);
    const times = res.data.payload.map((n) => (n as unknown as { last_activity_at: number }).last_activity_at);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('pages 15, ends with an empty page, and each user sees only their own', async () => {
    for (let i = 0; i < 16; i++) svc.db.prepare("INSERT INTO notifications (account_id, user_id, notification_type, primary_actor_type, primary_actor_id, last_activity_at, created_at, updated_at) VALUES (?, ?, 'conversation_creation', 'Conversation', 1, ?, ?, ?)").run(svc.creds.accountId, sam, DEMO_NOW - i, DEMO_NOW, DEMO_NOW);
    const all: number[] = [];
    for (let page = 1; ; page++) {
      const res = await list(`?page=${page}`);
      if (res.data.payload.length === 0) break;
      expect(res.data.payload.length).toBeLessThanOrEqual(15);
      all.push(...res.data.payload.map((n) => n.id));
    }
    expect(all.length).toBe((await list()).data.meta.count);
    expect(all.length).toBeGreaterThan(15);
    const adminIds = (await list('', svc.creds.adminToken)).data.payload.map((n) => n.id);
    expect(adminIds.some((id) => all.includes(id))).toBe(false);
  });

  it('unread_count is a bare integer; read, unread, snooze and read_all change what the list shows', async () => {
    const count = async () => JSON.parse((await svc.request({ url: `${A}/notifications/unread_count`, token: svc.creds.agentToken })).text) as number;
    const start = await count();
    expect(start).toBe((await list()).data.meta.unread_count);
    const first = (await list()).data.payload[0]!;
    const read = await svc.request({ method: 'PATCH', url: `${A}/notifications/${first.id}`, token: svc.creds.agentToken });
    expect(read.body).toMatchObject({ id: first.id, user_id: sam, read_at: expect.any(String), primary_actor_type: 'Conversation' });
    expect(await count()).toBe(start - 1);
    expect((await list()).data.payload.map((n) => n.id)).not.toContain(first.id);
    expect((await list('?includes[]=read')).data.payload.map((n) => n.id)).toContain(first.id);
    await svc.request({ method: 'POST', url: `${A}/notifications/${first.id}/unread`, token: svc.creds.agentToken });
    expect(await count()).toBe(start);
    const until = Math.floor(DEMO_NOW / 1000) + 3600;
    const snoozed = await svc.request({ method: 'POST', url: `${A}/notifications/${first.id}/snooze`, token: svc.creds.agentToken, payload: { snoozed_until: until } });
    expect(snoozed.body).toMatchObject({ snoozed_until: new Date(until * 1000).toISOString() });
    expect((await list()).data.payload.map((n) => n.id)).not.toContain(first.id);
    svc.setNow(DEMO_NOW + 2 * 3600_000);
    expect((await list()).data.payload.map((n) => n.id)).toContain(first.id);
    svc.setNow(DEMO_NOW);
    const rec = recordEvents(svc);
    expect((await svc.request({ method: 'POST', url: `${A}/notifications/read_all`, token: svc.creds.agentToken })).status).toBe(200);
    expect(await count()).toBe(0);
    expect(rec.names().every((n) => n === 'notification.updated')).toBe(true);
    rec.off();
  });

  it('delete one (404 the second time, and for another user\'s), destroy_all; malformed is 400/422', async () => {
    const mine = (await list('?includes[]=read')).data.payload[0]!;
    const adminsOwn = svc.db.prepare('SELECT id FROM notifications WHERE user_id = ? LIMIT 1').get(userIdOf(svc, ADMIN_EMAIL)) as { id: number } | undefined;
    if (adminsOwn) expect((await svc.request({ method: 'DELETE', url: `${A}/notifications/${adminsOwn.id}`, token: svc.creds.agentToken })).status).toBe(404);
    expect((await svc.request({ method: 'DELETE', url: `${A}/notifications/${mine.id}`, token: svc.creds.agentToken })).status).toBe(200);
    expect((await svc.request({ method: 'DELETE', url: `${A}/notifications/${mine.id}`, token: svc.creds.agentToken })).status).toBe(404);
    expect((await svc.request({ url: `${A}/notifications?page=x`, token: svc.creds.agentToken })).status).toBe(400);
    expect((await svc.request({ method: 'POST', url: `${A}/notifications/${(await list('?includes[]=read')).data.payload[0]!.id}/snooze`, token: svc.creds.agentToken, payload: { snoozed_until: 'soon' } })).status).toBe(422);
    expect((await svc.request({ method: 'POST', url: `${A}/notifications/destroy_all`, token: svc.creds.agentToken, payload: { type: 'all' } })).status).toBe(200);
    expect((await list('?includes[]=read&includes[]=snoozed')).data.meta.count).toBe(0);
  });
});
