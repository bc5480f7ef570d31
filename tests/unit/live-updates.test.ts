// Main's live-update socket against the real service's socket.io server in this process: it
// connects with the session's pubsub_token, forwards validated events, drops malformed ones,
// follows sign-out and switches, tells a recovered reconnect from one that is not, and never lets
// the pubsub_token out (no bridge event carries it, no log line shows it).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MainCore } from '../../main/core/core';
import { memoryVault } from '../../main/core/vault';
import type { TokenVault } from '../../main/core/vault';
import type { SessionInfo } from '../../shared/bridge/calls/session';
import type { SavedSessionsStore } from '../../main/core/session/saved-sessions';
import { savedSessionsInMemory } from '../../main/core/session/saved-sessions';
import { createContact } from '../../server/store/writes';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { contactWrites as contactWritesAs } from '../support/public-api';
import { isStatus, liveCore as newLiveCore, liveEvent } from '../support/live-core';
import { multiAccountUser } from '../support/session-fixtures';

let svc: DemoService;
let baseUrl: string;
beforeAll(async () => {
  svc = await demoService();
  baseUrl = await svc.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => svc.close());

/** A main core with live updates on, every bridge event and log line it produced recorded. */
const liveCore = (opts: { now?: () => number; vault?: TokenVault; saved?: SavedSessionsStore } = {}) =>
  newLiveCore({ ...(opts.vault ? { vault: opts.vault } : {}), ...(opts.saved ? { saved: opts.saved } : {}), live: opts.now ? { now: opts.now } : {} });
const cores: MainCore[] = [];
afterEach(() => {
  for (const c of cores.splice(0)) c.closeLive();
});

const pubsubOf = (userId: number) => (svc.db.prepare('SELECT pubsub_token FROM users WHERE id = ?').get(userId) as { pubsub_token: string }).pubsub_token;
const userIdOf = (token: string) => (svc.db.prepare('SELECT owner_id AS id FROM access_tokens WHERE token = ?').get(token) as { id: number }).id;
/** Server-side sockets of one user, with the handshake they were accepted with. */
const serverSockets = async (userId: number) => (await svc.live.io!.fetchSockets()).filter((s) => (s.data as { identity?: { userId?: number } }).identity?.userId === userId);

async function signedIn(token = svc.creds.agentToken, opts: { now?: () => number } = {}) {
  const t = liveCore(opts);
  cores.push(t.core);
  const connected = t.next(isStatus('connected'));
  const r = await t.core.call('session.signIn', { baseUrl, accessToken: token });
  expect(r.ok).toBe(true);
  await connected;
  return t;
}

/**
 * An event the socket must receive (contact events go to every agent of the account): socket.io
 * recovers a session only from the offset of an event the client got.
 */
async function receiveOne(t: ReturnType<typeof liveCore>, accountId = svc.creds.accountId) {
  const name = `Offset ${Math.random()}`;
  const got = t.next(liveEvent('contact.created', (p) => (p.contact as { name: string }).name === name));
  createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId, name });
  await got;
}
const dropTransport = async (userId: number) => {
  for (const s of await serverSockets(userId)) (svc.live.io!.sockets.sockets.get(s.id)!.conn as { close(): void }).close();
};

/** The active session as the saved-sessions file holds it (no token). */
async function savedSessionRecord(core: MainCore) {
  const state = (await core.call('session.get', {})) as { ok: true; value: { session: SessionInfo } };
  return state.value.session;
}

const contactWrites = (content: string) => contactWritesAs(svc, content);

