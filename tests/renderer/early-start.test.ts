// The head's early script (renderer/src/platform/early-start.ts) and its handover: it starts the
// cache's open and web mode's socket (saying its hello and asking the first calls once it opens),
// creates nothing, blocks no upgrade or deletion, and the app takes over exactly what it started
// (early-handoff.ts, web-transport.ts).
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EARLY_CALLS, EARLY_GLOBAL, LAST_SESSION_KEY, SECRET_KEY, releaseEarlyDatabase, takeEarlySocket } from '../../renderer/src/platform/early-handoff';
import type { EarlyStart } from '../../renderer/src/platform/early-handoff';
import { createWebTransport } from '../../renderer/src/platform/web-transport';
import { FakeSocket } from './support/fake-socket';

const win = window as unknown as { [EARLY_GLOBAL]?: EarlyStart; inboxBridge?: unknown };

/** Runs the early script as the page's head would: once, on a fresh module. */
async function runEarlyScript(): Promise<EarlyStart | undefined> {
  vi.resetModules();
  await import('../../renderer/src/platform/early-start');
  return win[EARLY_GLOBAL];
}

const bridgeAddress = `ws://${location.host}/bridge`;
let dbName: string;

beforeEach(() => {
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  dbName = `inbox:early-${Math.random().toString(36).slice(2)}`;
});
afterEach(async () => {
  releaseEarlyDatabase();
  delete win[EARLY_GLOBAL];
  delete win.inboxBridge;
  localStorage.clear();
  sessionStorage.clear();
  history.replaceState(null, '', '/');
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await Dexie.delete(dbName);
});

async function makeCache(version: number) {
  const db = new Dexie(dbName);
  db.version(version).stores({ conversations: 'id' });
  await db.open();
  await db.table('conversations').put({ id: 1 });
  db.close();
}

/** The early script's raw open, answered (fake-indexeddb answers on a timer). */
function answered(spy: { mock: { results: { value: unknown }[] } }): Promise<void> {
  const request = spy.mock.results[0]!.value as IDBOpenDBRequest;
  return new Promise((resolve) => {
    if (request.readyState === 'done') return resolve();
    request.addEventListener('success', () => resolve());
    request.addEventListener('error', () => resolve());
  });
}

describe('the head’s early script', () => {
  it('does nothing with nothing remembered and no launch key', async () => {
    const spy = vi.spyOn(indexedDB, 'open');
    const start = await runEarlyScript();
    expect(start).toEqual({});
    expect(spy).not.toHaveBeenCalled();
    expect(FakeSocket.all).toEqual([]);
  });

  it('opens the remembered cache at its version, holds it until released, and blocks neither an upgrade nor a deletion', async () => {
    await makeCache(1);
    localStorage.setItem(LAST_SESSION_KEY, JSON.stringify({ dbName, meId: 3 }));
    const spy = vi.spyOn(indexedDB, 'open');
    const start = await runEarlyScript();
    expect(start?.database?.name).toBe(dbName);
    expect(spy).toHaveBeenCalledWith(dbName);
    await answered(spy);
    // A newer schema opens over it (Dexie's upgrade): the early connection gives way at once.
    const upgraded = new Dexie(dbName);
    upgraded.version(2).stores({ conversations: 'id', messages: 'id' });
    await upgraded.open();
    expect(await upgraded.table('conversations').count()).toBe(1);
    upgraded.close();
    // And a signed-out session's cache is deleted without waiting on it.
    await Dexie.delete(dbName);
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(dbName);
  });

  it('creates no database when the remembered one is gone', async () => {
    localStorage.setItem(LAST_SESSION_KEY, JSON.stringify({ dbName, meId: 3 }));
    const spy = vi.spyOn(indexedDB, 'open');
    await runEarlyScript();
    await answered(spy);
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(dbName);
  });

  it('starts the bridge socket in web mode with its launch key, and once it opens says the hello and asks the first calls', async () => {
    sessionStorage.setItem(SECRET_KEY, 'kept-secret');
    let start = await runEarlyScript();
    expect(FakeSocket.all.map((s) => s.url)).toEqual([bridgeAddress]);
    expect(start?.socket).toBe(FakeSocket.all[0]);
    expect(FakeSocket.all[0]!.sent).toEqual([]);
    expect(start?.said).toBeUndefined();
    FakeSocket.all[0]!.open();
    expect(FakeSocket.all[0]!.sent).toEqual([
      { type: 'hello', secret: 'kept-secret' },
      ...EARLY_CALLS.map((name, i) => ({ type: 'call', id: i + 1, name, input: {} })),
    ]);
    // What comes back waits, unread, for the transport.
    FakeSocket.all[0]!.onmessage?.({ data: JSON.stringify({ type: 'ready' }) });
    expect(start?.said?.frames).toEqual([JSON.stringify({ type: 'ready' })]);

    // The key in the address is the one the app will use (platform/bridge.ts), over a kept one.
    delete win[EARLY_GLOBAL];
    history.replaceState(null, '', '/#k=abc_DEF-1');
    start = await runEarlyScript();
    expect(FakeSocket.all).toHaveLength(2);
    expect(start?.socket).toBe(FakeSocket.all[1]);
    FakeSocket.all[1]!.open();
    expect(FakeSocket.all[1]!.sent[0]).toEqual({ type: 'hello', secret: 'abc_DEF-1' });
  });

  it('starts no socket without a launch key, nor under Electron’s preload bridge', async () => {
    await runEarlyScript();
    history.replaceState(null, '', '/#/conversations/3');
    await runEarlyScript();
    sessionStorage.setItem(SECRET_KEY, 'kept-secret');
    win.inboxBridge = {};
    await runEarlyScript();
    expect(FakeSocket.all).toEqual([]);
  });

  it('does nothing when storage refuses', async () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    await expect(runEarlyScript()).resolves.toEqual({});
    expect(FakeSocket.all).toEqual([]);
  });
});

