// Web mode's host: serves the renderer with a strict CSP, and opens the bridge only to its own
// page presenting the launch secret.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createMainCore } from '../../main/core/core';
import { redactingLogger } from '../../main/core/redact';
import { inlineScriptHashes } from '../../main/core/security/csp';
import { memoryVault } from '../../main/core/vault';
import { isOwnHost, isOwnOrigin, secretMatches } from '../../main/web/guards';
import { isBuiltAsset, startWebHost } from '../../main/web/host';
import type { WebHost } from '../../main/web/host';
import type { MainCore } from '../../main/core/core';
import { within } from '../support/within';

let host: WebHost;
let staticDir: string;
const secret = 'test-secret-0123456789abcdefghijklmnopqrstu';
const PAGE = '<!doctype html><html><head><script>start(1)</script><title>t</title></head></html>';
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'renderer-'));
  writeFileSync(join(dir, 'index.html'), PAGE);
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'index-Ab12Cd34.js'), 'export {};');
  staticDir = dir;
  const core = createMainCore({ vault: memoryVault(), logger: redactingLogger(() => undefined, () => []) });
  host = await startWebHost({ core, staticDir: dir, secret, logger: redactingLogger(() => undefined, () => []) });
});
afterAll(() => host.close());

function open(origin: string | undefined) {
  return new WebSocket(`ws://127.0.0.1:${host.port}/bridge`, origin ? { origin } : {});
}
const closed = (ws: WebSocket) => new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)).on('error', () => resolve(-1)));
const nextMessage = (ws: WebSocket) => new Promise<unknown>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));

describe('guards', () => {
  it('accepts only loopback hosts on our port', () => {
    expect(isOwnHost('127.0.0.1:5000', 5000)).toBe(true);
    expect(isOwnHost('localhost:5000', 5000)).toBe(true);
    for (const h of ['evil.example:5000', '127.0.0.1:5001', '127.0.0.1', '127.0.0.1:5000.evil.example', undefined]) expect(isOwnHost(h, 5000)).toBe(false);
  });
  it('accepts only our own origin', () => {
    expect(isOwnOrigin('http://127.0.0.1:5000', 5000)).toBe(true);
    for (const o of ['http://evil.example', 'null', 'https://127.0.0.1:5000', 'http://127.0.0.1:5000.evil.example', 'file://', undefined]) expect(isOwnOrigin(o, 5000)).toBe(false);
  });
  it('compares secrets exactly', () => {
    expect(secretMatches('abc', 'abc')).toBe(true);
    for (const s of ['abd', 'ab', 'abcd', '', 42, null, undefined, ['abc']]) expect(secretMatches(s, 'abc')).toBe(false);
  });
});