describe('main holds the live socket', () => {
  it('connects with the session pubsub_token, account and user once signed in, and says so', async () => {
    const t = await signedIn();
    const agentId = userIdOf(svc.creds.agentToken);
    const [socket] = await serverSockets(agentId);
    expect(socket!.handshake.auth).toEqual({ pubsub_token: pubsubOf(agentId), account_id: svc.creds.accountId, user_id: agentId });
    expect(t.emitted.filter((e) => e.name === 'live.status').map((e) => e.payload)).toEqual([{ state: 'connecting' }, { state: 'connected', recovered: false }]);
    // The first connection may follow events the renderer's first reads missed.
    expect(t.emitted.find((e) => e.name === 'live.catchUp')?.payload).toEqual({ reason: 'connected' });
    expect(await t.core.call('app.liveStatus', {})).toEqual({ ok: true, value: { state: 'connected', recovered: false } });
  });

  it('forwards validated events: a contact message reaches the renderer as message.created with the conversation summary', async () => {
    const t = await signedIn();
    const before = t.emitted.length;
    const arrived = t.next(liveEvent('message.created', (p) => (p.message as { content: string }).content === 'hello from outside'));
    const conversationId = await contactWrites('hello from outside');
    const { payload } = await arrived;
    expect(payload).toMatchObject({ type: 'message.created', accountId: svc.creds.accountId, message: { conversation_id: conversationId, message_type: 0, private: false, sender: { type: 'contact' } }, conversation: { assignee_id: null } });
    const created = await t.next(liveEvent('conversation.created', (p) => (p.conversation as { id: number }).id === conversationId), before);
    expect(created.payload).toMatchObject({ conversation: { id: conversationId, status: 'open', meta: { sender: { name: 'Live Contact' } } } });
  });

  it('drops malformed events with a log line naming the event and field, and ignores events it does not use', async () => {
    const t = await signedIn();
    svc.live.io!.emit('message.created', { id: 'not a number', account_id: svc.creds.accountId, conversation_id: 1, message_type: 0 });
    svc.live.io!.emit('conversation.updated', { id: 5, account_id: svc.creds.accountId, status: 'exploded', inbox_id: 1 });
    svc.live.io!.emit('first.reply.created', { account_id: svc.creds.accountId, id: 1 });
    svc.live.io!.emit('<script>alert(1)</script>', {});
    // A conversation push as Chatwoot sends it, with the contact's pubsub_token in contact_inbox.
    svc.live.io!.emit('conversation.updated', { id: 77, account_id: svc.creds.accountId, inbox_id: 1, status: 'open', contact_inbox: { source_id: 's', pubsub_token: 'contact-secret-pubsub-token' }, meta: {} });
    const good = await t.next(liveEvent('conversation.updated', (p) => (p.conversation as { id: number }).id === 77));
    expect(JSON.stringify(good.payload)).not.toContain('contact-secret-pubsub-token');
    expect(JSON.stringify(good.payload)).not.toContain('contact_inbox');
    // The answer to main's own update_presence may come in the same write as these (the service
    // sends a socket's events of a batch together): it is no event of the test's.
    const forwarded = t.emitted.filter((e) => e.name === 'live.event' && (e.payload as { type: string }).type !== 'presence.update');
    expect(forwarded).toEqual([good]);
    const dropped = t.lines.filter((l) => l.includes('dropped a malformed'));
    expect(dropped).toEqual([expect.stringContaining('message.created event'), expect.stringContaining('conversation.updated event')]);
    expect(dropped[0]).toContain('id:');
    expect(dropped[1]).toContain('status:');
    expect(t.lines.join('\n')).not.toContain('<script>');
  });

  it('with the presence extension, says over socket.io which conversation the agent has open, and forwards who views what', async () => {
    const sam = await signedIn();
    const alex = await signedIn(svc.creds.adminToken);
    const conversationId = (svc.db.prepare("SELECT display_id AS id FROM conversations WHERE account_id = ? AND inbox_id IN (SELECT inbox_id FROM inbox_members WHERE user_id = (SELECT id FROM users WHERE email = 'sam@acme.example')) LIMIT 1").get(svc.creds.accountId) as { id: number }).id;
    const samId = userIdOf(svc.creds.agentToken);
    const seen = alex.next(liveEvent('presence.update', (p) => JSON.stringify((p.viewing as Record<string, number[]> | undefined)?.[conversationId]) === JSON.stringify([samId])));
    expect(await sam.core.call('app.setViewing', { conversationId })).toEqual({ ok: true, value: { told: true } });
    const event = (await seen).payload as { users: Record<string, string> };
    expect(event.users[samId]).toBe('online');
    const left = alex.next(liveEvent('presence.update', (p) => !(p.viewing as Record<string, number[]> | undefined)?.[conversationId]));
    await sam.core.call('app.setViewing', { conversationId: null });
    await left;
  });

  it('closes the socket on sign-out, and on a switch opens one for the other account', async () => {
    const user = multiAccountUser(svc);
    const t = liveCore();
    cores.push(t.core);
    const pick = (await t.core.call('session.signIn', { baseUrl, accessToken: user.token })) as { ok: true; value: { pendingId: string } };
    let connected = t.next(isStatus('connected'));
    await t.core.call('session.chooseAccount', { pendingId: pick.value.pendingId, accountId: svc.creds.accountId });
    await connected;
    expect((await serverSockets(user.id)).map((s) => s.handshake.auth.account_id)).toEqual([svc.creds.accountId]);

    // Signing in to the other account makes it active: the first socket goes, one for the new account comes.
    const again = (await t.core.call('session.signIn', { baseUrl, accessToken: user.token })) as { ok: true; value: { pendingId: string } };
    connected = t.next(isStatus('connected'));
    await t.core.call('session.chooseAccount', { pendingId: again.value.pendingId, accountId: svc.creds.otherAccountId });
    await connected;
    await expect.poll(async () => (await serverSockets(user.id)).map((s) => s.handshake.auth.account_id)).toEqual([svc.creds.otherAccountId]);

    // Switching back by saved session id.
    const list = (await t.core.call('session.list', {})) as { ok: true; value: { sessions: { id: string; accountId: number }[] } };
    connected = t.next(isStatus('connected'));
    await t.core.call('session.switch', { sessionId: list.value.sessions.find((s) => s.accountId === svc.creds.accountId)!.id });
    await connected;
    await expect.poll(async () => (await serverSockets(user.id)).map((s) => s.handshake.auth.account_id)).toEqual([svc.creds.accountId]);

    const offline = t.next(isStatus('offline'));
    await t.core.call('session.signOut', {});
    await offline;
    await expect.poll(async () => (await serverSockets(user.id)).length).toBe(0);
  });

  it('a session reopened from disk (no pubsub_token stored) reads the profile and connects', async () => {
    const vault = memoryVault();
    const saved = savedSessionsInMemory();
    const first = await signedIn(svc.creds.agentToken);
    const session = await savedSessionRecord(first.core);
    first.core.closeLive();
    // A new launch: only the access token (vault) and the saved session (file) survive it.
    await vault.save(session.id, svc.creds.agentToken);
    await saved.write({ version: 1, activeId: session.id, sessions: [{ ...session, lastUsedAt: 1 }], obsoleteCaches: [] });
    const relaunched = liveCore({ vault, saved });
    cores.push(relaunched.core);
    expect((await relaunched.next(isStatus('connected'))).payload).toEqual({ state: 'connected', recovered: false });
    const agentId = userIdOf(svc.creds.agentToken);
    expect((await serverSockets(agentId)).some((s) => s.handshake.auth.pubsub_token === pubsubOf(agentId))).toBe(true);
  });

  it('closes the socket when the session expires (the access token was revoked)', async () => {
    const user = multiAccountUser(svc);
    svc.db.prepare('DELETE FROM account_users WHERE user_id = ? AND account_id = ?').run(user.id, svc.creds.otherAccountId);
    const t = await signedIn(user.token);
    expect(await serverSockets(user.id)).toHaveLength(1);
    svc.db.prepare("DELETE FROM access_tokens WHERE owner_type = 'User' AND owner_id = ?").run(user.id);
    const offline = t.next(isStatus('offline'));
    expect(await t.core.call('conversations.list', {})).toMatchObject({ ok: false, error: { kind: 'session_expired' } });
    await offline;
    await expect.poll(async () => (await serverSockets(user.id)).length).toBe(0);
    expect(await t.core.call('app.liveStatus', {})).toEqual({ ok: true, value: { state: 'offline' } });
  });

  it('reconnects after a network drop with the missed events replayed (recovered), and asks for no catch-up', async () => {
    const t = await signedIn();
    const agentId = userIdOf(svc.creds.agentToken);
    await receiveOne(t);
    const before = t.emitted.length;
    const offline = t.next(isStatus('offline'), before);
    const back = t.next(isStatus('connected'), before);
    // Drop the transport under the socket, as a network blip would, then write while it is away.
    await dropTransport(agentId);
    await offline;
    const missed = t.next(liveEvent('message.created', (p) => (p.message as { content: string }).content === 'while away'), before);
    await contactWrites('while away');
    expect(await back).toEqual({ name: 'live.status', payload: { state: 'connected', recovered: true } });
    await missed;
    expect(t.emitted.slice(before).filter((e) => e.name === 'live.catchUp')).toEqual([]);
  });

  it('after the service closed the socket (as a shutdown does), reconnects by itself and asks the renderer to catch up', async () => {
    const t = await signedIn();
    const agentId = userIdOf(svc.creds.agentToken);
    const before = t.emitted.length;
    const back = t.next(isStatus('connected'), before);
    for (const s of await serverSockets(agentId)) s.disconnect(true);
    expect((await back).payload).toEqual({ state: 'connected', recovered: false });
    expect(t.emitted.slice(before).map((e) => e.name)).toEqual(['live.status', 'live.status', 'live.catchUp']);
    expect(t.emitted.at(-1)!.payload).toEqual({ reason: 'not_recovered' });
  });

  it('a recovered reconnect after a long time offline still asks for a catch-up', async () => {
    let nowMs = 1_000_000;
    const t = await signedIn(svc.creds.agentToken, { now: () => nowMs });
    await receiveOne(t);
    const before = t.emitted.length;
    const offline = t.next(isStatus('offline'), before);
    const back = t.next(isStatus('connected'), before);
    await dropTransport(userIdOf(svc.creds.agentToken));
    await offline;
    nowMs += 10 * 60_000;
    expect((await back).payload).toEqual({ state: 'connected', recovered: true });
    await expect.poll(() => t.emitted.slice(before).filter((e) => e.name === 'live.catchUp').map((e) => e.payload)).toEqual([{ reason: 'long_offline' }]);
  });

  it('a refused reconnect (pubsub_token replaced meanwhile) reads the profile again and connects with the new token', async () => {
    const user = multiAccountUser(svc);
    svc.db.prepare('DELETE FROM account_users WHERE user_id = ? AND account_id = ?').run(user.id, svc.creds.otherAccountId);
    const t = await signedIn(user.token);
    await receiveOne(t);
    const old = pubsubOf(user.id);
    const before = t.emitted.length;
    svc.db.prepare('UPDATE users SET pubsub_token = ? WHERE id = ?').run(`replaced-${Date.now()}-pubsub`, user.id);
    const back = t.next(isStatus('connected'), before);
    await dropTransport(user.id);
    expect((await back).payload).toEqual({ state: 'connected', recovered: false });
    const [socket] = await serverSockets(user.id);
    expect(socket!.handshake.auth.pubsub_token).toBe(pubsubOf(user.id));
    expect(socket!.handshake.auth.pubsub_token).not.toBe(old);
    expect(t.lines.some((l) => l.includes('refused the connection'))).toBe(true);
  });

  it('never lets a pubsub_token out: no bridge event and no log line carries one', async () => {
    const t = await signedIn();
    const agentId = userIdOf(svc.creds.agentToken);
    const conversationId = await contactWrites('token hunt');
    await t.next(liveEvent('message.created', (p) => (p.message as { conversation_id: number }).conversation_id === conversationId));
    // Typing, contact and assignment events too.
    await svc.request({ method: 'POST', url: `/api/v1/accounts/${svc.creds.accountId}/conversations/${conversationId}/assignments`, token: svc.creds.adminToken, payload: { assignee_id: agentId } });
    await t.next(liveEvent('assignee.changed'));
    svc.live.io!.emit('message.created', { nonsense: pubsubOf(agentId) });
    t.core.closeLive();
    const everything = JSON.stringify(t.emitted);
    const allPubsub = (svc.db.prepare('SELECT pubsub_token FROM users UNION SELECT pubsub_token FROM contact_inboxes').all() as { pubsub_token: string }[]).map((r) => r.pubsub_token);
    for (const token of allPubsub) {
      expect(everything).not.toContain(token);
      expect(t.lines.join('\n')).not.toContain(token);
    }
    expect(everything).not.toContain('pubsub');
    expect(t.emitted.filter((e) => e.name === 'live.event').length).toBeGreaterThan(2);
  });
});
