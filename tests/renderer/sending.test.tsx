// Sending from the open conversation, against the real bridge and the demo service: the message
// shows at once as pending and the box clears; a refusal shows on the message with Retry and
// Discard (reachable by keyboard); a lost answer never turns into a second message; and what was
// queued survives a remount (a reload) and goes out on start.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bridge } from '../../shared/bridge/contract';
import { defaultBackoff } from '../../renderer/src/actions/retry-policy';
import { ConversationView } from '../../renderer/src/screens/ConversationView';
import { clientSettings, useClientRunning } from '../../renderer/src/platform/session';
import { usePreferences } from '../../renderer/src/state/preferences';
import { useUi } from '../../renderer/src/state/ui';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { demoBridge } from './support/demo-bridge';
import type { DemoBridge } from './support/demo-bridge';
import { agentConversations, fastBackoff, serviceMessagesWith, steer } from './support/outbox-harness';
import { offlineBridge, renderWithSession, testSession } from './support/render';

let svc: DemoService;
let demo: DemoBridge;
beforeAll(async () => {
  svc = await demoService();
  demo = await demoBridge(svc);
  clientSettings.backoff = fastBackoff;
});
afterAll(() => {
  clientSettings.backoff = defaultBackoff;
  svc.close();
});
beforeEach(() => {
  usePreferences.setState({ sendKey: 'mod-enter' });
  useUi.setState({ notice: undefined, contactPanelOpen: false, composerFocus: undefined });
});

/** The view as the inbox mounts it: with the outbox's sender running. */
function WithSender(props: { children: ReactNode }) {
  useClientRunning();
  return <>{props.children}</>;
}

let picked = 0;
async function openView(bridge: Bridge, sessionId = testSession().id, online = true) {
  const id = agentConversations(svc, "c.status = 'open'", ++picked + 20).at(-1)!;
  const r = renderWithSession(
    <WithSender>
      <ConversationView conversationId={id} />
    </WithSender>,
    { bridge, session: { ...demo.session, id: sessionId } },
  );
  const box = (await screen.findByRole('combobox', { name: 'Reply to the contact' })) as HTMLTextAreaElement;
  await waitFor(() => expect(box.disabled).toBe(false));
  if (online) await waitFor(() => expect(within(screen.getByRole('log', { name: 'Messages' })).queryAllByRole('article').length).toBeGreaterThan(0));
  return { ...r, id, box };
}
const bubblesWith = (text: string) => within(screen.getByRole('log', { name: 'Messages' })).queryAllByRole('article').filter((a) => a.textContent?.includes(text));
let n = 0;
const unique = (what: string) => `${what} ${Date.now()}-${n++}`;