describe('host', () => {
  it('serves the renderer with a CSP that allows no network origins', async () => {
    const res = await fetch(`http://127.0.0.1:${host.port}/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:\/\//);
  });
  it("lets the page's own inline script run by its hash, and a new build's once it is written", async () => {
    const scriptSrc = async () => (await fetch(`http://127.0.0.1:${host.port}/`)).headers.get('content-security-policy')!.split('; ').find((d) => d.startsWith('script-src'));
    expect(await scriptSrc()).toBe(`script-src 'self' '${inlineScriptHashes(PAGE)[0]}'`);
    // Asked again with what the browser kept: "304 Not Modified" updates the kept headers, so it names the script too.
    const first = await fetch(`http://127.0.0.1:${host.port}/`);
    const again = await fetch(`http://127.0.0.1:${host.port}/`, {
      // As a browser revalidates (fetch would otherwise add `cache-control: no-cache` to a conditional request).
      headers: { 'cache-control': 'max-age=0', 'if-none-match': first.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
    // A script, or what is not there, names no inline script.
    for (const path of ['/assets/index-Ab12Cd34.js', '/nothing-here']) {
      const other = (await fetch(`http://127.0.0.1:${host.port}${path}`)).headers.get('content-security-policy')!;
      expect(other.split('; ').find((d) => d.startsWith('script-src'))).toBe("script-src 'self'");
    }
    const rebuilt = '<!doctype html><html><head><script>start(2)</script></head></html>';
    writeFileSync(join(staticDir, 'index.html'), rebuilt);
    try {
      expect(await scriptSrc()).toBe(`script-src 'self' '${inlineScriptHashes(rebuilt)[0]}'`);
    } finally {
      writeFileSync(join(staticDir, 'index.html'), PAGE);
    }
  });
  it("lets the browser keep the build's hashed assets, and asks it to check index.html every time", async () => {
    const asset = await fetch(`http://127.0.0.1:${host.port}/assets/index-Ab12Cd34.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const path of ['/', '/index.html']) {
      const page = await fetch(`http://127.0.0.1:${host.port}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-cache');
    }
  });
  it('counts only files inside assets/ as built assets', () => {
    expect(isBuiltAsset(staticDir, join(staticDir, 'assets', 'index-Ab12Cd34.js'))).toBe(true);
    expect(isBuiltAsset(staticDir, join(staticDir, 'assets', 'sub', 'x.js'))).toBe(true);
    for (const p of [join(staticDir, 'index.html'), join(staticDir, 'assets'), join(staticDir, 'assets', '..', 'index.html'), join(staticDir, 'assets-old', 'x.js'), '/etc/passwd']) {
      expect(isBuiltAsset(staticDir, p)).toBe(false);
    }
  });
  it('refuses a request whose Host is not its own (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve) =>
      request({ host: '127.0.0.1', port: host.port, path: '/', headers: { host: 'evil.example' } }, (res) => resolve(res.statusCode ?? 0)).end(),
    );
    expect(status).toBe(421);
  });
  it('refuses a socket from another origin', async () => {
    expect(await closed(open('http://evil.example'))).not.toBe(1000);
  });
  it('closes a socket whose hello has the wrong secret', async () => {
    const ws = open(`http://127.0.0.1:${host.port}`);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', secret: 'wrong' })));
    expect(await closed(ws)).toBe(4401);
  });
  it('answers calls after a correct hello, validating them', async () => {
    const ws = open(`http://127.0.0.1:${host.port}`);
    await new Promise((r) => ws.on('open', r));
    ws.send(JSON.stringify({ type: 'hello', secret }));
    expect(await nextMessage(ws)).toEqual({ type: 'ready' });
    ws.send(JSON.stringify({ type: 'call', id: 7, name: 'session.get', input: {} }));
    expect(await nextMessage(ws)).toEqual({ type: 'reply', id: 7, result: { ok: true, value: { status: 'signed_out' } } });
    ws.send(JSON.stringify({ type: 'call', id: 8, name: 'os.exec', input: {} }));
    expect(await nextMessage(ws)).toMatchObject({ type: 'reply', id: 8, result: { ok: false, error: { kind: 'invalid_input' } } });
    ws.close();
  });
});

describe('calls sent right behind the hello (the page does not wait for ready)', () => {
  it('answers them after ready, in order, on a correct hello', async () => {
    const ws = open(`http://127.0.0.1:${host.port}`);
    await new Promise((r) => ws.on('open', r));
    const frames: unknown[] = [];
    const three = new Promise<void>((resolve) => ws.on('message', (d) => frames.push(JSON.parse(d.toString())) === 3 && resolve()));
    ws.send(JSON.stringify({ type: 'hello', secret }));
    ws.send(JSON.stringify({ type: 'call', id: 1, name: 'session.get', input: {} }));
    ws.send(JSON.stringify({ type: 'call', id: 2, name: 'session.obsoleteCaches', input: {} }));
    await three;
    expect(frames.map((f) => (f as { type: string; id?: number }).id ?? (f as { type: string }).type)).toEqual(['ready', 1, 2]);
    ws.close();
  });
  it('runs none of them on a socket whose hello is refused', async () => {
    const calls: string[] = [];
    const spy = { call: async (name: string) => (calls.push(name), { ok: true, value: {} }), onEvent: () => () => undefined } as unknown as MainCore;
    const dir = mkdtempSync(join(tmpdir(), 'renderer-'));
    writeFileSync(join(dir, 'index.html'), PAGE);
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'index-Ab12Cd34.js'), 'export {};');
  staticDir = dir;
    const other = await startWebHost({ core: spy, staticDir: dir, secret, logger: redactingLogger(() => undefined, () => []) });
    try {
      const ws = new WebSocket(`ws://127.0.0.1:${other.port}/bridge`, { origin: `http://127.0.0.1:${other.port}` });
      await new Promise((r) => ws.on('open', r));
      ws.send(JSON.stringify({ type: 'hello', secret: 'wrong' }));
      ws.send(JSON.stringify({ type: 'call', id: 1, name: 'session.signOut', input: {} }));
      ws.send(JSON.stringify({ type: 'hello', secret }));
      ws.send(JSON.stringify({ type: 'call', id: 2, name: 'session.signOut', input: {} }));
      expect(await closed(ws)).toBe(4401);
      expect(calls).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('a launch secret kept in the data folder', () => {
  it('is made owner-only, kept across restarts (the open tab is taken back), and replaced only when the file holds something else', async () => {
    const { stableLaunchSecret } = await import('../../main/web/launch-secret');
    const { statSync, readFileSync } = await import('node:fs');
    const dir = mkdtempSync(join(tmpdir(), 'web-data-'));
    const file = join(dir, 'nested', 'web-launch-secret');
    const first = await stableLaunchSecret(file);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700);
    expect(await stableLaunchSecret(file)).toBe(first);

    // A host on it, then a restarted one: the page's secret from before works on the new host.
    const staticDir = mkdtempSync(join(tmpdir(), 'renderer-'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
    const logger = redactingLogger(() => undefined, () => []);
    const start = async () => startWebHost({ core: createMainCore({ vault: memoryVault(), logger }), staticDir, secret: await stableLaunchSecret(file), logger });
    const before = await start();
    const port = before.port;
    await before.close();
    const after = await startWebHost({ core: createMainCore({ vault: memoryVault(), logger }), staticDir, secret: await stableLaunchSecret(file), logger, port });
    try {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge`, { origin: `http://127.0.0.1:${port}` });
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ type: 'hello', secret: first }));
      expect(await new Promise((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))))).toEqual({ type: 'ready' });
      ws.close();
    } finally {
      await after.close();
    }

    // Something else in the file (cut short, edited): a new secret, still owner-only.
    writeFileSync(file, 'not-a-secret', { mode: 0o644 });
    const replaced = await stableLaunchSecret(file);
    expect(replaced).not.toBe(first);
    expect(readFileSync(file, 'utf8').trim()).toBe(replaced);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('closing', () => {
  // Seen in CI (sessions.spec, 1 run): the fixture's close never ended. The page reconnects as soon
  // as its socket goes; a socket that connected just before the close and said hello during it was
  // not among those the close ended, and it kept the server's close waiting for good.
  it('ends every socket, also one that says its hello while the host closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'renderer-'));
    writeFileSync(join(dir, 'index.html'), PAGE);
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'index-Ab12Cd34.js'), 'export {};');
  staticDir = dir;
    const core = createMainCore({ vault: memoryVault(), logger: redactingLogger(() => undefined, () => []) });
    const closing = await startWebHost({ core, staticDir: dir, secret, logger: redactingLogger(() => undefined, () => []) });
    const ws = new WebSocket(`ws://127.0.0.1:${closing.port}/bridge`, { origin: `http://127.0.0.1:${closing.port}` });
    await new Promise((resolve) => ws.once('open', resolve));
    const ended = closed(ws);
    const done = closing.close();
    ws.send(JSON.stringify({ type: 'hello', secret }));
    await done;
    expect(await ended).not.toBe(-1);
  }, 20_000);

  // Seen in CI again (sessions.spec, the webMode fixture's close past the test's 60 s): the page was
  // fetching its lazy chunks when the close began (its trace: some answered 503, some 200 during the
  // close). Fastify ends only idle connections at close; one whose request was under way was kept
  // alive after its answer and held the server's close for keep-alive's 72 s. A request whose
  // headers are not all in is such a connection, for good.
  it('ends a connection whose request is under way, and closes at once', async () => {
    const logger = redactingLogger(() => undefined, () => []);
    const closing = await startWebHost({ core: createMainCore({ vault: memoryVault(), logger }), staticDir, secret, logger });
    const request = connect(closing.port, '127.0.0.1');
    await new Promise((resolve) => request.once('connect', resolve));
    const ended = new Promise((resolve) => request.once('close', resolve));
    request.write(`GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:${closing.port}\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const outcome = await within(closing.close().then(() => 'closed'), 5_000);
    expect(outcome).toBe('closed');
    await ended;
    request.destroy();
  }, 20_000);
});
