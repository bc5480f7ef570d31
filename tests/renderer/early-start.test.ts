// The head's early script (renderer/src/platform/early-start.ts) and its handover: it only starts
// the cache's open and web mode's socket, creates nothing, sends nothing, blocks no upgrade or
// deletion, and the app takes over exactly what it started (early-handoff.ts, web-transport.ts).
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EARLY_GLOBAL, LAST_SESSION_KEY, SECRET_KEY, releaseEarlyDatabase, takeEarlySocket } from '../../renderer/src/platform/early-handoff';
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

  it('starts the bridge socket in web mode with its launch key (kept, or in the address), and sends nothing on it', async () => {
    sessionStorage.setItem(SECRET_KEY, 'kept-secret');
    let start = await runEarlyScript();
    expect(FakeSocket.all.map((s) => s.url)).toEqual([bridgeAddress]);
    expect(start?.socket).toBe(FakeSocket.all[0]);
    FakeSocket.all[0]!.open();
    expect(FakeSocket.all[0]!.sent).toEqual([]);

    sessionStorage.clear();
    delete win[EARLY_GLOBAL];
    history.replaceState(null, '', '/#k=abc_DEF-1');
    start = await runEarlyScript();
    expect(FakeSocket.all).toHaveLength(2);
    expect(start?.socket).toBe(FakeSocket.all[1]);
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

  it('web transport says its hello at once on an early socket that opened before it was taken', async () => {
    sessionStorage.setItem(SECRET_KEY, 'kept-secret');
    await runEarlyScript();
    const early = FakeSocket.all[0]!;
    early.readyState = FakeSocket.OPEN;
    createWebTransport('kept-secret', bridgeAddress);
    expect(FakeSocket.all).toEqual([early]);
    expect(early.sent).toEqual([{ type: 'hello', secret: 'kept-secret' }]);
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
