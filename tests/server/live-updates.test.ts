// Live updates over socket.io (chatwoot-compat §4): handshake, who receives what, payloads,
// and connection state recovery after a short drop.
import { randomUUID } from 'node:crypto';
import type { Socket as NetSocket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rooms } from '../../server/live/rooms';
import { conversationByDisplayId } from '../../server/store/conversations';
import { createContact, createMessage } from '../../server/store/writes';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { clientPath, createClientContact, extraTenant, hmacHex, startWidget, widgetRequest } from '../support/public-api';
import { HOLD_MS } from '../../server/live/write-coalescing';
import { connectSocket, countTcpWrites } from '../support/sockets';
import type { TestSocket } from '../support/sockets';

let svc: DemoService;
let baseUrl: string;
const open: TestSocket[] = [];
beforeAll(async () => {
  svc = await demoService();
  baseUrl = await svc.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const s of open) s.close();
  await svc.close();
});

const pubsubOf = (email: string) => (svc.db.prepare('SELECT id, pubsub_token FROM users WHERE email = ?').get(email) as { id: number; pubsub_token: string });
async function agent(email: string, accountId = svc.creds.accountId, pubsubToken = pubsubOf(email).pubsub_token) {
  const s = await connectSocket(baseUrl, { pubsub_token: pubsubToken, account_id: accountId });
  open.push(s);
  return s;
}
async function contactSocket(pubsubToken: string) {
  const s = await connectSocket(baseUrl, { pubsub_token: pubsubToken });
  open.push(s);
  return s;
}
async function clientConversation(body: Record<string, unknown> = {}) {
  const c = await createClientContact(svc, svc.creds.apiInboxIdentifier, body);
  const conv = (await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}/conversations`), payload: {} })).body as { id: number };
  return { contact: c, displayId: conv.id, row: () => conversationByDisplayId(svc.db, svc.creds.accountId, conv.id)! };
}
const post = (sourceId: string, displayId: number, content: string, extra: Record<string, unknown> = {}) =>
  svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${sourceId}/conversations/${displayId}/messages`), payload: { content, ...extra } });
const adminId = () => pubsubOf('alex@acme.example').id;
const names = (s: TestSocket) => s.received.map((r) => r.name);
/** Proves a connected agent socket is subscribed: a contact made in its account reaches it (contact events go to every agent). */
async function expectAgentEvents(s: TestSocket, accountId = svc.creds.accountId) {
  const name = `Proof ${s.received.length}-${Math.random()}`;
  const arrived = s.next('contact.created', (d) => d.name === name);
  const contact = createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId, name });
  expect((await arrived).data).toMatchObject({ id: contact.id, name, account_id: accountId });
}

describe('handshake', () => {
  it('refuses a missing or unknown pubsub_token', async () => {
    await expect(connectSocket(baseUrl, {})).rejects.toThrow('unauthorized');
    await expect(connectSocket(baseUrl, { pubsub_token: 'nope' })).rejects.toThrow('unauthorized');
    await expect(connectSocket(baseUrl, { pubsub_token: 'nope', account_id: svc.creds.accountId })).rejects.toThrow('unauthorized');
  });
  it('refuses an agent for an account the user is not in, or a mismatching user_id', async () => {
    const sam = pubsubOf('sam@acme.example');
    await expect(connectSocket(baseUrl, { pubsub_token: sam.pubsub_token, account_id: svc.creds.otherAccountId })).rejects.toThrow('unauthorized');
    await expect(connectSocket(baseUrl, { pubsub_token: sam.pubsub_token, account_id: svc.creds.accountId, user_id: sam.id + 1 })).rejects.toThrow('unauthorized');
    const ok = await connectSocket(baseUrl, { pubsub_token: sam.pubsub_token, account_id: svc.creds.accountId, user_id: sam.id });
    open.push(ok);
    await expectAgentEvents(ok);
  });
  it('refuses sockets of a suspended account', async () => {
    const tenant = extraTenant(svc, { suspended: true });
    const token = (svc.db.prepare('SELECT pubsub_token FROM users WHERE id = ?').get(tenant.admin.id) as { pubsub_token: string }).pubsub_token;
    await expect(connectSocket(baseUrl, { pubsub_token: token, account_id: tenant.accountId })).rejects.toThrow('unauthorized');
  });
  it('accepts the pubsub_token from GET /api/v1/profile, and the socket then receives its account events', async () => {
    const profile = (await svc.request({ url: '/api/v1/profile', token: svc.creds.agentToken })).body as { pubsub_token: string; account_id: number };
    const s = await connectSocket(baseUrl, { pubsub_token: profile.pubsub_token, account_id: profile.account_id });
    open.push(s);
    await expectAgentEvents(s, profile.account_id);
  });
});

