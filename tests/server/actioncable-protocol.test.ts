// The ActionCable wire protocol at /cable, frame by frame, as Rails writes it: welcome, pings,
// sub-protocol choice, subscribe answered by confirm or reject (and by nothing where Rails says
// nothing), envelopes echoing the client's identifier text, unsubscribe, update_presence to the
// subscriber's own stream only, Origin, limits, other upgrade paths, the shutdown's disconnect
// frame, and a service with socket.io turned off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContact } from '../../server/store/writes';
import { DEMO_NOW, demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { createClientContact } from '../support/public-api';
import type { Frame, RawCable } from '../support/raw-cable';
import { openRawCable, roomIdentifier } from '../support/raw-cable';

let svc: DemoService;
let baseUrl: string;
const open: RawCable[] = [];
beforeAll(async () => {
  svc = await demoService();
  baseUrl = await svc.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const c of open) c.ws.terminate();
  await svc.close();
});

const userOf = (email: string) => svc.db.prepare('SELECT id, pubsub_token FROM users WHERE email = ?').get(email) as { id: number; pubsub_token: string };
async function cable(opts: Parameters<typeof openRawCable>[1] = {}) {
  const c = await openRawCable(baseUrl, opts);
  open.push(c);
  return c;
}
const agentId = (email = 'sam@acme.example') => {
  const u = userOf(email);
  return roomIdentifier({ pubsub_token: u.pubsub_token, account_id: svc.creds.accountId, user_id: u.id });
};
const answerTo = (identifier: string) => (f: Frame) => f.identifier === identifier && typeof f.type === 'string';
const envelope = (identifier: string, event: string) => (f: Frame) => f.identifier === identifier && (f.message as { event?: string } | undefined)?.event === event;
async function subscribed(c: RawCable, identifier: string) {
  const answer = c.next(answerTo(identifier));
  c.send({ command: 'subscribe', identifier });
  return answer;
}
/** Every command sent before it has been handled once this returns: the service answers commands in order. */
async function sync(c: RawCable) {
  const id = roomIdentifier({ pubsub_token: `sync-${Math.random()}` });
  await subscribed(c, id);
}
/** An account-wide event every agent subscription must get: proves what came before it did, or never will. */
async function barrier(c: RawCable, identifier: string) {
  const name = `Barrier ${Math.random()}`;
  const got = c.next((f) => f.identifier === identifier && (f.message as { data?: { name?: string } } | undefined)?.data?.name === name);
  createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: svc.creds.accountId, name });
  return got;
}

describe('connection', () => {
  it('welcomes with {"type":"welcome"} over actioncable-v1-json, then pings with the unix time every 3 s', async () => {
    const c = await cable();
    expect(c.ws.protocol).toBe('actioncable-v1-json');
    await c.next((f) => f.type === 'welcome', 0);
    expect(c.texts[0]).toBe('{"type":"welcome"}');
    const ping = await c.next((f) => f.type === 'ping', 0);
    expect(ping).toEqual({ type: 'ping', message: Math.floor(DEMO_NOW / 1000) });
    expect(c.texts.find((t) => t.includes('ping'))).toBe(`{"type":"ping","message":${Math.floor(DEMO_NOW / 1000)}}`);
  });

  it('chooses the sub-protocol as Rails does: the first offered that it speaks, actioncable-unsupported included, else none', async () => {
    expect((await cable({ protocols: ['actioncable-unsupported'] })).ws.protocol).toBe('actioncable-unsupported');
    expect((await cable({ protocols: ['actioncable-unsupported', 'actioncable-v1-json'] })).ws.protocol).toBe('actioncable-unsupported');
    expect((await cable({ protocols: ['graphql-ws', 'actioncable-v1-json'] })).ws.protocol).toBe('actioncable-v1-json');
    const none = await cable({ protocols: [] });
    expect(none.ws.protocol).toBe('');
    await none.next((f) => f.type === 'welcome', 0);
  });

  it('accepts any Origin (Chatwoot turns forgery protection off) and none; a subscription still needs its token', async () => {
    const foreign = await cable({ headers: { Origin: 'https://elsewhere.example' } });
    const id = roomIdentifier({ pubsub_token: 'guessed', account_id: svc.creds.accountId, user_id: 1 });
    expect(await subscribed(foreign, id)).toEqual({ identifier: id, type: 'reject_subscription' });
    const ok = await subscribed(foreign, agentId());
    expect(ok.type).toBe('confirm_subscription');
  });

  it('answers other WebSocket paths with 404 at once', async () => {
    await expect(openRawCable(baseUrl, { path: '/not-cable' })).rejects.toThrow('404');
  });

  it('closes a connection that sends a frame over 64 KiB (1009), as socket.io refuses oversized packets', async () => {
    const c = await cable();
    c.ws.send('x'.repeat(65 * 1024));
    expect((await c.closed).code).toBe(1009);
  });
});

