// Web mode's bridge transport: a caller told "failed" can rely on it. A call that went out on a
// socket that closed is failed and never resent; a call made while disconnected waits and goes
// out on the next connection; one that times out before that is never sent.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWebTransport } from '../../renderer/src/platform/web-transport';
import { FakeSocket } from './support/fake-socket';

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const latest = () => FakeSocket.all.at(-1)!;

/** A call, and whether it has been answered yet. */
function tracked(answer: Promise<unknown>) {
  let settled = false;
  const done = answer.then((r) => {
    settled = true;
    return r;
  });
  return { answer: done, settled: () => settled };
}

describe('web transport', () => {
  it('sends the secret first, then calls, and resolves replies by id', async () => {
    const bridge = createWebTransport('s3cret', 'ws://127.0.0.1:1/bridge');
    latest().accept();
    expect(latest().sent[0]).toEqual({ type: 'hello', secret: 's3cret' });
    const answer = bridge.call('session.get', {});
    const [call] = latest().calls();
    latest().reply(call!.id, { ok: true, value: { status: 'signed_out' } });
    expect(await answer).toEqual({ ok: true, value: { status: 'signed_out' } });
  });

  it('fails a call that went out when the socket closes, and never resends it', async () => {
    const bridge = createWebTransport('s', 'ws://127.0.0.1:1/bridge');
    const first = latest();
    first.accept();
    const answer = bridge.call('session.signOut', {});
    expect(first.calls()).toHaveLength(1);
    first.drop();
    expect(await answer).toMatchObject({ ok: false, error: { kind: 'network' } });
    await vi.advanceTimersByTimeAsync(1_000);
    const second = latest();
    expect(second).not.toBe(first);
    second.accept();
    expect(second.calls()).toEqual([]);
  });

  it('holds a call made while disconnected and sends it once connected', async () => {
    const bridge = createWebTransport('s', 'ws://127.0.0.1:1/bridge', { callTimeoutMs: 10_000 });
    const answer = bridge.call('session.get', {});
    expect(latest().calls()).toEqual([]);
    latest().accept();
    const [call] = latest().calls();
    expect(call?.name).toBe('session.get');
    latest().reply(call!.id, { ok: true, value: { status: 'signed_out' } });
    expect((await answer).ok).toBe(true);
  });

  it('keeps a call made while disconnected through a failed connection attempt, and sends it exactly once', async () => {
    const bridge = createWebTransport('s', 'ws://127.0.0.1:1/bridge', { callTimeoutMs: 60_000 });
    const call = tracked(bridge.call('session.get', {}));
    latest().drop(); // the first attempt never connects
    await vi.advanceTimersByTimeAsync(1_000);
    await answeredOnceTakenBack(call);
    expect(FakeSocket.all.flatMap((s) => s.calls())).toHaveLength(1);
  });

  it('sends a call made while disconnected right behind the hello, before the host says ready', async () => {
    const bridge = createWebTransport('s', 'ws://127.0.0.1:1/bridge', { callTimeoutMs: 10_000 });
    const answer = bridge.call('session.get', {});
    const socket = latest();
    socket.open();
    expect(socket.sent.map((f) => (f as { type: string }).type)).toEqual(['hello', 'call']);
    socket.onmessage?.({ data: JSON.stringify({ type: 'ready' }) });
    expect(socket.calls()).toHaveLength(1);
    socket.reply(socket.calls()[0]!.id, { ok: true, value: { status: 'signed_out' } });
    expect((await answer).ok).toBe(true);
  });

  it('sends a call made after the hello went out, before the host says ready, at once (not a round trip later)', async () => {
    const bridge = createWebTransport('s', 'ws://127.0.0.1:1/bridge', { callTimeoutMs: 10_000 });
    const socket = latest();
    socket.open();
    expect(socket.sent.map((f) => (f as { type: string }).type)).toEqual(['hello']);
    const answer = bridge.call('session.get', {});
    expect(socket.sent.map((f) => (f as { type: string }).type)).toEqual(['hello', 'call']);
    socket.onmessage?.({ data: JSON.stringify({ type: 'ready' }) });
    expect(socket.calls()).toHaveLength(1);
    socket.reply(socket.calls()[0]!.id, { ok: true, value: { status: 'signed_out' } });
    expect((await answer).ok).toBe(true);
  });

  it('keeps a call made behind a hello that is then refused waiting, and sends it once taken back', async () => {
    const bridge = createWebTransport('s', 'ws://127.0.0.1:1/bridge', { callTimeoutMs: 60_000 });
    const refused = latest();
    refused.open();
    const call = tracked(bridge.call('session.get', {}));
    expect(refused.calls()).toHaveLength(1);
    refused.readyState = 3;
    refused.onclose?.({ code: 4401 });
    await vi.advanceTimersByTimeAsync(10_000);
    await answeredOnceTakenBack(call);
  });

  it('keeps a call sent behind a refused hello waiting (the host ran nothing), and sends it once taken back', async () => {
    const bridge = createWebTransport('s', 'ws://127.0.0.1:1/bridge', { callTimeoutMs: 60_000 });
    const call = tracked(bridge.call('session.get', {}));
    const refused = latest();
    refused.open();
    expect(refused.calls()).toHaveLength(1);
    refused.readyState = 3;
    refused.onclose?.({ code: 4401 });
    await vi.advanceTimersByTimeAsync(10_000);
    await answeredOnceTakenBack(call);
  });

  it('fails a call sent behind a hello when the socket drops before ready for any other reason (it may have run)', async () => {
    const bridge = createWebTransport('s', 'ws://127.0.0.1:1/bridge', { callTimeoutMs: 60_000 });
    const answer = bridge.call('session.signOut', {});
    const socket = latest();
    socket.open();
    socket.drop();
    expect(await answer).toMatchObject({ ok: false, error: { kind: 'network' } });
    await vi.advanceTimersByTimeAsync(1_000);
    latest().accept();
    expect(latest().calls()).toEqual([]);
  });

  it('never sends a call that timed out before the connection came back', async () => {
    const bridge = createWebTransport('s', 'ws://127.0.0.1:1/bridge', { callTimeoutMs: 5_000 });
    const answer = bridge.call('session.signOut', {});
    await vi.advanceTimersByTimeAsync(5_001);
    expect(await answer).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    latest().accept();
    expect(latest().calls()).toEqual([]);
  });
});