describe('recipients and payloads', () => {
  it('message.created reaches the inbox members and administrators with the §2.6 payload and account_id, not other agents', async () => {
    const [admin, sam, jordan] = [await agent('alex@acme.example'), await agent('sam@acme.example'), await agent('jordan@acme.example')];
    const { contact, displayId } = await clientConversation({ name: 'Live Person' });
    const seenByAdmin = admin.next('message.created', (d) => d.content === 'live hello');
    const seenBySam = sam.next('message.created', (d) => d.content === 'live hello');
    await post(contact.source_id, displayId, 'live hello', { echo_id: 'echo-7' });
    const [a, s] = await Promise.all([seenByAdmin, seenBySam]);
    expect(a.data).toMatchObject({ content: 'live hello', account_id: svc.creds.accountId, conversation_id: displayId, message_type: 0, echo_id: 'echo-7', sender: { type: 'contact', id: contact.id }, conversation: { contact_inbox: { source_id: contact.source_id } } });
    expect(a.data).not.toHaveProperty('performer'); // a contact's request has no agent performer
    expect(s.data).toEqual(a.data);
    // Jordan is not a member of the API inbox: a later account-wide event proves the message never came.
    const barrier = jordan.next('contact.created');
    createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: svc.creds.accountId, name: 'Barrier' });
    await barrier;
    expect(jordan.received.filter((r) => r.name === 'message.created' && r.data.content === 'live hello')).toEqual([]);
  });
  it("another account's agents hear nothing of this account", async () => {
    const other = await connectSocket(baseUrl, { pubsub_token: (svc.db.prepare("SELECT pubsub_token FROM users WHERE email = 'grace@globex.example'").get() as { pubsub_token: string }).pubsub_token, account_id: svc.creds.otherAccountId });
    open.push(other);
    const { contact, displayId } = await clientConversation();
    await post(contact.source_id, displayId, 'acme only');
    const barrier = other.next('contact.created');
    createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: svc.creds.otherAccountId, name: 'Globex barrier' });
    await barrier;
    expect(names(other)).toEqual(['contact.created']);
  });
  it('contacts receive their own conversation events; private notes and activity never reach them', async () => {
    const mine = await clientConversation();
    const theirs = await clientConversation();
    const me = await contactSocket(mine.contact.pubsub_token);
    const sam = await agent('sam@acme.example');
    const ctx = { db: svc.db, bus: svc.bus, now: svc.clock(), performer: { type: 'user' as const, id: pubsubOf('sam@acme.example').id } };
    createMessage(ctx, { conversation: theirs.row(), messageType: 1, content: 'for someone else', sender: { type: 'User', id: ctx.performer.id } });
    const noteForSam = sam.next('message.created', (d) => d.content === 'internal note');
    createMessage(ctx, { conversation: mine.row(), messageType: 1, content: 'internal note', private: true, sender: { type: 'User', id: ctx.performer.id } });
    createMessage(ctx, { conversation: mine.row(), messageType: 2, content: 'Conversation was assigned', sender: null });
    const reply = me.next('message.created', (d) => d.content === 'public reply');
    createMessage(ctx, { conversation: mine.row(), messageType: 1, content: 'public reply', sender: { type: 'User', id: ctx.performer.id } });
    const got = await reply;
    expect((await noteForSam).data).toMatchObject({ private: true });
    expect(got.data).toMatchObject({ message_type: 1, performer: { id: ctx.performer.id, type: 'user' }, account_id: svc.creds.accountId });
    expect(me.received.filter((r) => r.name === 'message.created').map((r) => r.data.content)).toEqual(['public reply']);
  });
  it('the typer does not receive its own typing event; agents get {conversation, user, is_private}', async () => {
    const { contact, displayId } = await clientConversation({ name: 'Typist' });
    const me = await contactSocket(contact.pubsub_token);
    const sam = await agent('sam@acme.example');
    const typing = sam.next('conversation.typing_on');
    await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${contact.source_id}/conversations/${displayId}/toggle_typing`), payload: { typing_status: 'on' } });
    const got = await typing;
    expect(got.data).toMatchObject({ conversation: { id: displayId }, user: { id: contact.id, type: 'contact' }, is_private: false, account_id: svc.creds.accountId });
    // The contact's own next event (an agent typing) arrives; its own typing_on never did.
    const agentTyping = me.next('conversation.typing_on');
    svc.bus.emit({ name: 'conversation.typing_on', accountId: svc.creds.accountId, conversationId: (conversationByDisplayId(svc.db, svc.creds.accountId, displayId))!.id, typer: { type: 'user', id: pubsubOf('sam@acme.example').id }, isPrivate: false });
    expect((await agentTyping).data).toMatchObject({ user: { type: 'user' } });
    expect(me.received.filter((r) => r.name === 'conversation.typing_on')).toHaveLength(1);
    const samAgain = sam.received.filter((r) => r.name === 'conversation.typing_on');
    expect(samAgain).toHaveLength(1); // sam did not hear his own typing either
  });
  it('conversation events: created and status_changed reach agents and the contact; read reaches agents only; no performer on reloaded events', async () => {
    const c = await createClientContact(svc, svc.creds.apiInboxIdentifier);
    const me = await contactSocket(c.pubsub_token);
    const admin = await agent('alex@acme.example');
    const createdForMe = me.next('conversation.created');
    const createdForAdmin = admin.next('conversation.created');
    const conv = (await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}/conversations`), payload: {} })).body as { id: number };
    const created = await createdForAdmin;
    await createdForMe;
    expect(created.data).toMatchObject({ id: conv.id, inbox_id: svc.creds.apiInboxId, status: 'open', account_id: svc.creds.accountId, channel: 'Channel::Api', meta: { sender: { id: c.id, type: 'contact' }, assignee: null, assignee_type: null, team: null, hmac_verified: false }, contact_inbox: { source_id: c.source_id } });
    expect(created.data.contact_inbox).not.toHaveProperty('pubsub_token');
    const base = clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}/conversations/${conv.id}`);
    const readByAdmin = admin.next('conversation.read');
    await svc.request({ method: 'POST', url: `${base}/update_last_seen` });
    expect((await readByAdmin).data).toMatchObject({ id: conv.id });
    const statusForMe = me.next('conversation.status_changed');
    const statusForAdmin = admin.next('conversation.status_changed');
    await svc.request({ method: 'POST', url: `${base}/toggle_status` });
    expect((await statusForMe).data).toMatchObject({ id: conv.id, status: 'resolved' });
    expect((await statusForAdmin).data).not.toHaveProperty('performer');
    expect(names(me)).not.toContain('conversation.read');
  });
  it('verified contact inboxes receive events of all verified contact inboxes of the contact', async () => {
    const identifier = `live-${Date.now()}`;
    const hash = hmacHex(svc.creds.apiInboxHmacToken, identifier);
    const phone = await createClientContact(svc, svc.creds.apiInboxIdentifier, { identifier, identifier_hash: hash });
    const laptop = await createClientContact(svc, svc.creds.apiInboxIdentifier, { identifier, identifier_hash: hash });
    const unverified = await createClientContact(svc, svc.creds.apiInboxIdentifier, { identifier });
    const laptopSocket = await contactSocket(laptop.pubsub_token);
    const strangerSocket = await contactSocket(unverified.pubsub_token);
    const conv = (await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${phone.source_id}/conversations`), payload: {} })).body as { id: number };
    const onLaptop = laptopSocket.next('message.created', (d) => d.content === 'from the phone');
    await post(phone.source_id, conv.id, 'from the phone');
    expect((await onLaptop).data).toMatchObject({ conversation_id: conv.id });
    const barrier = strangerSocket.next('message.created');
    const own = (await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${unverified.source_id}/conversations`), payload: {} })).body as { id: number };
    await post(unverified.source_id, own.id, 'my own');
    await barrier;
    expect(strangerSocket.received.filter((r) => r.name === 'message.created').map((r) => r.data.content)).toEqual(['my own']);
  });
  it('widget visitors connect with contact.pubsub_token from config and hear agent replies', async () => {
    const s = await startWidget(svc, svc.creds.websiteToken);
    const token = s.website_channel_config.auth_token;
    const sent = (await widgetRequest(svc, svc.creds.websiteToken, token, 'POST', 'messages', { message: { content: 'widget hi' } })).body as { conversation_id: number };
    const visitor = await contactSocket(s.contact.pubsub_token);
    const reply = visitor.next('message.created');
    createMessage({ db: svc.db, bus: svc.bus, now: svc.clock() }, { conversation: conversationByDisplayId(svc.db, svc.creds.accountId, sent.conversation_id)!, messageType: 1, content: 'agent reply', sender: { type: 'User', id: adminId() } });
    expect((await reply).data).toMatchObject({ content: 'agent reply', conversation_id: sent.conversation_id });
  });
  it('contact.created and contact.updated go to the account agents with the contact push data', async () => {
    const admin = await agent('alex@acme.example');
    const created = admin.next('contact.created', (d) => d.name === 'Pushed Contact');
    const c = await createClientContact(svc, svc.creds.apiInboxIdentifier, { name: 'Pushed Contact' });
    expect((await created).data).toMatchObject({ id: c.id, name: 'Pushed Contact', type: 'contact', account_id: svc.creds.accountId });
    const updated = admin.next('contact.updated', (d) => d.id === c.id);
    await svc.request({ method: 'PATCH', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}`), payload: { name: 'Renamed Contact' } });
    expect((await updated).data).toMatchObject({ name: 'Renamed Contact' });
  });
  it('notification events go to that user only, with the notification payload (counts included)', async () => {
    // A real notification: assigning a conversation to Sam notifies Sam (conversation_assignment).
    const sam = await agent('sam@acme.example');
    const admin = await agent('alex@acme.example');
    const samId = pubsubOf('sam@acme.example').id;
    const target = svc.db.prepare("SELECT display_id FROM conversations WHERE account_id = ? AND assignee_id IS NULL AND inbox_id = ? LIMIT 1").get(svc.creds.accountId, svc.creds.widgetInboxId) as { display_id: number };
    const got = sam.next('notification.created');
    const res = await svc.request({ method: 'POST', url: `/api/v1/accounts/${svc.creds.accountId}/conversations/${target.display_id}/assignments`, token: svc.creds.adminToken, payload: { assignee_id: samId } });
    expect(res.status).toBe(200);
    const data = (await got).data as { notification: { id: number; notification_type: string; primary_actor: { id: number }; account_id: number }; unread_count: number; count: number; account_id: number };
    const stored = svc.db.prepare("SELECT id FROM notifications WHERE user_id = ? AND notification_type = 'conversation_assignment' ORDER BY id DESC LIMIT 1").get(samId) as { id: number };
    expect(data.notification).toMatchObject({ id: stored.id, notification_type: 'conversation_assignment', primary_actor: { id: target.display_id }, account_id: svc.creds.accountId });
    const counts = svc.db.prepare('SELECT COUNT(*) AS count, SUM(read_at IS NULL) AS unread FROM notifications WHERE user_id = ? AND account_id = ?').get(samId, svc.creds.accountId) as { count: number; unread: number };
    expect(data).toMatchObject({ unread_count: counts.unread, count: counts.count, account_id: svc.creds.accountId });
    const barrier = admin.next('contact.created');
    createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: svc.creds.accountId, name: 'Barrier 2' });
    await barrier;
    expect(names(admin)).not.toContain('notification.created');
  });
});