describe('subscriptions', () => {
  it('confirms with the exact identifier text, and wraps broadcasts in {identifier, message:{event, data}}', async () => {
    const c = await cable();
    const sam = userOf('sam@acme.example');
    // Key order and spacing are the client's: Rails echoes the text, it does not re-encode it.
    const id = `{"user_id": ${sam.id}, "account_id": ${svc.creds.accountId}, "pubsub_token": "${sam.pubsub_token}", "channel": "RoomChannel"}`;
    await subscribed(c, id);
    expect(c.texts).toContain(`{"identifier":${JSON.stringify(id)},"type":"confirm_subscription"}`);
    const name = 'Envelope Person';
    const got = c.next(envelope(id, 'contact.created'));
    const contact = createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: svc.creds.accountId, name });
    const frame = await got;
    expect(Object.keys(frame)).toEqual(['identifier', 'message']);
    expect(frame.message).toMatchObject({ event: 'contact.created', data: { id: contact.id, name, account_id: svc.creds.accountId } });
    expect(Object.keys(frame.message as object)).toEqual(['event', 'data']);
  });

  it('rejects with reject_subscription; ignores a repeated subscribe, an unknown channel and malformed commands, as Rails', async () => {
    const c = await cable();
    const bad = roomIdentifier({ pubsub_token: 'nope' });
    expect(await subscribed(c, bad)).toEqual({ identifier: bad, type: 'reject_subscription' });
    const id = agentId();
    await subscribed(c, id);
    const before = c.frames.length;
    c.send({ command: 'subscribe', identifier: id });
    c.send({ command: 'subscribe', identifier: JSON.stringify({ channel: 'ChatChannel', pubsub_token: userOf('sam@acme.example').pubsub_token }) });
    c.ws.send('not json');
    c.send({ command: 'dance', identifier: id });
    c.send({ command: 'subscribe', identifier: 'not an object' });
    c.send({ command: 'message', identifier: id, data: 'not json' });
    c.send({ command: 'message', identifier: id, data: JSON.stringify({ action: 'speak' }) });
    await sync(c);
    // Only the sync's own rejection (and perhaps a ping) came after: no answer to any of the above.
    expect(c.frames.slice(before).filter((f) => f.type !== 'ping').map((f) => f.type)).toEqual(['reject_subscription']);
    expect(c.ws.readyState).toBe(c.ws.OPEN);
  });

  it('unsubscribe stops delivery to that subscription only', async () => {
    const c = await cable();
    const sam = agentId();
    const alex = agentId('alex@acme.example');
    await subscribed(c, sam);
    await subscribed(c, alex);
    c.send({ command: 'unsubscribe', identifier: sam });
    await sync(c);
    const from = c.frames.length;
    await barrier(c, alex);
    await sync(c);
    expect(c.frames.slice(from).filter((f) => f.identifier === sam)).toEqual([]);
    expect(c.frames.slice(from).filter((f) => f.identifier === alex)).toHaveLength(1);
  });
});

