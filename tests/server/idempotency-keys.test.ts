// Idempotency-Key on creating POSTs (SYNC-PROTOCOL.md, "Idempotency-Key on creating POSTs"): the first
// successful answer is stored with what it created, in one transaction; the same request again is that
// answer, replayed, creating nothing and sending no event; another request with the key is 422; a
// failure stores nothing; keys are per account and caller, kept 24 hours. Without the header: the spec.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addToAccount } from '../../server/store/provision';
import { DEMO_NOW, demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { connectSocket } from '../support/sockets';
import type { TestSocket } from '../support/sockets';
import { accountPath, ADMIN_EMAIL, agentConversation, expectSpecErrorShape, recordEvents, userIdOf } from './fixtures';

let svc: DemoService;
let A: string;
let baseUrl: string;
let receiver: Server;
let receiverUrl: string;
const hooks: Record<string, unknown>[] = [];
beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      hooks.push(JSON.parse(raw || '{}') as Record<string, unknown>);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  svc = await demoService();
  A = accountPath(svc);
  baseUrl = await svc.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await svc.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(() => svc.setNow(DEMO_NOW));

let n = 0;
const uniqueKey = () => `test-key-${++n}.${Date.now()}:x_y`;
type Res = Awaited<ReturnType<DemoService['request']>>;
const post = (path: string, payload: unknown, key?: string, token = svc.creds.adminToken): Promise<Res> =>
  svc.request({ method: 'POST', url: `${A}${path}`, token, payload, headers: key === undefined ? {} : { 'idempotency-key': key } });
const count = (table: string) => (svc.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
const keysStored = () => count('idempotency_keys');

/** The four creating routes, each with a valid body and the table its record lands in. */
function creates(): { route: string; path: string; payload: Record<string, unknown>; table: string }[] {
  return [
    { route: 'message', path: `/conversations/${agentConversation(svc)}/messages`, payload: { content: `hello ${n}` }, table: 'messages' },
    { route: 'conversation', path: '/conversations', payload: { inbox_id: svc.creds.apiInboxId, contact_id: 5, message: { content: 'first' } }, table: 'conversations' },
    { route: 'contact', path: '/contacts', payload: { name: 'Keyed Contact', email: `keyed-${n}@example.com` }, table: 'contacts' },
    { route: 'note', path: '/contacts/5/notes', payload: { content: 'a keyed note' }, table: 'contact_notes' },
  ];
}

describe('Idempotency-Key: the same request again is replayed', () => {
  it('on every creating route: one record; the replay has the first answer\'s status, content type and body, and Idempotent-Replayed: true', async () => {
    for (const { route, path, payload, table } of creates()) {
      const key = uniqueKey();
      const before = count(table);
      const first = await post(path, payload, key);
      expect(first.status, `${route}: ${first.text}`).toBe(200);
      expect(first.headers['idempotent-replayed'], route).toBeUndefined();
      const again = await post(path, payload, key);
      expect(again.status, route).toBe(200);
      expect(again.headers['idempotent-replayed'], route).toBe('true');
      expect(again.headers['content-type'], route).toBe(first.headers['content-type']);
      expect(again.text, route).toBe(first.text);
      expect(count(table), route).toBe(before + 1);
    }
  });

  it('a replay answers even where running the request again would now fail (a contact inbox source_id already taken, by the first attempt)', async () => {
    const payload = { name: 'Sourced', inbox_id: svc.creds.apiInboxId, source_id: `src-${uniqueKey()}` };
    const key = uniqueKey();
    const first = await post('/contacts', payload, key);
    expect(first.status).toBe(200);
    const again = await post('/contacts', payload, key);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect((await post('/contacts', payload)).status).toBe(422);
  });

  it('without the header every route creates again on a retry (the spec: no deduplication)', async () => {
    for (const { route, path, payload, table } of creates()) {
      const before = count(table);
      const storedBefore = keysStored();
      expect((await post(path, payload)).status, route).toBe(200);
      expect((await post(path, payload)).status, route).toBe(200);
      expect(count(table), route).toBe(before + 2);
      expect(keysStored(), route).toBe(storedBefore);
    }
  });

  it('a replay sends no event: nothing on the bus, no live socket event, no webhook', async () => {
    const webhook = await svc.request({ method: 'POST', url: `${A}/webhooks`, token: svc.creds.adminToken, payload: { webhook: { url: `${receiverUrl}/keys`, subscriptions: ['message_created'] } } });
    expect(webhook.status).toBe(200);
    const pubsub = (svc.db.prepare('SELECT pubsub_token FROM users WHERE email = ?').get(ADMIN_EMAIL) as { pubsub_token: string }).pubsub_token;
    const socket: TestSocket = await connectSocket(baseUrl, { pubsub_token: pubsub, account_id: svc.creds.accountId });
    try {
      const id = agentConversation(svc);
      const key = uniqueKey();
      const arrived = socket.next('message.created', (d) => d.content === 'exactly once');
      expect((await post(`/conversations/${id}/messages`, { content: 'exactly once' }, key)).status).toBe(200);
      await arrived;
      await svc.webhooks.idle();
      const rec = recordEvents(svc);
      for (let i = 0; i < 3; i++) expect((await post(`/conversations/${id}/messages`, { content: 'exactly once' }, key)).headers['idempotent-replayed']).toBe('true');
      expect(rec.events).toEqual([]);
      rec.off();
      // A barrier: a later message the socket and the webhook must get; a replayed event would have come first.
      const barrier = socket.next('message.created', (d) => d.content === 'barrier');
      expect((await post(`/conversations/${id}/messages`, { content: 'barrier' })).status).toBe(200);
      await barrier;
      await svc.webhooks.idle();
      expect(socket.received.filter((r) => r.name === 'message.created' && r.data.content === 'exactly once')).toHaveLength(1);
      expect(hooks.filter((h) => h.content === 'exactly once')).toHaveLength(1);
      expect(hooks.filter((h) => h.content === 'barrier')).toHaveLength(1);
    } finally {
      socket.close();
    }
  });

  it('two requests with one key sent together create once: one answers, the other replays it', async () => {
    const id = agentConversation(svc);
    const key = uniqueKey();
    const before = count('messages');
    const [x, y] = await Promise.all([post(`/conversations/${id}/messages`, { content: 'racing' }, key), post(`/conversations/${id}/messages`, { content: 'racing' }, key)]);
    expect([x.status, y.status]).toEqual([200, 200]);
    expect([x.headers['idempotent-replayed'], y.headers['idempotent-replayed']].filter(Boolean)).toEqual(['true']);
    expect(x.text).toBe(y.text);
    expect(count('messages')).toBe(before + 1);
  });

  it('a contact create as form data (the route reads the body after a wait) racing with one key creates once; another avatar is another request', async () => {
    const boundary = '----keyboundary';
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(32, 7)]);
    const form = (image: Buffer) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nForm Keyed\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
        image,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const key = uniqueKey();
    const send = (image: Buffer) =>
      svc.app.inject({ method: 'POST', url: `${A}/contacts`, headers: { api_access_token: svc.creds.adminToken, 'idempotency-key': key, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: form(image) });
    const before = count('contacts');
    const [x, y] = await Promise.all([send(png), send(png)]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    expect(x.body).toBe(y.body);
    expect(count('contacts')).toBe(before + 1);
    const other = await send(Buffer.concat([png, Buffer.from([1])]));
    expect(other.statusCode).toBe(422);
    expect(count('contacts')).toBe(before + 1);
  });
});

describe('Idempotency-Key: another request, another caller, another day', () => {
  it('the same key with another body, another path or another method is 422 {message, attributes:["Idempotency-Key"]} and creates nothing', async () => {
    const id = agentConversation(svc);
    const other = agentConversation(svc, 'c.display_id != ?', id);
    const key = uniqueKey();
    expect((await post(`/conversations/${id}/messages`, { content: 'original' }, key)).status).toBe(200);
    const before = [count('messages'), count('contacts'), count('contact_notes')];
    for (const [what, path, payload] of [
      ['another body', `/conversations/${id}/messages`, { content: 'changed' }],
      ['another conversation', `/conversations/${other}/messages`, { content: 'original' }],
      ['another route', '/contacts/5/notes', { content: 'original' }],
    ] as const) {
      const res = await post(path, payload, key);
      expect(res.status, what).toBe(422);
      expect(res.body, what).toEqual({ message: 'Idempotency-Key has already been used for a different request', attributes: ['Idempotency-Key'] });
      expectSpecErrorShape(res.body, what);
    }
    const query = await svc.request({ method: 'POST', url: `${A}/conversations/${id}/messages?private=true`, token: svc.creds.adminToken, payload: { content: 'original' }, headers: { 'idempotency-key': key } });
    expect(query.status).toBe(422);
    expect([count('messages'), count('contacts'), count('contact_notes')]).toEqual(before);
  });

  it('keys belong to the account and the caller: another user, an agent bot, or the same user in another account with the same key create their own', async () => {
    const id = agentConversation(svc);
    const key = uniqueKey();
    const payload = { content: 'shared key' };
    const before = count('messages');
    const admin = await post(`/conversations/${id}/messages`, payload, key);
    const agent = await post(`/conversations/${id}/messages`, payload, key, svc.creds.agentToken);
    const bot = await svc.request({ method: 'POST', url: `${A}/conversations/${id}/messages`, token: svc.creds.botToken, payload, headers: { 'idempotency-key': key } });
    for (const res of [admin, agent, bot]) {
      expect(res.status, res.text).toBe(200);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(count('messages')).toBe(before + 3);
    expect((await post(`/conversations/${id}/messages`, payload, key, svc.creds.agentToken)).headers['idempotent-replayed']).toBe('true');

    addToAccount(svc.db, svc.creds.otherAccountId, userIdOf(svc, ADMIN_EMAIL), 'administrator', DEMO_NOW);
    const contacts = count('contacts');
    const body = { name: 'Same Key Elsewhere' };
    const contactKey = uniqueKey();
    const here = await post('/contacts', body, contactKey);
    const there = await svc.request({ method: 'POST', url: `${accountPath(svc, svc.creds.otherAccountId)}/contacts`, token: svc.creds.adminToken, payload: body, headers: { 'idempotency-key': contactKey } });
    expect([here.status, there.status]).toEqual([200, 200]);
    expect(there.headers['idempotent-replayed']).toBeUndefined();
    expect(count('contacts')).toBe(contacts + 2);
  });

  it('a key is kept 24 hours by the service clock, then forgotten (and purged): the same request creates again', async () => {
    const id = agentConversation(svc);
    const key = uniqueKey();
    const payload = { content: 'a day long' };
    const before = count('messages');
    expect((await post(`/conversations/${id}/messages`, payload, key)).status).toBe(200);
    svc.setNow(DEMO_NOW + 24 * 3_600_000 - 1);
    expect((await post(`/conversations/${id}/messages`, payload, key)).headers['idempotent-replayed']).toBe('true');
    expect(count('messages')).toBe(before + 1);
    svc.setNow(DEMO_NOW + 24 * 3_600_000);
    const later = await post(`/conversations/${id}/messages`, payload, key);
    expect(later.status).toBe(200);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(count('messages')).toBe(before + 2);
    // Storing that answer purged every key stored a day or more before it.
    expect((svc.db.prepare('SELECT COUNT(*) AS n FROM idempotency_keys WHERE created_at <= ?').get(DEMO_NOW) as { n: number }).n).toBe(0);
    expect((await post(`/conversations/${id}/messages`, payload, key)).headers['idempotent-replayed']).toBe('true');
  });

  it('the retention is a service option', async () => {
    const short = await demoService({ idempotencyTtlMs: 60_000 });
    try {
      const url = `${accountPath(short)}/contacts`;
      const send = () => short.request({ method: 'POST', url, token: short.creds.adminToken, payload: { name: 'Short Lived' }, headers: { 'idempotency-key': 'short' } });
      expect((await send()).headers['idempotent-replayed']).toBeUndefined();
      short.setNow(DEMO_NOW + 59_999);
      expect((await send()).headers['idempotent-replayed']).toBe('true');
      short.setNow(DEMO_NOW + 60_000);
      expect((await send()).headers['idempotent-replayed']).toBeUndefined();
      expect((short.db.prepare("SELECT COUNT(*) AS n FROM contacts WHERE name = 'Short Lived'").get() as { n: number }).n).toBe(2);
    } finally {
      await short.close();
    }
  });
});

describe('Idempotency-Key: failures store nothing', () => {
  it('a first attempt that fails (422, 404) stores nothing; the retry with the key creates once', async () => {
    const id = agentConversation(svc);
    const key = uniqueKey();
    const before = count('messages');
    const stored = keysStored();
    expect((await post(`/conversations/${id}/messages`, { content: '' }, key)).status).toBe(422);
    expect((await post('/conversations/999999/messages', { content: 'lost' }, key)).status).toBe(404);
    expect(keysStored()).toBe(stored);
    const ok = await post(`/conversations/${id}/messages`, { content: 'now valid' }, key);
    expect(ok.status).toBe(200);
    expect((await post(`/conversations/${id}/messages`, { content: 'now valid' }, key)).headers['idempotent-replayed']).toBe('true');
    expect(count('messages')).toBe(before + 1);
  });

  it('the answer is stored in the same transaction as the record: when storing fails, the record is rolled back and no event is sent; the retry creates once', async () => {
    const id = agentConversation(svc);
    const key = uniqueKey();
    const before = count('messages');
    svc.db.exec("CREATE TRIGGER fail_key_store BEFORE INSERT ON idempotency_keys BEGIN SELECT RAISE(ABORT, 'disk full'); END;");
    const rec = recordEvents(svc);
    try {
      const failed = await post(`/conversations/${id}/messages`, { content: 'all or nothing' }, key);
      expect(failed.status).toBe(500);
      expectSpecErrorShape(failed.body, 'failed store');
      expect(count('messages')).toBe(before);
      expect(rec.events).toEqual([]);
      // The same for a conversation create (several rows and events in one write).
      const conversations = count('conversations');
      expect((await post('/conversations', { inbox_id: svc.creds.apiInboxId, contact_id: 5, message: { content: 'x' } }, uniqueKey())).status).toBe(500);
      expect(count('conversations')).toBe(conversations);
      expect(rec.events).toEqual([]);
    } finally {
      svc.db.exec('DROP TRIGGER fail_key_store');
    }
    const retry = await post(`/conversations/${id}/messages`, { content: 'all or nothing' }, key);
    expect(retry.status).toBe(200);
    expect(count('messages')).toBe(before + 1);
    expect(rec.names()).toContain('message.created');
    rec.off();
  });

  it('a malformed key is 400 {error} and creates nothing; every allowed character, up to 255, is accepted', async () => {
    const id = agentConversation(svc);
    const before = count('messages');
    for (const bad of ['has space', 'x'.repeat(256), 'ключ', 'a/b', 'a,b', '"quoted"']) {
      const res = await post(`/conversations/${id}/messages`, { content: 'bad key' }, bad);
      expect(res.status, bad).toBe(400);
      expectSpecErrorShape(res.body, bad);
    }
    const empty = await svc.request({ method: 'POST', url: `${A}/conversations/${id}/messages`, token: svc.creds.adminToken, payload: { content: 'bad key' }, headers: { 'idempotency-key': '' } });
    expect(empty.status).toBe(400);
    expect(count('messages')).toBe(before);
    const longest = `AZaz09._:-${'k'.repeat(245)}`;
    expect(longest).toHaveLength(255);
    expect((await post(`/conversations/${id}/messages`, { content: 'good key' }, longest)).status).toBe(200);
    expect((await post(`/conversations/${id}/messages`, { content: 'good key' }, longest)).headers['idempotent-replayed']).toBe('true');
  });
});
