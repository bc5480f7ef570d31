// Live updates over ActionCable, judged with the official client (@rails/actioncable, as
// Chatwoot's dashboard and widget use it; Node shims in ../support/official-cable.ts): it
// subscribes to /cable as an agent and as a contact, receives every event kind the socket.io path
// delivers (the kinds are read from server/live/payloads.ts, not listed here) with the same
// payloads in the same order as a socket.io client of the same identity, and is refused where a
// socket.io client is.
import { randomUUID } from 'node:crypto';
import type { Socket as NetSocket } from 'node:net';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationByDisplayId } from '../../server/store/conversations';
import { createContact } from '../../server/store/writes';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import type { OfficialSubscription } from '../support/official-cable';
import { subscribeRoom } from '../support/official-cable';
import { clientPath, createClientContact, extraTenant, hmacHex, startWidget, widgetRequest } from '../support/public-api';
import { connectSocket, countTcpWrites } from '../support/sockets';

let svc: DemoService;
let baseUrl: string;
const open: { close(): void }[] = [];
beforeAll(async () => {
  svc = await demoService();
  baseUrl = await svc.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const c of open) c.close();
  await svc.close();
});

/** Every event name the live payload builder has a case for: what the socket.io path can deliver. */
const deliveredKinds = () =>
  [...readFileSync(resolve(import.meta.dirname, '../../server/live/payloads.ts'), 'utf8').matchAll(/^\s*case '([a-z_.]+)':/gm)].map((m) => m[1]!).sort();

const userOf = (email: string) => svc.db.prepare('SELECT id, pubsub_token FROM users WHERE email = ?').get(email) as { id: number; pubsub_token: string };
const A = () => `/api/v1/accounts/${svc.creds.accountId}`;
async function both(cable: Record<string, unknown>, socket: Record<string, unknown>) {
  const c = await subscribeRoom(baseUrl, cable);
  const s = await connectSocket(baseUrl, socket);
  open.push(c, s);
  return { c, s };
}
/** What the cable subscription received, minus presence (ActionCable's alone), in socket.io's terms. */
const asSocketIo = (c: OfficialSubscription) => c.received.filter((r) => r.event !== 'presence.update').map((r) => ({ name: r.event, data: r.data }));
async function ok(res: Promise<{ status: number; text: string; body: unknown }>) {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
  return r.body as Record<string, unknown>;
}