describe('connection state recovery', () => {
  it('delivers the events missed during a short disconnect, in order', async () => {
    const sam = await agent('sam@acme.example');
    const { contact, displayId } = await clientConversation();
    const first = sam.next('message.created', (d) => d.content === 'before drop');
    await post(contact.source_id, displayId, 'before drop');
    await first;
    const dropped = new Promise<void>((resolve) => sam.socket.once('disconnect', () => resolve()));
    // Drop the transport without a clean close, as a network blip would; reconnect by hand only
    // after the events below were emitted, so they are certainly missed while away.
    sam.socket.io.reconnection(false);
    sam.socket.io.engine.close();
    await dropped;
    expect(sam.socket.connected).toBe(false);
    await post(contact.source_id, displayId, 'missed 1');
    await post(contact.source_id, displayId, 'missed 2');
    const missed2 = sam.next('message.created', (d) => d.content === 'missed 2');
    const back = new Promise<void>((resolve) => sam.socket.once('connect', () => resolve()));
    sam.socket.connect();
    await back;
    await missed2;
    expect(sam.socket.recovered).toBe(true);
    const contents = sam.received.filter((r) => r.name === 'message.created' && r.data.conversation_id === displayId).map((r) => r.data.content);
    expect(contents).toEqual(['before drop', 'missed 1', 'missed 2']);
  });

  // Recovery restores a session's rooms and replays what it missed: it must not outlive the credential.
  type Tenant = ReturnType<typeof extraTenant>;
  const revocations: [string, (t: Tenant) => void][] = [
    ['the account is suspended', (t) => svc.db.prepare("UPDATE accounts SET status = 'suspended' WHERE id = ?").run(t.accountId)],
    ['the pubsub_token is replaced', (t) => svc.db.prepare('UPDATE users SET pubsub_token = ? WHERE id = ?').run(randomUUID(), t.admin.id)],
    ['the user is removed from the account', (t) => svc.db.prepare('DELETE FROM account_users WHERE account_id = ? AND user_id = ?').run(t.accountId, t.admin.id)],
  ];
  it.each(revocations)('when %s during a short drop, the reconnect is refused and nothing missed is sent', async (_label, revoke) => {
    const tenant = extraTenant(svc);
    const s = await connectSocket(baseUrl, { pubsub_token: (svc.db.prepare('SELECT pubsub_token FROM users WHERE id = ?').get(tenant.admin.id) as { pubsub_token: string }).pubsub_token, account_id: tenant.accountId });
    open.push(s);
    await expectAgentEvents(s, tenant.accountId); // subscribed, and the client holds a recovery offset
    const dropped = new Promise<void>((resolve) => s.socket.once('disconnect', () => resolve()));
    s.socket.io.reconnection(false);
    s.socket.io.engine.close();
    await dropped;
    revoke(tenant);
    createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: tenant.accountId, name: 'missed while away' });
    // Every packet the client decodes from here on, including events the client library would
    // buffer and never surface for a refused connection.
    const packets: { type: number; data?: unknown }[] = [];
    s.socket.io.on('packet', (p) => packets.push(p));
    const outcome = new Promise<string>((resolve) => {
      s.socket.once('connect', () => resolve('connected'));
      s.socket.once('connect_error', (err) => resolve(err.message));
    });
    s.socket.connect();
    expect(await outcome).toBe('unauthorized');
    expect(s.socket.recovered).toBe(false);
    expect(packets.filter((p) => p.type === 2 /* EVENT */)).toEqual([]);
    expect(s.received.map((r) => r.data.name)).not.toContain('missed while away');
    // Nothing further can reach it: the server holds no socket in the account's rooms.
    expect(await svc.live.io!.in(rooms.account(tenant.accountId)).fetchSockets()).toEqual([]);
  });
});

