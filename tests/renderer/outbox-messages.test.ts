// Sending messages through the outbox, against the real bridge and demo service: the optimistic
// copy and the draft's removal commit together; the service's copy replaces it; and after an
// answer that was lost (a timeout after the service stored the message) the sender finds the
// message instead of sending it twice. Exactly one message exists on the service every time.
import { waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_MESSAGE_ID_KEY } from '../../shared/bridge/calls/messages';
import type { Message } from '../../shared/api/records';
import type { Result } from '../../shared/bridge/result';
import { findSentMessage } from '../../renderer/src/actions/find-sent';
import { isLocalMessage, markerOf } from '../../renderer/src/model/intent';
import { discardMessage, retryMessage, sendMessage } from '../../renderer/src/actions/agent-actions';
import { saveDraft } from '../../renderer/src/composer/drafts';
import { InboxDb } from '../../renderer/src/db/schema';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { fakeBridge } from './fake-bridge';
import { msg } from './fixtures';
import { demoBridge } from './support/demo-bridge';
import type { DemoBridge } from './support/demo-bridge';
import { actionContext, agentConversations, seededDb, serviceMessagesWith, startSender, steer } from './support/outbox-harness';

let svc: DemoService;
let demo: DemoBridge;
beforeAll(async () => {
  svc = await demoService();
  demo = await demoBridge(svc);
});
afterAll(() => svc.close());

const timeout: Result<never> = { ok: false, error: { kind: 'timeout', message: 'The service did not answer in time.' } };
const history = (db: InboxDb, id: number) => db.messages.where('[conversation_id+id]').between([id, 0], [id, Infinity]).toArray();
let n = 0;
const unique = (what: string) => `${what} ${Date.now()}-${n++}`;

let picked = 0;
/** A different open conversation per test, cached with its newest page as the view holds it. */
async function openConversation() {
  const id = agentConversations(svc, "c.status = 'open'", ++picked).at(-1)!;
  const db = await seededDb(demo, [id]);
  const page = await demo.bridge.call('messages.list', { conversationId: id });
  if (page.ok) await db.messages.bulkPut(page.value.payload);
  return { id, db };
}