describe('taking over what it started', () => {
  it('hands its socket over once, and only a live one to the same address', async () => {
    sessionStorage.setItem(SECRET_KEY, 'kept-secret');
    await runEarlyScript();
    const early = FakeSocket.all[0]!;
    expect(takeEarlySocket('ws://elsewhere/bridge')).toBeUndefined();
    // The wrong address closed it: nothing is left to take.
    expect(early.closed).toBe(true);
    expect(takeEarlySocket(bridgeAddress)).toBeUndefined();

    await runEarlyScript();
    const second = FakeSocket.all[1]!;
    second.close();
    expect(takeEarlySocket(bridgeAddress)).toBeUndefined();
  });

  it('web transport says its hello on the early socket once it opens, with the calls made before', async () => {
    sessionStorage.setItem(SECRET_KEY, 'kept-secret');
    await runEarlyScript();
    const early = FakeSocket.all[0]!;
    const bridge = createWebTransport('kept-secret', bridgeAddress);
    void bridge.call('session.get', {});
    expect(FakeSocket.all).toEqual([early]);
    early.open();
    expect(early.sent.map((f) => (f as { type: string }).type)).toEqual(['hello', 'call']);
  });

  it('web transport says its hello at once on an early socket that opened before its open event was heard', async () => {
    sessionStorage.setItem(SECRET_KEY, 'kept-secret');
    await runEarlyScript();
    const early = FakeSocket.all[0]!;
    early.readyState = FakeSocket.OPEN;
    createWebTransport('kept-secret', bridgeAddress);
    expect(FakeSocket.all).toEqual([early]);
    expect(early.sent).toEqual([{ type: 'hello', secret: 'kept-secret' }]);
  });

  it('web transport takes over the early hello and calls: answers that came before it are read in order, and nothing is asked twice', async () => {
    sessionStorage.setItem(SECRET_KEY, 'kept-secret');
    await runEarlyScript();
    const early = FakeSocket.all[0]!;
    early.open();
    early.onmessage?.({ data: JSON.stringify({ type: 'ready' }) });
    early.reply(1, { ok: true, value: { status: 'signed_out' } });
    const bridge = createWebTransport('kept-secret', bridgeAddress);
    const states: string[] = [];
    bridge.onConnection((c) => states.push(c));
    expect(states).toEqual(['connected']);
    // The second call's answer comes after the handover, on the same socket.
    const caches = bridge.call('session.obsoleteCaches', {});
    early.reply(2, { ok: true, value: { sessionIds: ['s-1'] } });
    await expect(bridge.call('session.get', {})).resolves.toEqual({ ok: true, value: { status: 'signed_out' } });
    await expect(caches).resolves.toEqual({ ok: true, value: { sessionIds: ['s-1'] } });
    expect(early.sent).toHaveLength(1 + EARLY_CALLS.length);
    // Asked again later, a question goes out as a call of its own, numbered after the early ones.
    void bridge.call('session.get', {});
    expect(early.calls().at(-1)).toEqual({ type: 'call', id: EARLY_CALLS.length + 1, name: 'session.get', input: {} });
  });

  it('web transport asks the early calls again on its next connection when the early hello was refused', async () => {
    sessionStorage.setItem(SECRET_KEY, 'kept-secret');
    await runEarlyScript();
    const early = FakeSocket.all[0]!;
    early.open();
    const bridge = createWebTransport('kept-secret', bridgeAddress);
    const session = bridge.call('session.get', {});
    vi.useFakeTimers();
    try {
      early.readyState = 3;
      early.onclose?.({ code: 4401 });
      vi.advanceTimersByTime(10_000);
    } finally {
      vi.useRealTimers();
    }
    const next = FakeSocket.all[1]!;
    next.accept();
    expect(next.sent[0]).toEqual({ type: 'hello', secret: 'kept-secret' });
    expect(next.calls().map((c) => [c.id, c.name])).toEqual(EARLY_CALLS.map((name, i) => [i + 1, name]));
    next.reply(1, { ok: true, value: { status: 'signed_out' } });
    await expect(session).resolves.toEqual({ ok: true, value: { status: 'signed_out' } });
  });

  it('web transport leaves the early calls to a socket that closed before the handover, and asks them itself', async () => {
    sessionStorage.setItem(SECRET_KEY, 'kept-secret');
    await runEarlyScript();
    const early = FakeSocket.all[0]!;
    early.open();
    early.close();
    const bridge = createWebTransport('kept-secret', bridgeAddress);
    void bridge.call('session.get', {});
    const own = FakeSocket.all[1]!;
    own.open();
    expect(own.sent).toEqual([
      { type: 'hello', secret: 'kept-secret' },
      { type: 'call', id: 1, name: 'session.get', input: {} },
    ]);
  });

  it('web transport opens its own socket when the early one is gone', async () => {
    sessionStorage.setItem(SECRET_KEY, 'kept-secret');
    await runEarlyScript();
    FakeSocket.all[0]!.close();
    createWebTransport('kept-secret', bridgeAddress);
    expect(FakeSocket.all).toHaveLength(2);
    expect(FakeSocket.all[1]!.url).toBe(bridgeAddress);
  });
});
