// Main's live connection over ActionCable, against the real service with socket.io turned off
// (as a real Chatwoot installation): the transport is detected, not configured; it subscribes with
// the session's credential, forwards validated events, asks for a catch-up after every reconnect
// (ActionCable replays nothing), sends presence heartbeats, re-reads the profile when refused,
// follows a service restart and a switch from socket.io to ActionCable, and never lets the
// pubsub_token out. A bare WebSocket server stands in for a /cable that goes quiet.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { transportDetector } from '../../main/core/live/detect';
import type { MainCore } from '../../main/core/core';
import { buildService } from '../../server/app';
import type { Service } from '../../server/app';
import { seedDemo } from '../../server/demo/seed';
import type { DemoCredentials } from '../../server/demo/seed';
import { rooms } from '../../server/live/rooms';
import { createContact } from '../../server/store/writes';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import type { LiveCore } from '../support/live-core';
import { isStatus, liveCore, liveEvent } from '../support/live-core';
import { withoutExtensions } from '../support/fake-service';
import type { LiveUpdatesOptions } from '../../main/core/live/live-updates';
import { contactWrites } from '../support/public-api';

let cableOnly: DemoService;
let cableUrl: string;
beforeAll(async () => {
  cableOnly = await demoService({ live: { socketIo: false } });
  cableUrl = await cableOnly.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => cableOnly.close());
const cores: MainCore[] = [];
afterEach(() => {
  for (const c of cores.splice(0)) c.closeLive();
});

const userIdOf = (svc: Service, token: string) => (svc.db.prepare('SELECT owner_id AS id FROM access_tokens WHERE token = ?').get(token) as { id: number }).id;
const pubsubOf = (svc: Service, userId: number) => (svc.db.prepare('SELECT pubsub_token FROM users WHERE id = ?').get(userId) as { pubsub_token: string }).pubsub_token;
/** Client WebSockets main opened for /cable, and every frame it sent. */
function spyingCable() {
  const sockets: WebSocket[] = [];
  const sent: string[] = [];
  const connectCable = (url: string, protocols: string[]) => {
    const ws = new WebSocket(url, protocols);
    const send = ws.send.bind(ws);
    ws.send = ((data: string) => {
      sent.push(data);
      send(data);
    }) as typeof ws.send;
    sockets.push(ws);
    return ws;
  };
  return { sockets, sent, connectCable };
}
async function signedIn(baseUrl: string, token: string, live: LiveUpdatesOptions = {}, fetch?: typeof globalThis.fetch) {
  const t = liveCore({ live, ...(fetch ? { fetch } : {}) });
  cores.push(t.core);
  const connected = t.next(isStatus('connected'));
  expect((await t.core.call('session.signIn', { baseUrl, accessToken: token })).ok).toBe(true);
  await connected;
  return t;
}
const statuses = (t: LiveCore, from = 0) => t.emitted.slice(from).filter((e) => e.name === 'live.status' || e.name === 'live.catchUp').map((e) => e.payload);
describe('which transport', () => {
  it('the probe says socket.io for the default service, cable with socket.io off or a Rails-like 404, nothing when it cannot tell', async () => {
    const both = await demoService();
    const bothUrl = await both.app.listen({ port: 0, host: '127.0.0.1' });
    const answering = (status: number) => createServer((_req, res) => res.writeHead(status, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'));
    const rails = answering(404).listen(0, '127.0.0.1');
    const down = answering(503).listen(0, '127.0.0.1');
    const at = (s: ReturnType<typeof answering>) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    try {
      const detect = transportDetector();
      expect(await detect(bothUrl)).toBe('socket.io');
      expect(await detect(cableUrl)).toBe('cable');
      expect(await detect(at(rails))).toBe('cable');
      expect(await detect(at(down))).toBeUndefined();
      expect(await detect('http://127.0.0.1:9')).toBeUndefined();
      // The probe opened no engine.io session.
      expect(both.live.io!.engine.clientsCount).toBe(0);
    } finally {
      rails.close();
      down.close();
      await both.close();
    }
  });

  it('against a service without socket.io, main subscribes over /cable with the session pubsub_token, account and user', async () => {
    const spy = spyingCable();
    const t = await signedIn(cableUrl, cableOnly.creds.agentToken, { connectCable: spy.connectCable });
    const agentId = userIdOf(cableOnly, cableOnly.creds.agentToken);
    expect(cableOnly.live.cable.subscribersOf(rooms.agent(cableOnly.creds.accountId, agentId))).toBe(1);
    expect(JSON.parse(spy.sent[0]!)).toEqual({
      command: 'subscribe',
      identifier: JSON.stringify({ channel: 'RoomChannel', pubsub_token: pubsubOf(cableOnly, agentId), account_id: cableOnly.creds.accountId, user_id: agentId }),
    });
    expect(spy.sockets[0]!.url).toBe(`${cableUrl.replace('http', 'ws')}/cable`);
    expect(statuses(t)).toEqual([{ state: 'connecting' }, { state: 'connected', recovered: false }, { reason: 'connected' }]);
  });
});

describe('over ActionCable', () => {
  it('forwards validated events (presence too), drops malformed ones with a log line', async () => {
    const t = await signedIn(cableUrl, cableOnly.creds.agentToken);
    const arrived = t.next(liveEvent('message.created', (p) => (p.message as { content: string }).content === 'over the cable'));
    const conversationId = await contactWrites(cableOnly, 'over the cable');
    expect((await arrived).payload).toMatchObject({ type: 'message.created', accountId: cableOnly.creds.accountId, message: { conversation_id: conversationId, sender: { type: 'contact' } } });
    const to = [rooms.account(cableOnly.creds.accountId)];
    cableOnly.live.deliver({ name: 'message.created', data: { id: 'not a number', account_id: cableOnly.creds.accountId }, to, except: [] });
    cableOnly.live.deliver({ name: 'presence.update', data: { account_id: cableOnly.creds.accountId, users: {} }, to, except: [] });
    const good = t.next(liveEvent('contact.created', (p) => (p.contact as { name: string }).name === 'After the noise'));
    createContact({ db: cableOnly.db, bus: cableOnly.bus, now: cableOnly.clock() }, { accountId: cableOnly.creds.accountId, name: 'After the noise' });
    await good;
    expect(t.lines.filter((l) => l.includes('dropped a malformed'))).toEqual([expect.stringContaining('message.created event')]);
    expect(t.emitted.some((e) => e.name === 'live.event' && (e.payload as { type: string; users: object }).type === 'presence.update')).toBe(true);
  });

  it('every reconnect asks the renderer to catch up (ActionCable replays nothing), and events flow again', async () => {
    const spy = spyingCable();
    const t = await signedIn(cableUrl, cableOnly.creds.agentToken, { connectCable: spy.connectCable });
    for (const round of [1, 2]) {
      const before = t.emitted.length;
      const back = t.next(isStatus('connected'), before);
      spy.sockets.at(-1)!.terminate(); // the network goes, as a blip would
      await back;
      expect(statuses(t, before)).toEqual([{ state: 'offline' }, { state: 'connected', recovered: false }, { reason: 'not_recovered' }]);
      const again = t.next(liveEvent('message.created', (p) => (p.message as { content: string }).content === `after drop ${round}`));
      await contactWrites(cableOnly, `after drop ${round}`);
      await again;
    }
    expect(spy.sockets).toHaveLength(3);
  });

  it("sends update_presence while subscribed, as Chatwoot's dashboard does, to a service without the presence extension; only the subscribe frame names the pubsub_token", async () => {
    const spy = spyingCable();
    const t = await signedIn(cableUrl, cableOnly.creds.agentToken, { connectCable: spy.connectCable, presenceIntervalMs: 20 }, withoutExtensions(fetch));
    await expect.poll(() => spy.sent.filter((f) => f.includes('update_presence')).length).toBeGreaterThanOrEqual(2);
    // Opening a conversation tells such a service nothing.
    expect(await t.core.call('app.setViewing', { conversationId: 5 })).toEqual({ ok: true, value: { told: false } });
    const identifier = (JSON.parse(spy.sent[0]!) as { identifier: string }).identifier;
    for (const frame of spy.sent.slice(1)) expect(JSON.parse(frame)).toEqual({ command: 'message', identifier, data: '{"action":"update_presence"}' });
    t.core.closeLive();
  });

  it('with the presence extension, update_presence says what the agent has open, at once when it changes', async () => {
    const spy = spyingCable();
    const t = await signedIn(cableUrl, cableOnly.creds.agentToken, { connectCable: spy.connectCable, presenceIntervalMs: 60_000 });
    const told = await t.core.call('app.setViewing', { conversationId: 42 });
    expect(told).toEqual({ ok: true, value: { told: true } });
    // Read each frame's data: a random pubsub_token in the identifier may itself hold "42".
    const presence = () => spy.sent.map((f) => JSON.parse(f) as { data?: string }).filter((f) => f.data?.includes('update_presence')).map((f) => JSON.parse(f.data!) as unknown);
    await expect.poll(() => presence().at(-1)).toEqual({ action: 'update_presence', viewing: 42 });
    t.core.closeLive();
  });

  it('a refused subscription (pubsub_token replaced) reads the profile again and subscribes with the new token', async () => {
    const spy = spyingCable();
    const t = await signedIn(cableUrl, cableOnly.creds.agentToken, { connectCable: spy.connectCable });
    const agentId = userIdOf(cableOnly, cableOnly.creds.agentToken);
    const old = pubsubOf(cableOnly, agentId);
    cableOnly.db.prepare('UPDATE users SET pubsub_token = ? WHERE id = ?').run(`replaced-${Date.now()}`, agentId);
    try {
      const before = t.emitted.length;
      const back = t.next(isStatus('connected'), before);
      spy.sockets.at(-1)!.terminate();
      await back;
      expect(t.lines.some((l) => l.includes('refused the connection'))).toBe(true);
      expect(spy.sent.at(-1)).toContain(pubsubOf(cableOnly, agentId));
      expect(statuses(t, before).at(-1)).toEqual({ reason: 'not_recovered' });
    } finally {
      cableOnly.db.prepare('UPDATE users SET pubsub_token = ? WHERE id = ?').run(old, agentId);
    }
  });

  it('never lets a pubsub_token out: no bridge event and no log line carries one', async () => {
    const t = await signedIn(cableUrl, cableOnly.creds.agentToken);
    const conversationId = await contactWrites(cableOnly, 'token hunt over the cable');
    await t.next(liveEvent('message.created', (p) => (p.message as { conversation_id: number }).conversation_id === conversationId));
    cableOnly.live.deliver({ name: 'message.created', data: { nonsense: pubsubOf(cableOnly, userIdOf(cableOnly, cableOnly.creds.agentToken)) }, to: [rooms.account(cableOnly.creds.accountId)], except: [] });
    await contactWrites(cableOnly, 'barrier');
    await t.next(liveEvent('message.created', (p) => (p.message as { content: string }).content === 'barrier'));
    t.core.closeLive();
    const everything = JSON.stringify(t.emitted) + t.lines.join('\n');
    const allPubsub = (cableOnly.db.prepare('SELECT pubsub_token FROM users UNION SELECT pubsub_token FROM contact_inboxes').all() as { pubsub_token: string }[]).map((r) => r.pubsub_token);
    for (const token of allPubsub) expect(everything).not.toContain(token);
    expect(everything).not.toContain('pubsub');
  });
});

describe('a service that stops and comes back', () => {
  /** A demo service on a database file, so a restart on the same port finds the same data. */
  async function fileService(dbFile: string, port: number, socketIo: boolean, seed: boolean): Promise<{ svc: Service; url: string; creds?: DemoCredentials }> {
    const svc = await buildService({ db: dbFile, live: { socketIo } });
    const creds = seed ? seedDemo(svc.db, Date.now()) : undefined;
    const url = await svc.app.listen({ port, host: '127.0.0.1' });
    return { svc, url, ...(creds ? { creds } : {}) };
  }

  it.each([
    ['ActionCable, restarted the same', false, false],
    ['socket.io, restarted without it', true, false],
  ])('%s: main reconnects over ActionCable and asks for a catch-up', async (_label, before, after) => {
    const dbFile = join(mkdtempSync(join(tmpdir(), 'live-cable-')), 'service.sqlite');
    const first = await fileService(dbFile, 0, before, true);
    const port = Number(new URL(first.url).port);
    const t = await signedIn(first.url, first.creds!.agentToken);
    const agentRoom = rooms.agent(first.creds!.accountId, userIdOf(first.svc, first.creds!.agentToken));
    // Connected over the transport the first service offered.
    expect([(await first.svc.live.io?.in(agentRoom).fetchSockets())?.length ?? 0, first.svc.live.cable.subscribersOf(agentRoom)]).toEqual(before ? [1, 0] : [0, 1]);
    const mark = t.emitted.length;
    const offline = t.next(isStatus('offline'), mark);
    await first.svc.close();
    await offline;
    const second = await fileService(dbFile, port, after, false);
    try {
      const back = await t.next(isStatus('connected'), mark);
      expect(back.payload).toEqual({ state: 'connected', recovered: false });
      await t.next((e) => e.name === 'live.catchUp', mark);
      await expect.poll(() => second.svc.live.cable.subscribersOf(agentRoom)).toBe(1);
    } finally {
      t.core.closeLive();
      await second.svc.close();
    }
  });
});

describe('a /cable that goes quiet (a bare WebSocket server in its place)', () => {
  /** Welcomes every connection; confirms subscriptions unless told not to; never pings. */
  async function quietCable(opts: { confirm: boolean }) {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'actioncable-v1-json' });
    await new Promise((resolve) => wss.once('listening', resolve));
    const subscribes: string[] = [];
    wss.on('connection', (ws) => {
      ws.send(JSON.stringify({ type: 'welcome' }));
      ws.on('message', (data) => {
        const cmd = JSON.parse(data.toString()) as { command: string; identifier: string };
        if (cmd.command !== 'subscribe') return;
        subscribes.push(cmd.identifier);
        if (opts.confirm) ws.send(JSON.stringify({ identifier: cmd.identifier, type: 'confirm_subscription' }));
      });
    });
    const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/cable`;
    return { wss, subscribes, live: { detect: async () => 'cable' as const, connectCable: (_u: string, protocols: string[]) => new WebSocket(url, protocols) } };
  }

  it('no frame for the stale time: the connection is dropped and opened again, with a catch-up', async () => {
    const quiet = await quietCable({ confirm: true });
    try {
      const t = await signedIn(cableUrl, cableOnly.creds.agentToken, { ...quiet.live, staleMs: 100 });
      await t.next((e) => e.name === 'live.catchUp' && (e.payload as { reason: string }).reason === 'not_recovered');
      expect(quiet.subscribes.length).toBeGreaterThanOrEqual(2);
    } finally {
      quiet.wss.close();
    }
  });

  it('a subscription never answered (how Chatwoot meets an unknown token) counts as refused: the profile is read again', async () => {
    const quiet = await quietCable({ confirm: false });
    try {
      const t = liveCore({ live: { ...quiet.live, subscribeTimeoutMs: 50 } });
      cores.push(t.core);
      expect((await t.core.call('session.signIn', { baseUrl: cableUrl, accessToken: cableOnly.creds.agentToken })).ok).toBe(true);
      await expect.poll(() => t.lines.filter((l) => l.includes('refused the connection')).length).toBeGreaterThanOrEqual(2);
      expect(quiet.subscribes.length).toBeGreaterThanOrEqual(2);
      expect(t.emitted.some(isStatus('connected'))).toBe(false);
    } finally {
      quiet.wss.close();
    }
  });
});
