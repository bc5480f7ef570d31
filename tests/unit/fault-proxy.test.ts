// The chaos suite's fault proxy (tests/chaos/fault-proxy.ts), against a tiny local service: each
// fault does what it says (what reaches the service, what the client sees), a held request is
// still delivered after the client gave up, the same seed makes the same decisions, and the
// extensions' headers are stripped both ways when asked.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fault } from '../chaos/fault-proxy';
import { FAULTS, startFaultProxy } from '../chaos/fault-proxy';

let service: http.Server;
let target: string;
const received: { url: string; headers: http.IncomingHttpHeaders; at: number }[] = [];
beforeAll(async () => {
  service = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, at: Date.now() });
      res.writeHead(200, { 'content-type': 'application/json', 'x-inbox-extensions': 'idempotency-key', etag: '"7"' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
  target = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => service.close(() => r())));

const only = (fault: Fault) => Object.fromEntries(FAULTS.map((f) => [f, f === fault ? 1 : 0]));
async function send(url: string, opts: { timeoutMs?: number; headers?: Record<string, string> } = {}) {
  try {
    const res = await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', ...opts.headers }, signal: AbortSignal.timeout(opts.timeoutMs ?? 5_000) });
    return { status: res.status, text: await res.text(), headers: res.headers };
  } catch (err) {
    return { error: (err as Error).name };
  }
}

describe('each fault', () => {
  it.each([
    ['refuse', false, 'error'],
    ['dropAfter', true, 'error'],
    ['status502', false, 502],
    ['status503', false, 503],
    ['status429', false, 429],
  ] as const)('%s: reaches the service %s, the client sees %s', async (fault, reaches, sees) => {
    const proxy = await startFaultProxy({ target, seed: 1, faultRate: 1, weights: only(fault), maxHoldMs: 100 });
    const before = received.length;
    const got = await send(`${proxy.url}/api/v1/x`);
    await proxy.idle(2_000);
    expect(received.length - before).toBe(reaches ? 1 : 0);
    if (sees === 'error') expect(got).toHaveProperty('error');
    else expect(got).toMatchObject({ status: sees });
    if (fault === 'status429') expect(got).toMatchObject({ text: 'Retry later' });
    expect(proxy.stats()).toMatchObject({ requests: 1, faulted: 1, byFault: { [fault]: 1 } });
    await proxy.close();
  });

  it('hold: a request the client gave up on is still delivered, late', async () => {
    const proxy = await startFaultProxy({ target, seed: 3, faultRate: 1, weights: only('hold'), maxHoldMs: 1_000 });
    // Find a seed draw whose delay outlasts the client's 50 ms timeout: the delay is random below 1 s.
    const before = received.length;
    const sentAt = Date.now();
    const got = await send(`${proxy.url}/api/v1/held`, { timeoutMs: 50 });
    expect(got).toHaveProperty('error');
    expect(received.length - before).toBe(0);
    expect(proxy.pending()).toBeGreaterThan(0);
    expect(await proxy.idle(3_000)).toBe(true);
    const delivered = received.at(-1)!;
    expect(delivered.url).toBe('/api/v1/held');
    expect(delivered.at - sentAt).toBeGreaterThanOrEqual(50);
    expect(proxy.stats().late).toBe(1);
    await proxy.close();
  });

  it('slow: the service has it at once, the answer comes later', async () => {
    const proxy = await startFaultProxy({ target, seed: 5, faultRate: 1, weights: only('slow'), maxHoldMs: 300 });
    const before = received.length;
    const sentAt = Date.now();
    const got = await send(`${proxy.url}/api/v1/slow`);
    expect(got).toMatchObject({ status: 200 });
    expect(received.length - before).toBe(1);
    expect(received.at(-1)!.at - sentAt).toBeLessThan(200);
    await proxy.close();
  });
});

describe('decisions', () => {
  it('the same seed makes the same decisions; faults only touch the Application API; off means none', async () => {
    const run = async (seed: number) => {
      const proxy = await startFaultProxy({ target, seed, faultRate: 0.5, weights: only('status503'), maxHoldMs: 10 });
      const seen: (number | string)[] = [];
      for (let i = 0; i < 20; i++) {
        const got = await send(`${proxy.url}/api/v1/n${i}`);
        seen.push('status' in got ? got.status! : 'error');
      }
      const outside = await send(`${proxy.url}/public/api/v1/not-faulted`);
      proxy.setInjecting(false);
      const off = await send(`${proxy.url}/api/v1/off`);
      await proxy.close();
      return { seen, outside, off };
    };
    const a = await run(42);
    const b = await run(42);
    const c = await run(43);
    expect(a.seen).toEqual(b.seen);
    expect(a.seen).not.toEqual(c.seen);
    expect(a.seen).toContain(503);
    expect(a.seen).toContain(200);
    expect(a.outside).toMatchObject({ status: 200 });
    expect(a.off).toMatchObject({ status: 200 });
  });

  it('strips the extensions both ways when asked (a service like real Chatwoot)', async () => {
    const proxy = await startFaultProxy({ target, seed: 1, faultRate: 0, maxHoldMs: 10, stripExtensions: true });
    const got = await send(`${proxy.url}/api/v1/x`, { headers: { 'idempotency-key': 'k1', 'if-match': '"3"', 'x-other': 'kept' } });
    const req = received.at(-1)!;
    expect(req.headers['idempotency-key']).toBeUndefined();
    expect(req.headers['if-match']).toBeUndefined();
    expect(req.headers['x-other']).toBe('kept');
    expect('headers' in got && got.headers!.get('x-inbox-extensions')).toBe(null);
    expect('headers' in got && got.headers!.get('etag')).toBe(null);
    await proxy.close();
  });
});