describe('writes to a socket', () => {
  it('events sent to a socket in one event-loop turn share its TCP writes (the first, then the rest together once it is written), in order', async () => {
    const name = `Batch ${randomUUID()}`;
    const s = await agent('alex@acme.example');
    await expectAgentEvents(s);
    // The server side of this client's connection: the one whose socket.io socket has its id.
    const serverSocket = [...svc.live.io!.of('/').sockets.values()].find((x) => x.id === s.socket.id)!;
    const tcp = (serverSocket.conn as unknown as { request: { socket: NetSocket } }).request.socket;
    const writes = countTcpWrites(tcp);
    const batch = Array.from({ length: 10 }, (_, i) => i + 1);
    const all = Promise.all(batch.map((i) => s.next('contact.created', (d) => d.name === `${name} ${i}`)));
    for (const i of batch) createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: svc.creds.accountId, name: `${name} ${i}` });
    const got = await all;
    expect(got.map((r) => r.data.name)).toEqual(batch.map((i) => `${name} ${i}`));
    // One write per event (10) before; engine.io holds what comes while a write is pending.
    expect(writes.count).toBeLessThanOrEqual(2);
  });

  it('every socket hears every event once, in order, through broadcasts and its own packets mixed at random times', async () => {
    const name = `Mixed ${randomUUID()}`;
    const sockets = [await agent('alex@acme.example'), await agent('alex@acme.example'), await agent('sam@acme.example')];
    for (const s of sockets) await expectAgentEvents(s);
    const own = sockets.map((s) => serverSide(s).socket.conn as unknown as { write(data: string): void });
    // A seeded order of broadcasts, packets written to one socket alone through engine.io (as its
    // pings and a presence answer are), and waits that let batches go or be held.
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const expected = sockets.map(() => [] as string[]);
    const EVENTS = 300;
    for (let i = 0; i < EVENTS; i++) {
      const r = random();
      if (r < 0.6) {
        createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: svc.creds.accountId, name: `${name} ${i}` });
        for (const e of expected) e.push(`${name} ${i}`);
      } else {
        const k = Math.floor(random() * sockets.length);
        own[k]!.write(`2["presence.update",{"mixed":${i}}]`);
        expected[k]!.push(`own ${i}`);
      }
      const wait = random();
      if (wait < 0.3) await new Promise((next) => setImmediate(next));
      else if (wait < 0.4) await new Promise((next) => setTimeout(next, Math.floor(random() * HOLD_MS * 1.5)));
    }
    // A last broadcast all must hear: after it, nothing earlier can still arrive (per-socket order).
    const last = `${name} last`;
    const heardLast = Promise.all(sockets.map((s) => s.next('contact.created', (d) => d.name === last)));
    createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: svc.creds.accountId, name: last });
    await heardLast;
    sockets.forEach((s, k) => {
      const got = s.received
        .filter((r) => (r.name === 'contact.created' && String(r.data.name).startsWith(`${name} `) && r.data.name !== last) || (r.name === 'presence.update' && r.data.mixed !== undefined))
        .map((r) => (r.name === 'presence.update' ? `own ${String(r.data.mixed)}` : String(r.data.name)));
      expect(got).toEqual(expected[k]);
    });
    expect(expected.every((e) => e.length > EVENTS / 2)).toBe(true);
  });

  it('a steady stream of events, one a turn, leaves in a write per HOLD_MS, in order (server/live/write-coalescing.ts)', async () => {
    const name = `Stream ${randomUUID()}`;
    const s = await agent('alex@acme.example');
    await expectAgentEvents(s);
    const { tcp } = serverSide(s);
    // Quiet first, so the stream's first event leaves at once.
    await new Promise((r) => setTimeout(r, HOLD_MS * 2));
    const writes = countTcpWrites(tcp);
    const stream = Array.from({ length: 24 }, (_, i) => i + 1);
    const all = Promise.all(stream.map((i) => s.next('contact.created', (d) => d.name === `${name} ${i}`)));
    const started = performance.now();
    for (const i of stream) {
      createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: svc.creds.accountId, name: `${name} ${i}` });
      // The next event in a later turn: each turn was its own write before.
      await new Promise((r) => setImmediate(r));
    }
    const lasted = performance.now() - started;
    const got = await all;
    expect(got.map((r) => r.data.name)).toEqual(stream.map((i) => `${name} ${i}`));
    // The first event alone, then at most one write per HOLD_MS the stream lasted, and the last batch.
    expect(writes.count).toBeLessThanOrEqual(2 + Math.ceil(lasted / HOLD_MS));
    expect(writes.count).toBeLessThan(stream.length / 2);
  });
});