describe('sending', () => {
  it('shows the message at once, drops the draft in the same commit, then swaps in the service\'s copy', async () => {
    const { id, db } = await openConversation();
    const text = unique('Refund is on its way');
    await saveDraft(db, id, text, 'reply');
    const queued = await sendMessage(actionContext(db, demo), id, text, false);
    const local = (await history(db, id)).at(-1)!;
    expect(isLocalMessage(local)).toBe(true);
    expect(local).toMatchObject({ content: text, private: false, message_type: 1, sender: { id: demo.session.user.id } });
    expect(markerOf(local)).toBe(queued.clientId);
    expect(await db.drafts.get(id)).toBeUndefined();
    expect(await db.outbox.get(queued.seq)).toMatchObject({ state: 'queued', kind: 'message' });
    expect((await db.conversations.get(id))?.preview).toBe(text);

    const sender = startSender(db, demo.bridge);
    await waitFor(async () => expect((await db.outbox.get(queued.seq))?.state).toBe('confirmed'));
    sender.stop();
    const held = await history(db, id);
    expect(held.filter(isLocalMessage)).toEqual([]);
    expect(held.filter((m) => markerOf(m) === queued.clientId)).toHaveLength(1);
    expect(serviceMessagesWith(svc, id, text)).toHaveLength(1);
  });

  it('after a timeout that came once the service had stored it, finds the message and does not send it again', async () => {
    const { id, db } = await openConversation();
    const text = unique('Answer lost on the way back');
    const steering = steer(demo);
    steering.intercept((name, _input, through) => (name === 'messages.create' ? through().then(() => timeout) : undefined));
    const queued = await sendMessage(actionContext(db, demo), id, text, false);
    const sender = startSender(db, steering.bridge);
    await waitFor(async () => expect((await db.outbox.get(queued.seq))?.state).toBe('confirmed'));
    sender.stop();
    expect(steering.log.filter((l) => l.name === 'messages.create' && l.phase === 'start')).toHaveLength(1);
    const onService = serviceMessagesWith(svc, id, text);
    expect(onService).toHaveLength(1);
    expect(JSON.parse(onService[0]!.content_attributes)).toEqual({ [CLIENT_MESSAGE_ID_KEY]: queued.clientId });
    const held = await history(db, id);
    expect(held.filter((m) => m.content === text).map((m) => m.id)).toEqual([onService[0]!.id]);
  });

  it('after a timeout before the service stored it, sends it again, once', async () => {
    const { id, db } = await openConversation();
    const text = unique('Never arrived');
    const steering = steer(demo);
    let lose = 1;
    steering.intercept((name) => (name === 'messages.create' && lose-- > 0 ? Promise.resolve(timeout) : undefined));
    const queued = await sendMessage(actionContext(db, demo), id, text, true);
    const sender = startSender(db, steering.bridge);
    await waitFor(async () => expect((await db.outbox.get(queued.seq))?.state).toBe('confirmed'));
    sender.stop();
    expect(steering.log.filter((l) => l.name === 'messages.create' && l.phase === 'start')).toHaveLength(2);
    expect(serviceMessagesWith(svc, id, text)).toHaveLength(1);
  });

  it('against a service that drops content attributes, recognises its own message by agent, text and privacy', async () => {
    const { id, db } = await openConversation();
    const text = unique('No marker here');
    const steering = steer(demo);
    const strip = (r: Result<unknown>) => {
      if (r.ok) for (const m of (r.value as { payload: Message[] }).payload) m.content_attributes = {};
      return r;
    };
    steering.intercept((name, _input, through) => (name === 'messages.create' ? through().then(() => timeout) : name === 'messages.list' ? through().then(strip) : undefined));
    const queued = await sendMessage(actionContext(db, demo), id, text, false);
    const sender = startSender(db, steering.bridge);
    await waitFor(async () => expect((await db.outbox.get(queued.seq))?.state).toBe('confirmed'));
    sender.stop();
    expect(steering.log.filter((l) => l.name === 'messages.create' && l.phase === 'start')).toHaveLength(1);
    expect(serviceMessagesWith(svc, id, text)).toHaveLength(1);
  });

  it('a message that was on its way when the page went is looked for, not sent blindly', async () => {
    const { id, db } = await openConversation();
    const text = unique('Sent just before the reload');
    const queued = await sendMessage(actionContext(db, demo), id, text, false);
    // It went out and landed, then the page went before the answer came back.
    const sent = await demo.bridge.call('messages.create', { conversationId: id, content: text, private: false, clientId: queued.clientId });
    expect(sent.ok).toBe(true);
    await db.outbox.update(queued.seq, { state: 'sending', attempts: 1, afterId: 0 });
    const name = db.name;
    db.close();
    const again = new InboxDb(name);
    const steering = steer(demo);
    const sender = startSender(again, steering.bridge);
    await waitFor(async () => expect((await again.outbox.get(queued.seq))?.state).toBe('confirmed'));
    sender.stop();
    expect(steering.log.filter((l) => l.name === 'messages.create')).toHaveLength(0);
    expect(serviceMessagesWith(svc, id, text)).toHaveLength(1);
  });

  it('a refused message stays, marked failed with the reason; retry sends it once, discard removes it', async () => {
    const { id, db } = await openConversation();
    const text = unique('Refused once');
    const steering = steer(demo);
    let refuse = 1;
    steering.intercept((name) => (name === 'messages.create' && refuse-- > 0 ? Promise.resolve({ ok: false, error: { kind: 'validation', message: 'Too many messages', status: 422 } }) : undefined));
    const ctx = actionContext(db, demo);
    const queued = await sendMessage(ctx, id, text, false);
    const notices: string[] = [];
    const sender = startSender(db, steering.bridge, notices);
    await waitFor(async () => expect(await db.outbox.get(queued.seq)).toMatchObject({ state: 'failed', lastError: 'Too many messages', lastErrorKind: 'validation' }));
    expect(notices).toEqual([`Your reply to #${id} was not sent: Too many messages`]);
    expect((await history(db, id)).filter((m) => m.content === text && isLocalMessage(m))).toHaveLength(1);
    expect(serviceMessagesWith(svc, id, text)).toHaveLength(0);

    await retryMessage({ db }, queued.seq);
    await waitFor(async () => expect((await db.outbox.get(queued.seq))?.state).toBe('confirmed'));
    expect(serviceMessagesWith(svc, id, text)).toHaveLength(1);

    // Discard: only what is not on its way.
    refuse = 1;
    const other = await sendMessage(ctx, id, unique('Discard me'), true);
    await waitFor(async () => expect((await db.outbox.get(other.seq))?.state).toBe('failed'));
    expect(await discardMessage(db, other.seq)).toBe(true);
    expect(await db.outbox.get(other.seq)).toBeUndefined();
    expect((await history(db, id)).filter(isLocalMessage)).toEqual([]);
    expect(await discardMessage(db, queued.seq)).toBe(false);
    sender.stop();
  });
});

