// The `presence` extension (advertised in X-Inbox-Extensions; server/README "Extensions"): a
// socket.io client that emits `update_presence` gets `presence.update` as an ActionCable
// subscriber does (Chatwoot serves presence over ActionCable only); one that also says which
// conversation it has open (`viewing`) gets who views what, among the conversations it may see,
// whenever it changes, over either transport. A client that asks nothing gets nothing new.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Presence } from '../../server/live/presence';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { openRawCable } from '../support/raw-cable';
import type { TestSocket } from '../support/sockets';
import { connectSocket } from '../support/sockets';
import { agentConversation, hiddenFromAgent } from './fixtures';

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

const userOf = (email: string) => svc.db.prepare('SELECT id, pubsub_token FROM users WHERE email = ?').get(email) as { id: number; pubsub_token: string };
async function agentSocket(email: string): Promise<TestSocket & { id: number }> {
  const u = userOf(email);
  const s = await connectSocket(baseUrl, { pubsub_token: u.pubsub_token, account_id: svc.creds.accountId, user_id: u.id });
  open.push(s);
  return Object.assign(s, { id: u.id });
}
type Report = { account_id: number; users: Record<string, string>; contacts?: Record<string, string>; viewing?: Record<string, number[]> };
const report = (s: TestSocket, match: (r: Report) => boolean = () => true) => s.next('presence.update', (d) => match(d as Report)).then((r) => r.data as Report);

describe('presence over socket.io', () => {
  it('answers update_presence as RoomChannel does: the users present with their availability, the contacts for agents; nothing to a socket that does not ask', async () => {
    const sam = await agentSocket('sam@acme.example');
    const quiet = await agentSocket('jordan@acme.example');
    const answer = report(sam);
    sam.socket.emit('update_presence');
    const r = await answer;
    expect(r).toMatchObject({ account_id: svc.creds.accountId, users: { [sam.id]: 'online' }, contacts: {} });
    expect(r.viewing).toBeUndefined();
    // A barrier: an event the quiet socket must get; presence before it would have arrived first.
    const barrier = quiet.next('contact.created');
    await svc.request({ method: 'POST', url: `/api/v1/accounts/${svc.creds.accountId}/contacts`, token: svc.creds.adminToken, payload: { name: 'Barrier' } });
    await barrier;
    expect(quiet.received.some((e) => e.name === 'presence.update')).toBe(false);
  });

  it('viewing: who has which conversation open, told to every agent who asked, only for conversations they may see; gone when the socket closes', async () => {
    const visible = agentConversation(svc);
    const hidden = hiddenFromAgent(svc);
    const sam = await agentSocket('sam@acme.example');
    const alex = await agentSocket('alex@acme.example');
    // Both opt in (viewing nothing yet).
    const samFirst = report(sam);
    sam.socket.emit('update_presence', { viewing: null });
    await samFirst;
    const alexFirst = report(alex);
    alex.socket.emit('update_presence', { viewing: null });
    expect((await alexFirst).viewing).toEqual({});

    // Alex (an administrator) opens a conversation Sam can see, then one Sam cannot.
    const seen = report(sam, (r) => Boolean(r.viewing?.[visible]));
    alex.socket.emit('update_presence', { viewing: visible });
    expect((await seen).viewing).toEqual({ [visible]: [alex.id] });
    const moved = report(sam, (r) => !r.viewing?.[visible]);
    alex.socket.emit('update_presence', { viewing: hidden });
    expect((await moved).viewing).toEqual({});
    const alexOwn = report(alex, (r) => Boolean(r.viewing?.[hidden]));
    alex.socket.emit('update_presence', { viewing: hidden });
    expect((await alexOwn).viewing).toEqual({ [hidden]: [alex.id] });

    // Back on the visible one, then gone: the socket closes.
    const back = report(sam, (r) => Boolean(r.viewing?.[visible]));
    alex.socket.emit('update_presence', { viewing: visible });
    await back;
    const gone = report(sam, (r) => !r.viewing?.[visible]);
    alex.close();
    expect((await gone).viewing).toEqual({});
  });

  it('an ActionCable subscriber that sends viewing gets it too; one that never does sees Chatwoot\'s reports only', async () => {
    const visible = agentConversation(svc);
    const sam = userOf('sam@acme.example');
    const cable = await openRawCable(baseUrl);
    open.push({ close: () => cable.ws.close() });
    await cable.next((f) => f.type === 'welcome', 0);
    const identifier = JSON.stringify({ channel: 'RoomChannel', pubsub_token: sam.pubsub_token, account_id: svc.creds.accountId, user_id: sam.id });
    cable.send({ command: 'subscribe', identifier });
    const plain = (await cable.next((f) => (f.message as { event?: string } | undefined)?.event === 'presence.update', 0)).message as { data: Report };
    expect(plain.data.viewing).toBeUndefined();
    const jordan = await agentSocket('jordan@acme.example');
    const withViewing = cable.next((f) => Boolean((f.message as { data?: Report } | undefined)?.data?.viewing?.[visible]));
    cable.send({ command: 'message', identifier, data: JSON.stringify({ action: 'update_presence', viewing: null }) });
    jordan.socket.emit('update_presence', { viewing: visible });
    expect(((await withViewing).message as { data: Report }).data.viewing).toEqual({ [visible]: [jordan.id] });
  });
});

describe('what a connection views', () => {
  it('outlives one late refresh (clients refresh every 20 s) and lapses after two missed ones', () => {
    const visible = agentConversation(svc);
    let now = 1_000_000;
    const presence = new Presence(svc.db, () => now);
    const sam = { kind: 'agent' as const, userId: userOf('sam@acme.example').id, accountId: svc.creds.accountId };
    const alex = { kind: 'agent' as const, userId: userOf('alex@acme.example').id, accountId: svc.creds.accountId };
    presence.touch(alex);
    presence.view('alex-socket', alex, visible);
    // Alex's next refresh is 50 ms late: Sam's report in between still shows Alex there.
    now += 20_050;
    expect(presence.report(sam, true).viewing).toEqual({ [visible]: [alex.userId] });
    // No refresh for over 40 s: the connection is gone in all but name.
    now += 20_000;
    expect(presence.report(sam, true).viewing).toEqual({});
  });
});
