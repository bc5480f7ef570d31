// Web mode's host: serves the renderer with a strict CSP, and opens the bridge only to its own
// page presenting the launch secret.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createMainCore } from '../../main/core/core';
import { redactingLogger } from '../../main/core/redact';
import { memoryVault } from '../../main/core/vault';
import { isOwnHost, isOwnOrigin, secretMatches } from '../../main/web/guards';
import { startWebHost } from '../../main/web/host';
import type { WebHost } from '../../main/web/host';

let host: WebHost;
const secret = 'test-secret-0123456789abcdefghijklmnopqrstu';
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'renderer-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
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