/** The server's side of a client's connection: its socket.io socket and the TCP socket under its WebSocket. */
function serverSide(s: TestSocket) {
  const socket = [...svc.live.io!.of('/').sockets.values()].find((x) => x.id === s.socket.id)!;
  const ws = (socket.conn as unknown as { transport: { socket: { _socket: NetSocket } } }).transport.socket;
  return { socket, tcp: ws._socket };
}

/** A contact.created broadcast to every agent socket of the account; answers its name. */
function broadcast(label: string): string {
  const name = `${label} ${randomUUID()}`;
  createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: svc.creds.accountId, name });
  return name;
}

/** Broadcasts a contact.created and waits until each of `sockets` has it. */
async function hearAll(label: string, ...sockets: TestSocket[]) {
  const name = broadcast(label);
  await Promise.all(sockets.map((s) => s.next('contact.created', (d) => d.name === name)));
}

const heard = (s: TestSocket, name: string) => s.received.filter((r) => r.name === 'contact.created' && r.data.name === name);

describe('broadcast frames written directly (server/live/broadcast-frames.ts)', () => {
  it('reach a plain WebSocket connection as one write of the whole frame, decoded as before', async () => {
    const s = await agent('alex@acme.example');
    await hearAll('warm', s);
    const { tcp } = serverSide(s);
    const writes: Buffer[] = [];
    const write = tcp.write.bind(tcp) as (chunk: Buffer, ...rest: unknown[]) => boolean;
    tcp.write = ((chunk: Buffer, ...rest: unknown[]) => {
      writes.push(Buffer.from(chunk));
      return write(chunk, ...rest);
    }) as typeof tcp.write;
    const arrived = s.next('contact.created');
    const name = broadcast('one write');
    expect((await arrived).data).toMatchObject({ name, account_id: svc.creds.accountId });
    tcp.write = write as typeof tcp.write;
    // engine.io's path wrote the frame's header and its payload as two writes.
    expect(writes).toHaveLength(1);
    const frame = writes[0]!;
    // A final unmasked text frame whose payload is the engine.io message packet of the event.
    expect(frame[0]).toBe(0x81);
    const length = frame[1]! === 126 ? frame.readUInt16BE(2) : frame[1]!;
    const payload = frame.subarray(frame[1]! === 126 ? 4 : 2).toString();
    expect(payload.length).toBe(length);
    expect(payload.startsWith('42["contact.created",')).toBe(true);
    expect(heard(s, name)).toHaveLength(1);
  });

  it('come after packets engine.io holds for the connection, in order', async () => {
    const s = await agent('alex@acme.example');
    await hearAll('warm', s);
    const { socket } = serverSide(s);
    const last = s.next('contact.created');
    // Packets written through engine.io itself (as its pings are; socket.emit goes through the
    // adapter's broadcast here, since connection state recovery is on): the first is written at
    // once, the second waits in engine.io's buffer for that write to complete. The broadcast, in
    // the same turn, must not overtake it.
    const conn = socket.conn as unknown as { write(data: string): void };
    conn.write('2["presence.update",{"order":1}]');
    conn.write('2["presence.update",{"order":2}]');
    const name = broadcast('after own packets');
    await last;
    const order = s.received.slice(-3).map((r) => (r.name === 'presence.update' ? `own ${String(r.data.order)}` : String(r.data.name)));
    expect(order).toEqual(['own 1', 'own 2', name]);
  });

  it('held for the batch, go before packets engine.io writes after them, in order', async () => {
    const s = await agent('alex@acme.example');
    await hearAll('warm', s);
    const { socket } = serverSide(s);
    const last = s.next('presence.update', (d) => d.order === 2);
    // The broadcasts are held for the batch (write-coalescing.ts); the packets written through
    // engine.io in the same turn must not overtake them.
    const first = broadcast('held 1');
    const second = broadcast('held 2');
    const conn = socket.conn as unknown as { write(data: string): void };
    conn.write('2["presence.update",{"order":1}]');
    conn.write('2["presence.update",{"order":2}]');
    await last;
    const order = s.received.slice(-4).map((r) => (r.name === 'presence.update' ? `own ${String(r.data.order)}` : String(r.data.name)));
    expect(order).toEqual([first, second, 'own 1', 'own 2']);
  });

  it('a connection whose TCP socket is gone when an event is broadcast gets it once, on recovery; the others once', async () => {
    const [dropped, stays] = [await agent('alex@acme.example'), await agent('alex@acme.example')];
    await hearAll('warm', dropped, stays);
    const back = new Promise<void>((resolve) => dropped.socket.io.once('reconnect', () => resolve()));
    const { tcp } = serverSide(dropped);
    // The TCP connection ends in the same turn as the broadcast, before engine.io has heard of it.
    tcp.destroy();
    const name = broadcast('while dropping');
    await back;
    // A later event both must get: after it, an earlier one can no longer arrive (per-socket order).
    await hearAll('barrier', dropped, stays);
    expect(dropped.socket.recovered).toBe(true);
    expect(heard(dropped, name)).toHaveLength(1);
    expect(heard(stays, name)).toHaveLength(1);
  });
});

