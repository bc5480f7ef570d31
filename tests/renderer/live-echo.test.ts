// Our own send, echoed by the socket: whether the echo arrives before the send's answer, after it,
// or from a service that dropped the marker (echo_id only), the agent sees the message once, and
// the cache ends with exactly one copy. Against the real demo service through the real bridge;
// the echo is the service's own push payload (server/live/payloads.ts), parsed as main parses it.
import { waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_MESSAGE_ID_KEY } from '../../shared/bridge/calls/messages';
import type { LiveEvent } from '../../shared/api/live-events';
import { parseLiveEvent } from '../../shared/api/live-events';
import type { Result } from '../../shared/bridge/result';
import { isLocalMessage, markerOf } from '../../renderer/src/model/intent';
import { sendMessage } from '../../renderer/src/actions/agent-actions';
import { withoutDelivered } from '../../renderer/src/components/unsent';
import type { InboxDb } from '../../renderer/src/db/schema';
import { createLiveHandler } from '../../renderer/src/live/live-handler';
import { liveDelivery } from '../../server/live/payloads';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { demoBridge } from './support/demo-bridge';
import type { DemoBridge } from './support/demo-bridge';
import { actionContext, agentConversations, seededDb, serviceMessagesWith, startSender, steer } from './support/outbox-harness';
import { readersFor } from './support/live-deps';

let svc: DemoService;
let demo: DemoBridge;
/** Every message push the service built, as its socket would send it. */
const pushes: LiveEvent[] = [];
beforeAll(async () => {
  svc = await demoService();
  demo = await demoBridge(svc);
  svc.bus.on((event) => {
    const delivery = liveDelivery(svc.db, event);
    if (!delivery?.name.startsWith('message.')) return;
    const parsed = parseLiveEvent(delivery.name, delivery.data);
    if (parsed.ok) pushes.push(parsed.event);
  });
});
afterAll(() => svc.close());

const history = (db: InboxDb, id: number) => db.messages.where('[conversation_id+id]').between([id, 0], [id, Infinity]).toArray();
/** What the conversation shows: the history without optimistic copies the service's copy stands for. */
const shownWith = async (db: InboxDb, id: number, text: string) => withoutDelivered(await history(db, id)).filter((m) => m.content === text);
const echoOf = (text: string) => pushes.find((p) => p.type === 'message.created' && p.message.content === text)!;

let picked = 0;
async function setup() {
  const id = agentConversations(svc, "c.status = 'open'", ++picked).at(-1)!;
  const db = await seededDb(demo, [id]);
  const handler = createLiveHandler({
    db,
    ...readersFor(demo.bridge, db),
    accountId: svc.creds.accountId,
    meId: demo.session.user.id,
    openConversationId: () => id,
  });
  return { id, db, handler };
}

describe('our own send, echoed', () => {
  it('echo before the answer: shown once while the answer is on its way, one copy once confirmed, and a late repeat changes nothing', async () => {
    const { id, db, handler } = await setup();
    const text = `Echo first ${Date.now()}`;
    const steering = steer(demo);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    steering.intercept((name, _input, through) => (name === 'messages.create' ? through().then(async (r) => (await held, r)) : undefined));
    const queued = await sendMessage(actionContext(db, demo), id, text, false);
    const sender = startSender(db, steering.bridge);
    await waitFor(() => expect(serviceMessagesWith(svc, id, text)).toHaveLength(1));

    await handler.handle(echoOf(text));
    expect(await shownWith(db, id, text)).toHaveLength(1);
    expect((await shownWith(db, id, text))[0]!.id).toBe(serviceMessagesWith(svc, id, text)[0]!.id);
    expect((await db.outbox.get(queued.seq))?.state).toBe('sending');

    release();
    await waitFor(async () => expect((await db.outbox.get(queued.seq))?.state).toBe('confirmed'));
    sender.stop();
    await handler.handle(echoOf(text));
    const all = (await history(db, id)).filter((m) => m.content === text);
    expect(all).toHaveLength(1);
    expect(isLocalMessage(all[0]!)).toBe(false);
    expect(markerOf(all[0]!)).toBe(queued.clientId);
    expect(serviceMessagesWith(svc, id, text)).toHaveLength(1);
  });

  it('echo after the answer: still exactly one', async () => {
    const { id, db, handler } = await setup();
    const text = `Echo late ${Date.now()}`;
    const queued = await sendMessage(actionContext(db, demo), id, text, false);
    const sender = startSender(db, demo.bridge);
    await waitFor(async () => expect((await db.outbox.get(queued.seq))?.state).toBe('confirmed'));
    sender.stop();
    await handler.handle(echoOf(text));
    expect((await history(db, id)).filter((m) => m.content === text)).toHaveLength(1);
  });

  it('a service that drops the marker but echoes echo_id: the echo is still known as ours and shown once', async () => {
    const { id, db, handler } = await setup();
    const text = `Echo without marker ${Date.now()}`;
    const steering = steer(demo);
    const lost: Result<never> = { ok: false, error: { kind: 'timeout', message: 'no answer' } };
    // The request goes through but its answer is lost, and the sender's look for it never answers:
    // the optimistic copy stays, so only the echo can stand for it.
    steering.intercept((name, _input, through) => (name === 'messages.create' ? through().then(() => lost) : name === 'messages.list' ? new Promise(() => undefined) : undefined));
    const queued = await sendMessage(actionContext(db, demo), id, text, false);
    const sender = startSender(db, steering.bridge);
    await waitFor(() => expect(serviceMessagesWith(svc, id, text)).toHaveLength(1));
    sender.stop();
    const echo = echoOf(text);
    if (echo.type !== 'message.created') throw new Error('not a message');
    const { [CLIENT_MESSAGE_ID_KEY]: _dropped, ...attrs } = echo.message.content_attributes;
    expect(echo.message.echo_id).toBe(queued.clientId);
    expect((await history(db, id)).filter((m) => m.content === text && isLocalMessage(m))).toHaveLength(1);
    await handler.handle({ ...echo, message: { ...echo.message, content_attributes: attrs } });
    expect((await history(db, id)).filter((m) => m.content === text)).toHaveLength(2);
    expect(await shownWith(db, id, text)).toHaveLength(1);
    expect(isLocalMessage((await shownWith(db, id, text))[0]!)).toBe(false);
  });
});