describe('the link to main', () => {
  it('reports connected, disconnected while the host is down, connected again when it takes the page back, and refused when it will not', async () => {
    const bridge = createWebTransport('s3cret', 'ws://127.0.0.1:1/bridge');
    const seen: string[] = [];
    bridge.onConnection!((s) => seen.push(s));
    latest().accept();
    latest().drop();
    // The host restarted with the same secret: the page reconnects by itself.
    await vi.advanceTimersByTimeAsync(300);
    latest().accept();
    expect(seen).toEqual(['connected', 'disconnected', 'connected']);
    // Started again with another secret: refused, and the page keeps asking now and then.
    latest().readyState = 3;
    latest().onclose?.({ code: 4401 });
    expect(seen.at(-1)).toBe('refused');
    const sockets = FakeSocket.all.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(FakeSocket.all.length).toBe(sockets + 1);
    // A listener added later hears the state now.
    const late: string[] = [];
    bridge.onConnection!((s) => late.push(s));
    expect(late).toEqual(['refused']);
  });
});

/** The call has not been answered; the next connection the host accepts carries it once, and its answer comes back. */
async function answeredOnceTakenBack(call: ReturnType<typeof tracked>) {
  expect(call.settled()).toBe(false);
  latest().accept();
  const calls = latest().calls();
  expect(calls).toHaveLength(1);
  latest().reply(calls[0]!.id, { ok: true, value: { status: 'signed_out' } });
  expect(((await call.answer) as { ok: boolean }).ok).toBe(true);
}