describe('every event kind over /cable, as over socket.io', () => {
  it('the payload builder names the kinds this test must see (a sanity check of the scan)', () => {
    expect(deliveredKinds()).toContain('message.created');
    expect(deliveredKinds()).toContain('notification.deleted');
    expect(deliveredKinds().length).toBeGreaterThanOrEqual(19);
  });

  it('an agent and a contact receive over ActionCable exactly what their socket.io twins receive, every kind included', async () => {
    const sam = userOf('sam@acme.example');
    const agent = await both({ pubsub_token: sam.pubsub_token, account_id: svc.creds.accountId, user_id: sam.id }, { pubsub_token: sam.pubsub_token, account_id: svc.creds.accountId });
    const contact = await createClientContact(svc, svc.creds.apiInboxIdentifier, { name: 'Cable Contact' });
    const visitor = await both({ pubsub_token: contact.pubsub_token }, { pubsub_token: contact.pubsub_token });
    const base = clientPath(svc.creds.apiInboxIdentifier, `/contacts/${contact.source_id}/conversations`);
    const conv = await ok(svc.request({ method: 'POST', url: base, payload: {} }));
    const C = `${A()}/conversations/${conv.id as number}`;
    const asAdmin = (method: string, url: string, payload?: unknown) => ok(svc.request({ method, url, token: svc.creds.adminToken, ...(payload === undefined ? {} : { payload }) }));

    await ok(svc.request({ method: 'POST', url: `${base}/${conv.id as number}/messages`, payload: { content: 'hello over cable' } }));
    await ok(svc.request({ method: 'POST', url: `${base}/${conv.id as number}/toggle_typing`, payload: { typing_status: 'on' } }));
    await ok(svc.request({ method: 'POST', url: `${base}/${conv.id as number}/toggle_typing`, payload: { typing_status: 'off' } }));
    await asAdmin('POST', `${C}/toggle_typing_status`, { typing_status: 'on' });
    await asAdmin('POST', `${C}/toggle_typing_status`, { typing_status: 'off' });
    await ok(svc.request({ method: 'POST', url: `${base}/${conv.id as number}/update_last_seen` }));
    await asAdmin('POST', `${C}/toggle_priority`, { priority: 'high' });
    await asAdmin('POST', `${C}/assignments`, { assignee_id: sam.id });
    const team = svc.db.prepare('SELECT id FROM teams WHERE account_id = ? ORDER BY id LIMIT 1').get(svc.creds.accountId) as { id: number };
    await asAdmin('POST', `${C}/assignments`, { team_id: team.id });
    const note = await asAdmin('POST', `${C}/messages`, { content: `[@Sam](mention://user/${sam.id}/Sam) please look`, private: true });
    await asAdmin('DELETE', `${C}/messages/${note.id as number}`);
    svc.bus.emit({ name: 'conversation.contact_changed', accountId: svc.creds.accountId, conversationId: conversationByDisplayId(svc.db, svc.creds.accountId, conv.id as number)!.id });
    const notifications = (await ok(svc.request({ url: `${A()}/notifications`, token: svc.creds.agentToken }))) as { data: { payload: { id: number }[] } };
    const [first, second] = notifications.data.payload;
    await ok(svc.request({ method: 'PATCH', url: `${A()}/notifications/${first!.id}`, token: svc.creds.agentToken, payload: {} }));
    await ok(svc.request({ method: 'DELETE', url: `${A()}/notifications/${second!.id}`, token: svc.creds.agentToken }));
    await ok(svc.request({ method: 'PATCH', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${contact.source_id}`), payload: { name: 'Cable Contact Renamed' } }));
    // A widget visitor proving the identity of an existing contact is merged into it.
    const identifier = `cable-merge-${randomUUID()}`;
    await asAdmin('POST', `${A()}/contacts`, { name: 'Merge Target', identifier });
    const widget = await startWidget(svc, svc.creds.websiteToken);
    expect((await widgetRequest(svc, svc.creds.websiteToken, widget.website_channel_config.auth_token, 'PATCH', 'contact/set_user', { identifier, identifier_hash: hmacHex(svc.creds.widgetHmacToken, identifier) })).status).toBe(200);
    const doomed = await asAdmin('POST', `${A()}/contacts`, { name: 'Doomed Contact' });
    await asAdmin('DELETE', `${A()}/contacts/${(doomed.payload as { contact: { id: number } }).contact.id}`);
    await asAdmin('POST', `${C}/toggle_status`, { status: 'resolved' });
    // The directory changed (account.cache_invalidated).
    await asAdmin('POST', `${A()}/labels`, { label: { title: `cable-${randomUUID().slice(0, 8)}` } });

    // Barriers: a last event each side must get; both transports keep per-connection order, not
    // order between them (socket.io writes once per event-loop turn), so the agent's barrier comes
    // after everything the agent hears.
    const visitorDone = [visitor.c.next('message.created', (d) => d.content === 'last words'), visitor.s.next('message.created', (d) => d.content === 'last words')];
    await ok(svc.request({ method: 'POST', url: `${base}/${conv.id as number}/messages`, payload: { content: 'last words' } }));
    await Promise.all(visitorDone);
    const barrierName = `Cable barrier ${randomUUID()}`;
    const agentDone = [agent.c.next('contact.created', (d) => d.name === barrierName), agent.s.next('contact.created', (d) => d.name === barrierName)];
    createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: svc.creds.accountId, name: barrierName });
    await Promise.all(agentDone);

    const kinds = new Set([...agent.s.received, ...visitor.s.received].map((r) => r.name));
    expect([...kinds].sort()).toEqual(deliveredKinds());
    const overCable = new Set([...agent.c.received, ...visitor.c.received].map((r) => r.event).filter((e) => e !== 'presence.update'));
    expect([...overCable].sort()).toEqual(deliveredKinds());
    expect(asSocketIo(agent.c)).toEqual(agent.s.received);
    expect(asSocketIo(visitor.c)).toEqual(visitor.s.received);
    // Private notes and typing stay where socket.io keeps them: never to the contact.
    expect(visitor.c.received.some((r) => r.event === 'conversation.mentioned' || (r.event === 'message.created' && r.data.private === true))).toBe(false);
  });
});

describe('refusals, as on socket.io', () => {
  const refusedOnBoth = async (cable: Record<string, unknown>, socket: Record<string, unknown>) => {
    await expect(subscribeRoom(baseUrl, cable)).rejects.toThrow('rejected');
    await expect(connectSocket(baseUrl, socket)).rejects.toThrow('unauthorized');
  };
  it('a wrong pubsub_token is rejected, for an agent and for a contact', async () => {
    const sam = userOf('sam@acme.example');
    await refusedOnBoth({ pubsub_token: 'not-a-token', account_id: svc.creds.accountId, user_id: sam.id }, { pubsub_token: 'not-a-token', account_id: svc.creds.accountId });
    await refusedOnBoth({ pubsub_token: 'not-a-token' }, { pubsub_token: 'not-a-token' });
  });
  it("another account's subscription is rejected: the user is not in it", async () => {
    const sam = userOf('sam@acme.example');
    await refusedOnBoth({ pubsub_token: sam.pubsub_token, account_id: svc.creds.otherAccountId, user_id: sam.id }, { pubsub_token: sam.pubsub_token, account_id: svc.creds.otherAccountId });
  });
  it("a user_id that is not the token's, and an agent's token without user_id (looked up as a contact's, as Chatwoot does)", async () => {
    const sam = userOf('sam@acme.example');
    await refusedOnBoth({ pubsub_token: sam.pubsub_token, account_id: svc.creds.accountId, user_id: sam.id + 1 }, { pubsub_token: sam.pubsub_token, account_id: svc.creds.accountId, user_id: sam.id + 1 });
    await expect(subscribeRoom(baseUrl, { pubsub_token: sam.pubsub_token, account_id: svc.creds.accountId })).rejects.toThrow('rejected');
  });
  it('a suspended account, for its agents and its contacts', async () => {
    const tenant = extraTenant(svc);
    const visitor = await createClientContact(svc, tenant.api.identifier!);
    svc.db.prepare("UPDATE accounts SET status = 'suspended' WHERE id = ?").run(tenant.accountId);
    const token = (svc.db.prepare('SELECT pubsub_token FROM users WHERE id = ?').get(tenant.admin.id) as { pubsub_token: string }).pubsub_token;
    await refusedOnBoth({ pubsub_token: token, account_id: tenant.accountId, user_id: tenant.admin.id }, { pubsub_token: token, account_id: tenant.accountId });
    await refusedOnBoth({ pubsub_token: visitor.pubsub_token }, { pubsub_token: visitor.pubsub_token });
  });
  it("a subscription's token replaced, or its user removed, is refused on the next subscribe", async () => {
    const tenant = extraTenant(svc);
    const token = () => (svc.db.prepare('SELECT pubsub_token FROM users WHERE id = ?').get(tenant.admin.id) as { pubsub_token: string }).pubsub_token;
    const params = () => ({ pubsub_token: token(), account_id: tenant.accountId, user_id: tenant.admin.id });
    const before = params();
    const ok1 = await subscribeRoom(baseUrl, before);
    open.push(ok1);
    svc.db.prepare('UPDATE users SET pubsub_token = ? WHERE id = ?').run(randomUUID(), tenant.admin.id);
    await expect(subscribeRoom(baseUrl, before)).rejects.toThrow('rejected');
    const ok2 = await subscribeRoom(baseUrl, params());
    open.push(ok2);
    svc.db.prepare('DELETE FROM account_users WHERE account_id = ? AND user_id = ?').run(tenant.accountId, tenant.admin.id);
    await expect(subscribeRoom(baseUrl, params())).rejects.toThrow('rejected');
  });
});

describe('ActionCable deliveries', () => {
  it("of one event-loop turn leave in one TCP write per connection, in order, as the official client reads them", async () => {
    // The server's side of the next /cable connection, taken from its upgrade request.
    const upgraded = new Promise<NetSocket>((resolve) => {
      const onUpgrade = (request: { url?: string }, socket: NetSocket) => {
        if (!request.url?.startsWith('/cable')) return;
        svc.app.server.off('upgrade', onUpgrade);
        resolve(socket);
      };
      svc.app.server.on('upgrade', onUpgrade);
    });
    const { pubsub_token, id } = userOf('alex@acme.example');
    const cable = await subscribeRoom(baseUrl, { pubsub_token, account_id: svc.creds.accountId, user_id: id });
    open.push(cable);
    const tcp = await upgraded;
    const writes = countTcpWrites(tcp);
    const batch = Array.from({ length: 10 }, (_, i) => `Cable batch ${i} ${randomUUID()}`);
    const last = cable.next('contact.created', (d) => d.name === batch[9]);
    for (const name of batch) createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: svc.creds.accountId, name });
    await last;
    expect(cable.received.filter((r) => r.event === 'contact.created').map((r) => r.data.name).slice(-10)).toEqual(batch);
    // One ws send (one write) per event before.
    expect(writes.count).toBe(1);
  });
});