describe('sending from the composer', () => {
  it('shows the message at once as pending and clears the box; the service\'s copy replaces it', async () => {
    const user = userEvent.setup();
    const steering = steer(demo);
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    steering.intercept((name, _i, through) => (name === 'messages.create' ? held.then(through) : undefined));
    const { id, box, db } = await openView(steering.bridge);
    const text = unique('Your refund is on its way');
    await user.click(box);
    await user.keyboard(`${text}{Control>}{Enter}{/Control}`);
    await waitFor(() => expect(box.value).toBe(''));
    // The box clears as the reply is queued; its bubble follows on the outbox's live query, a render later.
    await waitFor(() => expect(bubblesWith(text)).toHaveLength(1));
    const [pending] = bubblesWith(text);
    expect(pending!.getAttribute('data-unsent')).toMatch(/queued|sending/);
    expect(pending!.textContent).toContain('Sending…');
    expect(pending!.getAttribute('aria-label')).toBe('Reply from Sam Patel, not sent yet');
    expect(await db.drafts.get(id)).toBeUndefined();
    expect(serviceMessagesWith(svc, id, text)).toHaveLength(0);

    release();
    await waitFor(() => expect(bubblesWith(text).map((b) => b.getAttribute('data-unsent'))).toEqual([null]));
    expect(Number(bubblesWith(text)[0]!.getAttribute('data-message-id'))).toBe(serviceMessagesWith(svc, id, text)[0]!.id);
    expect(serviceMessagesWith(svc, id, text)).toHaveLength(1);
  }, 30_000);

  it('a refused message shows why, with Retry and Discard; Retry by keyboard sends it once', async () => {
    const user = userEvent.setup();
    const steering = steer(demo);
    let refuse = true;
    steering.intercept((name) => (name === 'messages.create' && refuse ? Promise.resolve({ ok: false, error: { kind: 'validation', message: 'Too many messages', status: 422 } }) : undefined));
    const { id, box } = await openView(steering.bridge);
    const text = unique('Refused at first');
    await user.click(box);
    await user.keyboard(`${text}{Control>}{Enter}{/Control}`);
    await waitFor(() => expect(bubblesWith(text)[0]?.getAttribute('data-unsent')).toBe('failed'));
    const bubble = bubblesWith(text)[0]!;
    expect(bubble.textContent).toContain('Not sent: Too many messages');
    expect(bubble.getAttribute('aria-label')).toBe('Reply from Sam Patel, not sent');
    await waitFor(() => expect(useUi.getState().notice?.text).toBe(`Your reply to #${id} was not sent: Too many messages`));
    expect(within(bubble).getByRole('button', { name: 'Discard' })).toBeTruthy();

    refuse = false;
    within(bubble).getByRole('button', { name: 'Retry' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(bubblesWith(text).map((b) => b.getAttribute('data-unsent'))).toEqual([null]));
    expect(serviceMessagesWith(svc, id, text)).toHaveLength(1);
  }, 30_000);

  it('Discard removes a refused message, nothing reaches the service', async () => {
    const user = userEvent.setup();
    const steering = steer(demo);
    steering.intercept((name) => (name === 'messages.create' ? Promise.resolve({ ok: false, error: { kind: 'forbidden', message: 'You are not authorized to do this action', status: 401 } }) : undefined));
    const { id, box, db } = await openView(steering.bridge);
    const text = unique('Thrown away');
    await user.click(box);
    await user.keyboard(`${text}{Control>}{Enter}{/Control}`);
    await waitFor(() => expect(bubblesWith(text)[0]?.getAttribute('data-unsent')).toBe('failed'));
    await user.click(within(bubblesWith(text)[0]!).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(bubblesWith(text)).toEqual([]));
    expect(await db.outbox.count()).toBe(0);
    expect(useUi.getState().notice?.text).toBe('Discarded. It was not sent.');
    expect(serviceMessagesWith(svc, id, text)).toHaveLength(0);
  }, 30_000);

  it('a timeout after the service stored the message: one bubble, one message on the service, sent once', async () => {
    const user = userEvent.setup();
    const steering = steer(demo);
    steering.intercept((name, _i, through) => (name === 'messages.create' ? through().then(() => ({ ok: false as const, error: { kind: 'timeout' as const, message: 'The service did not answer in time.' } })) : undefined));
    const { id, box, db } = await openView(steering.bridge);
    const text = unique('Lost answer');
    await user.click(box);
    await user.keyboard(`${text}{Control>}{Enter}{/Control}`);
    await waitFor(async () => expect((await db.outbox.filter((e) => e.kind === 'message').toArray()).map((e) => e.state)).toEqual(['confirmed']));
    await waitFor(() => expect(bubblesWith(text).map((b) => b.getAttribute('data-unsent'))).toEqual([null]));
    expect(steering.log.filter((l) => l.name === 'messages.create' && l.phase === 'start')).toHaveLength(1);
    expect(serviceMessagesWith(svc, id, text)).toHaveLength(1);
  }, 30_000);
});

describe('a reload', () => {
  it('keeps a message queued while the service is unreachable, and sends it once after a remount', async () => {
    const user = userEvent.setup();
    const sessionId = testSession().id;
    const offline = await openView(offlineBridge, sessionId, false);
    const text = unique('Written offline');
    await user.click(offline.box);
    await user.keyboard(`${text}{Control>}{Enter}{/Control}`);
    await waitFor(() => expect(bubblesWith(text)[0]?.textContent).toMatch(/Not sent yet. Will retry automatically.|Not confirmed yet. Checking whether it was sent…/));
    expect(await offline.db.outbox.filter((e) => e.kind === 'message').count()).toBe(1);
    offline.unmount();

    // The app again, with the service back: the queue drains on start.
    const online = renderWithSession(
      <WithSender>
        <ConversationView conversationId={offline.id} />
      </WithSender>,
      { bridge: demo.bridge, session: { ...demo.session, id: sessionId } },
    );
    await waitFor(async () => expect((await online.db.outbox.filter((e) => e.kind === 'message').toArray()).map((e) => e.state)).toEqual(['confirmed']), { timeout: 10_000 });
    await waitFor(() => expect(bubblesWith(text).map((b) => b.getAttribute('data-unsent'))).toEqual([null]));
    expect(serviceMessagesWith(svc, offline.id, text)).toHaveLength(1);
  }, 30_000);
});