describe('findSentMessage', () => {
  const intent = { kind: 'message' as const, content: 'Thanks!', private: false, sender: { id: 2, name: 'Sam Patel' } };
  const CLIENT = '11111111-2222-4333-8444-555555555555';
  const mine = (id: number, extra: Partial<Message>) => msg(id, 7, { message_type: 1, content: 'Thanks!', sender: { id: 2, name: 'Sam Patel' }, ...extra });
  const search = (payloads: Message[][]) => {
    const pages = [...payloads];
    const fake = fakeBridge({ 'messages.list': () => ({ ok: true, value: { payload: pages.shift() ?? [] } }) });
    return { run: () => findSentMessage(fake.bridge, { conversationId: 7, clientId: CLIENT, intent, afterId: 40 }), calls: fake.callsTo };
  };

  it('matches the marker, pages with after until a short page', async () => {
    const full = Array.from({ length: 100 }, (_, i) => msg(41 + i, 7));
    const s = search([full, [mine(200, { content_attributes: { [CLIENT_MESSAGE_ID_KEY]: CLIENT } })]]);
    expect(await s.run()).toMatchObject({ by: 'marker', message: { id: 200 } });
    expect(s.calls('messages.list')).toEqual([{ conversationId: 7, after: 40 }, { conversationId: 7, after: 140 }]);
  });

  it('never takes a message carrying another send\'s marker, nor a look-alike once markers are in sight', async () => {
    expect(await search([[mine(50, { content_attributes: { [CLIENT_MESSAGE_ID_KEY]: 'other' } })]]).run()).toBeUndefined();
    expect(await search([[mine(50, {}), mine(51, { content: 'other', content_attributes: { [CLIENT_MESSAGE_ID_KEY]: 'x' } })]]).run()).toBeUndefined();
  });

  it('falls back on agent, text and privacy where no markers are kept; a note is not a reply, another agent is not me', async () => {
    expect(await search([[mine(50, {})]]).run()).toMatchObject({ by: 'content', message: { id: 50 } });
    expect(await search([[mine(50, { private: true }), mine(51, { sender: { id: 3, name: 'Jordan' } }), mine(52, { message_type: 0 }), mine(53, { content: 'Thanks! and more' })]]).run()).toBeUndefined();
  });

  it('throws when the service cannot be read (the sender then waits and looks again)', async () => {
    const fake = fakeBridge({ 'messages.list': () => timeout });
    await expect(findSentMessage(fake.bridge, { conversationId: 7, clientId: CLIENT, intent, afterId: 0 })).rejects.toThrow(/did not answer/);
  });
});