describe('broadcast targets remembered (server/live/broadcast-targets.ts)', () => {
  it('a socket that connects after a broadcast hears the next; one that left hears nothing more', async () => {
    const first = await agent('alex@acme.example');
    await hearAll('before', first);
    // The account's rooms were walked for that broadcast; a new socket joins them now.
    const second = await agent('alex@acme.example');
    await hearAll('after joining', first, second);
    const before = second.received.length;
    second.close();
    await new Promise((r) => setTimeout(r, 50));
    await hearAll('after leaving', first);
    const third = await agent('sam@acme.example');
    await hearAll('after another joined', first, third);
    expect(second.received.length).toBe(before);
  });
});

describe("a room's sockets sent a batch's broadcasts as one (broadcast-targets.ts, write-coalescing.ts)", () => {
  /** Three sockets of a new account's administrator: alone in their account's room. */
  async function tenantSockets() {
    const tenant = extraTenant(svc);
    const token = (svc.db.prepare('SELECT pubsub_token FROM users WHERE id = ?').get(tenant.admin.id) as { pubsub_token: string }).pubsub_token;
    const sockets = [await agent('', tenant.accountId, token), await agent('', tenant.accountId, token), await agent('', tenant.accountId, token)];
    const say = (name: string) => createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: tenant.accountId, name });
    // Warm: each has heard one broadcast (the direct path is open to it).
    const warm = `warm ${randomUUID()}`;
    const warmed = Promise.all(sockets.map((s) => s.next('contact.created', (d) => d.name === warm)));
    say(warm);
    await warmed;
    // How often socket.io hands each socket a packet (the direct path's entry).
    const handed = sockets.map((s) => {
      const client = serverSide(s).socket.client as unknown as { writeToEngine(...args: unknown[]): void };
      const write = client.writeToEngine.bind(client);
      const count = { calls: 0 };
      client.writeToEngine = (...args: unknown[]) => {
        count.calls++;
        write(...args);
      };
      return count;
    });
    return { tenant, sockets, say, handed };
  }
  const contactNames = (s: TestSocket, prefix: string) => s.received.filter((r) => r.name === 'contact.created' && String(r.data.name).startsWith(prefix)).map((r) => String(r.data.name));

  it('hands each socket only the first of a batch\'s broadcasts to a room; every socket hears all, once, in order', async () => {
    const { sockets, say, handed } = await tenantSockets();
    const prefix = `Cohort ${randomUUID()}`;
    const names10 = Array.from({ length: 10 }, (_, i) => `${prefix} ${i}`);
    const all = Promise.all(sockets.map((s) => s.next('contact.created', (d) => d.name === names10.at(-1))));
    for (const name of names10) say(name);
    await all;
    for (const s of sockets) expect(contactNames(s, prefix)).toEqual(names10);
    // One hand-over per socket per event (10) before.
    expect(handed.map((h) => h.calls)).toEqual([1, 1, 1]);
  });

  it("a packet of one member's own in the batch comes in its place; the batch's later broadcasts reach every socket in order", async () => {
    const { sockets, say, handed } = await tenantSockets();
    const prefix = `Own ${randomUUID()}`;
    const [a] = sockets;
    const all = Promise.all(sockets.map((s) => s.next('contact.created', (d) => d.name === `${prefix} 4`)));
    say(`${prefix} 1`);
    say(`${prefix} 2`);
    (serverSide(a!).socket.conn as unknown as { write(data: string): void }).write(`2["presence.update",{"own":"${prefix}"}]`);
    say(`${prefix} 3`);
    say(`${prefix} 4`);
    await all;
    const order = a!.received.filter((r) => (r.name === 'presence.update' && r.data.own === prefix) || (r.name === 'contact.created' && String(r.data.name).startsWith(prefix))).map((r) => (r.name === 'presence.update' ? 'own' : String(r.data.name)));
    expect(order).toEqual([`${prefix} 1`, `${prefix} 2`, 'own', `${prefix} 3`, `${prefix} 4`]);
    for (const s of sockets.slice(1)) expect(contactNames(s, prefix)).toEqual([1, 2, 3, 4].map((i) => `${prefix} ${i}`));
    // The own packet ended the room's cohort: the later broadcasts went socket by socket (the first
    // and second together before); while engine.io's write of it is in flight, the member takes
    // engine.io's path, so no cohort formed again in this batch.
    expect(handed.map((h) => h.calls)).toEqual([3, 3, 3]);
  });

  it('a broadcast to rooms that share sockets reaches each socket once, and the room after it in order', async () => {
    const { tenant, sockets, say } = await tenantSockets();
    const prefix = `Overlap ${randomUUID()}`;
    const all = Promise.all(sockets.map((s) => s.next('contact.created', (d) => d.name === `${prefix} 2`)));
    say(`${prefix} 1`);
    svc.live.io!.to([rooms.account(tenant.accountId), rooms.agent(tenant.accountId, tenant.admin.id)]).emit('overlap.test', { prefix });
    say(`${prefix} 2`);
    await all;
    for (const s of sockets) {
      const order = s.received.filter((r) => (r.name === 'overlap.test' && r.data.prefix === prefix) || (r.name === 'contact.created' && String(r.data.name).startsWith(prefix))).map((r) => (r.name === 'overlap.test' ? 'both rooms' : String(r.data.name)));
      expect(order).toEqual([`${prefix} 1`, 'both rooms', `${prefix} 2`]);
    }
  });
});