describe('presence (update_presence)', () => {
  const presence = (c: RawCable, id: string, from?: number) => c.next(envelope(id, 'presence.update'), from);

  it('on subscribe and on update_presence, the subscriber alone gets presence.update: present users with their availability, contacts for agents', async () => {
    const samCable = await cable();
    const alexCable = await cable();
    const sam = agentId();
    const alex = agentId('alex@acme.example');
    const before = samCable.frames.length;
    await subscribed(samCable, sam);
    const first = await presence(samCable, sam, before);
    const samId = userOf('sam@acme.example').id;
    expect(first.message).toMatchObject({ event: 'presence.update', data: { account_id: svc.creds.accountId, users: { [samId]: 'online' }, contacts: {} } });
    await subscribed(alexCable, alex);
    await presence(alexCable, alex, 0);
    // A contact subscribes: it is present for the agents; its own report has users only.
    const visitor = await createClientContact(svc, svc.creds.apiInboxIdentifier);
    const contactCable = await cable();
    const contactId = roomIdentifier({ pubsub_token: visitor.pubsub_token });
    await subscribed(contactCable, contactId);
    const contactReport = (await presence(contactCable, contactId, 0)).message as { data: Record<string, unknown> };
    expect(Object.keys(contactReport.data).sort()).toEqual(['account_id', 'users']);
    expect(contactReport.data.users).toMatchObject({ [samId]: 'online' });

    const alexBefore = alexCable.frames.length;
    const again = presence(samCable, sam);
    samCable.send({ command: 'message', identifier: sam, data: JSON.stringify({ action: 'update_presence' }) });
    expect(((await again).message as { data: { contacts: Record<string, string> } }).data.contacts).toEqual({ [String(visitor.id)]: 'online' });
    await barrier(alexCable, alex);
    expect(alexCable.frames.slice(alexBefore).some((f) => (f.message as { event?: string } | undefined)?.event === 'presence.update')).toBe(false);
  });

  it('lapses after 20 s without update_presence; a user with auto_offline off is always listed', async () => {
    const c = await cable();
    const sam = agentId();
    await subscribed(c, sam);
    await presence(c, sam, 0);
    const alexId = userOf('alex@acme.example').id;
    svc.db.prepare('UPDATE account_users SET auto_offline = 0, availability = ? WHERE user_id = ? AND account_id = ?').run('busy', alexId, svc.creds.accountId);
    svc.setNow(DEMO_NOW + 21_000);
    try {
      const other = await cable();
      const jordan = agentId('jordan@acme.example');
      await subscribed(other, jordan);
      const report = ((await presence(other, jordan, 0)).message as { data: { users: Record<string, string> } }).data.users;
      expect(report[String(userOf('sam@acme.example').id)]).toBeUndefined();
      expect(report[String(alexId)]).toBe('busy');
      expect(report[String(userOf('jordan@acme.example').id)]).toBe('online');
    } finally {
      svc.setNow(DEMO_NOW);
      svc.db.prepare('UPDATE account_users SET auto_offline = 1, availability = ? WHERE user_id = ? AND account_id = ?').run('online', alexId, svc.creds.accountId);
    }
  });
});

describe('shutdown and socket.io turned off', () => {
  it('a service with socket.io off serves /cable alone; closing it sends Rails’ server_restart disconnect', async () => {
    const only = await demoService({ live: { socketIo: false } });
    const url = await only.app.listen({ port: 0, host: '127.0.0.1' });
    expect(only.live.io).toBeUndefined();
    expect((await fetch(`${url}/socket.io/?EIO=4&transport=polling`)).status).toBe(404);
    const c = await openRawCable(url);
    const u = only.db.prepare("SELECT id, pubsub_token FROM users WHERE email = 'sam@acme.example'").get() as { id: number; pubsub_token: string };
    const id = roomIdentifier({ pubsub_token: u.pubsub_token, account_id: only.creds.accountId, user_id: u.id });
    const confirmed = c.next(answerTo(id));
    c.send({ command: 'subscribe', identifier: id });
    expect((await confirmed).type).toBe('confirm_subscription');
    const disconnect = c.next((f) => f.type === 'disconnect');
    const closing = only.close();
    expect(await disconnect).toEqual({ type: 'disconnect', reason: 'server_restart', reconnect: true });
    await c.closed;
    await closing;
  });
});
