// The service client: every error shape of the spec normalised into one BridgeError, GET retries
// with full-jitter backoff (counts and bounds), 429 on its own schedule, POST never retried, and a
// timeout on every request. Time and randomness are injected, so nothing here waits.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildUrl, createServiceClient } from '../../main/core/api/client';
import type { ServiceRequest } from '../../main/core/api/client';
import { backoffCeiling, fullJitterDelay } from '../../main/core/api/retry';
import type { Clock, RetryPolicy } from '../../main/core/api/retry';

const TOKEN = 'tok_live_9f8e7d6c5b4a39281706';
const anything = z.unknown();
const GET: ServiceRequest = { method: 'GET', path: '/api/v1/profile' };
const POST: ServiceRequest = { method: 'POST', path: '/api/v1/accounts/1/conversations/2/messages', body: { content: 'hi' } };

/** A clock whose sleeps are recorded and return at once, and whose timers fire when told. */
function fakeClock(random: () => number = () => 0.5) {
  const sleeps: number[] = [];
  const timers: { ms: number; fire: () => void; cancelled: boolean }[] = [];
  const clock: Clock = {
    sleep: async (ms) => void sleeps.push(ms),
    timer(ms, fire) {
      const t = { ms, fire, cancelled: false };
      timers.push(t);
      return () => void (t.cancelled = true);
    },
    random,
  };
  return { clock, sleeps, timers };
}

type Answer = Response | Error | 'hang';
/** A fetch that answers from a script, one entry per call (the last repeats), and logs calls. */
function scriptedFetch(script: Answer[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: URL, init: RequestInit) => {
    calls.push({ url: String(url), init });
    const answer = script[Math.min(calls.length - 1, script.length - 1)]!;
    if (answer === 'hang') {
      return new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    }
    if (answer instanceof Error) throw answer;
    return answer.clone();
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const text = (status: number, body: string, type = 'text/plain') => new Response(body, { status, headers: { 'content-type': type } });

const retry: RetryPolicy = { attempts: 4, baseMs: 100, maxMs: 350 };
const rateLimitRetry: RetryPolicy = { attempts: 3, baseMs: 1_000, maxMs: 60_000 };

function client(script: Answer[], random?: () => number, timeoutMs = 5_000) {
  const f = scriptedFetch(script);
  const c = fakeClock(random);
  const svc = createServiceClient({ baseUrl: 'https://svc.example/base', token: TOKEN, fetch: f.fetch, clock: c.clock, retry, rateLimitRetry, timeoutMs });
  return { svc, ...f, ...c };
}

describe('error normalisation', () => {
  const cases: [string, Response, Record<string, unknown>][] = [
    ['{error} (invalid token)', json(401, { error: 'Invalid Access Token' }), { kind: 'unauthorized', status: 401, message: 'Invalid Access Token' }],
    ['{errors:[string]} (missing header)', json(401, { errors: ['You need to sign in or sign up before continuing.'] }), { kind: 'unauthorized', message: 'You need to sign in or sign up before continuing.' }],
    ['{message, attributes} (validation)', json(422, { message: 'Subscriptions Invalid events', attributes: ['subscriptions'] }), { kind: 'validation', status: 422, message: 'Subscriptions Invalid events', attributes: ['subscriptions'] }],
    ['{error} (hand-checked administrator)', json(403, { error: 'You are not authorized to do this action' }), { kind: 'forbidden', status: 403 }],
    ['{error} (another account)', json(404, { error: 'Resource could not be found' }), { kind: 'not_found', status: 404 }],
    ['the never-produced declared shape', json(422, { description: 'x', errors: [{ field: 'name', message: 'bad', code: 'x' }] }), { kind: 'validation', message: 'The service rejected the request.' }],
    ['HMAC failure 500 with {message}', json(500, { message: 'HMAC failed: Invalid Identifier Hash Provided' }), { kind: 'server', message: 'HMAC failed: Invalid Identifier Hash Provided' }],
    ['an HTML page from a proxy', text(502, '<html><body><h1>502 Bad Gateway</h1><script>alert(1)</script></body></html>', 'text/html'), { kind: 'server', status: 502, message: 'The service had a problem. Try again shortly.' }],
    ['an empty body', new Response(null, { status: 503 }), { kind: 'server', status: 503 }],
    ['JSON content type with a broken body', text(400, '{"error": ', 'application/json'), { kind: 'validation', message: 'The service rejected the request.' }],
    ['a proxy timeout (408)', text(408, 'Request Timeout'), { kind: 'timeout', status: 408 }],
    ['an unexpected status (418)', text(418, 'teapot'), { kind: 'bad_response', status: 418 }],
  ];
  it.each(cases)('%s', async (_name, response, expected) => {
    const { svc } = client([response]);
    const r = await svc.send({ ...GET, method: 'POST' }, anything);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject(expected);
  });

  it('429 text/plain `Retry later` becomes rate_limited with our own sentence', async () => {
    const { svc } = client([text(429, 'Retry later')]);
    const r = await svc.send(POST, anything);
    expect(r).toEqual({ ok: false, error: { kind: 'rate_limited', status: 429, message: 'The service is busy (rate limited). Retrying shortly.' } });
  });

  it('never repeats the token, even when the service echoes it', async () => {
    const { svc } = client([json(401, { error: `Invalid Access Token ${TOKEN}` })]);
    const r = await svc.send(POST, anything);
    expect(JSON.stringify(r)).not.toContain(TOKEN);
    expect(!r.ok && r.error.message).toBe('Invalid Access Token [redacted]');
  });

  it('strips control characters and caps the length of service text', async () => {
    const { svc } = client([json(422, { message: `bad\u0000\u001b[31m${'x'.repeat(1000)}` })]);
    const r = await svc.send(POST, anything);
    expect(!r.ok && r.error.message).toMatch(/^bad \[31mx+$/);
    expect(!r.ok && r.error.message.length).toBe(300);
  });

  it('a 200 that is not JSON, or not the documented shape, is bad_response', async () => {
    expect(await client([text(200, '<html>login</html>', 'text/html')]).svc.send(GET, anything)).toMatchObject({ ok: false, error: { kind: 'bad_response' } });
    const shaped = await client([json(200, { id: 'x' })]).svc.send(GET, z.object({ id: z.number() }));
    expect(shaped).toMatchObject({ ok: false, error: { kind: 'bad_response', message: expect.stringContaining('(id)') } });
  });

  it('a network failure is network; an empty 200 is null', async () => {
    expect(await client([new TypeError('fetch failed')]).svc.send(POST, anything)).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(await client([new Response('', { status: 200 })]).svc.send(GET, anything)).toEqual({ ok: true, value: null });
  });

  it('a connection never made is unreachable (nothing was sent); one that broke may have arrived, so it stays network', async () => {
    const failed = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });
    const kindOf = async (err: Error) => {
      const r = await client([err]).svc.send(POST, anything);
      return r.ok ? 'ok' : r.error.kind;
    };
    expect(await kindOf(failed(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3000'), { code: 'ECONNREFUSED' })))).toBe('unreachable');
    expect(await kindOf(failed(Object.assign(new Error('getaddrinfo ENOTFOUND svc.example'), { code: 'ENOTFOUND' })))).toBe('unreachable');
    // Several addresses tried (IPv6, then IPv4), none answered.
    const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    expect(await kindOf(failed(new AggregateError([refused('::1'), refused('127.0.0.1')])))).toBe('unreachable');
    expect(await kindOf(failed(new AggregateError([refused('::1'), Object.assign(new Error('reset'), { code: 'ECONNRESET' })])))).toBe('network');
    expect(await kindOf(failed(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })))).toBe('network');
    expect(await kindOf(failed(new Error('other side closed')))).toBe('network');
  });

  it("Node's own fetch to a closed port is unreachable", async () => {
    const { createServer } = await import('node:net');
    const server = createServer();
    const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
    await new Promise((resolve) => server.close(resolve));
    const svc = createServiceClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, clock: fakeClock().clock, retry, rateLimitRetry, timeoutMs: 5_000 });
    expect(await svc.send(POST, anything)).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
  });
});

describe('requests', () => {
  it('go to the signed-in service with the token header, never following redirects', async () => {
    const { svc, calls } = client([json(200, {})]);
    await svc.send({ method: 'GET', path: '/api/v1/accounts/1/conversations', query: { page: 2, labels: ['a b', 'c'], q: undefined } }, anything);
    expect(calls[0]!.url).toBe('https://svc.example/base/api/v1/accounts/1/conversations?page=2&labels%5B%5D=a+b&labels%5B%5D=c');
    expect(calls[0]!.init.headers).toMatchObject({ api_access_token: TOKEN });
    expect(calls[0]!.init.redirect).toBe('error');
  });

  it.each(['/api/../admin', '//evil.example/x', 'api/v1', '/api/v1\\..\\x', '/a//b'])('refuse the path %s', (path) => {
    expect(() => buildUrl('https://svc.example', { path })).toThrow();
  });

  it('answer internal (not a throw) when a path is refused', async () => {
    expect(await client([json(200, {})]).svc.send({ method: 'GET', path: '//evil.example/' }, anything)).toMatchObject({ ok: false, error: { kind: 'internal' } });
  });
});

describe('retries', () => {
  it('retry a GET on 5xx up to `attempts` tries, then give the last error', async () => {
    const { svc, calls, sleeps } = client([text(503, ''), text(502, ''), text(500, ''), text(504, '')]);
    const r = await svc.send(GET, anything);
    expect(calls).toHaveLength(4);
    expect(sleeps).toHaveLength(3);
    expect(r).toMatchObject({ ok: false, error: { kind: 'server', status: 504 } });
  });

  it('stop retrying as soon as a GET succeeds', async () => {
    const { svc, calls } = client([new TypeError('reset'), text(503, ''), json(200, { ok: 1 })]);
    expect(await svc.send(GET, anything)).toEqual({ ok: true, value: { ok: 1 } });
    expect(calls).toHaveLength(3);
  });

  it.each([
    ['404', json(404, { error: 'gone' })],
    ['422', json(422, { message: 'bad', attributes: [] })],
    ['401', json(401, { error: 'Invalid Access Token' })],
    ['403', json(403, { error: 'no' })],
    ['a bad 200', text(200, 'nope', 'text/html')],
  ])('do not retry a GET that failed with %s', async (_name, response) => {
    const { svc, calls } = client([response, json(200, {})]);
    expect((await svc.send(GET, anything)).ok).toBe(false);
    expect(calls).toHaveLength(1);
  });

  it.each([
    ['a 5xx', text(503, '')],
    ['a network error', new TypeError('reset')],
    ['a 429', text(429, 'Retry later')],
    ['a timeout', 'hang' as const],
  ])('never retry a POST after %s', async (_name, answer) => {
    const { svc, calls, sleeps, timers } = client([answer, json(200, {})]);
    const pending = svc.send(POST, anything);
    await Promise.resolve();
    timers.forEach((t) => t.fire());
    expect((await pending).ok).toBe(false);
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('never retry PATCH, PUT or DELETE either (the outbox decides)', async () => {
    for (const method of ['PATCH', 'PUT', 'DELETE'] as const) {
      const { svc, calls } = client([text(503, ''), json(200, {})]);
      await svc.send({ method, path: '/api/v1/x' }, anything);
      expect(calls).toHaveLength(1);
    }
  });

  it('draw each delay with full jitter: random × min(max, base·2ⁿ)', async () => {
    const draws = [0.5, 0.25, 0.9];
    const { svc, sleeps } = client([text(503, '')], () => draws.shift()!);
    await svc.send(GET, anything);
    // ceilings 100, 200, 350 (capped at maxMs)
    expect(sleeps).toEqual([50, 50, 315]);
  });

  it('keep every delay within [0, ceiling) for any random value, even a misbehaving one', () => {
    for (const r of [0, 1e-9, 0.3, 0.999999999, 1, 1.5, -2]) {
      for (let n = 0; n < 10; n++) {
        const d = fullJitterDelay(retry, n, () => r);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(backoffCeiling(retry, n));
      }
    }
    expect([0, 1, 2, 3, 10].map((n) => backoffCeiling(retry, n))).toEqual([100, 200, 350, 350, 350]);
  });

  it('back off from 429 on its own schedule and count it separately from 5xx', async () => {
    const { svc, calls, sleeps } = client([text(429, 'Retry later'), text(503, ''), text(429, 'Retry later'), json(200, { ok: 1 })], () => 0.5);
    expect(await svc.send(GET, anything)).toEqual({ ok: true, value: { ok: 1 } });
    expect(calls).toHaveLength(4);
    // 429 #1: 0.5 × 1000; 503 #1: 0.5 × 100; 429 #2: 0.5 × 2000
    expect(sleeps).toEqual([500, 50, 1000]);
  });

  it('give up after the 429 schedule runs out', async () => {
    const { svc, calls, sleeps } = client([text(429, 'Retry later')], () => 0.5);
    expect(await svc.send(GET, anything)).toMatchObject({ ok: false, error: { kind: 'rate_limited' } });
    expect(calls).toHaveLength(rateLimitRetry.attempts);
    expect(sleeps).toEqual([500, 1000]);
  });
});

describe('timeouts', () => {
  it('arm a timer on every attempt and cancel it when the answer is in', async () => {
    const { svc, timers } = client([json(200, {})], undefined, 1234);
    await svc.send(GET, anything);
    expect(timers.map((t) => [t.ms, t.cancelled])).toEqual([[1234, true]]);
  });

  it('abort a hanging request when its timer fires, as timeout, and retry it if it is a GET', async () => {
    const { svc, calls, timers } = client(['hang', json(200, { late: false })], undefined, 9_000);
    const pending = svc.send(GET, anything);
    await new Promise((r) => setImmediate(r));
    expect(calls).toHaveLength(1);
    timers[0]!.fire();
    expect(await pending).toEqual({ ok: true, value: { late: false } });
    expect(calls).toHaveLength(2);
    expect(calls[0]!.init.signal?.aborted).toBe(true);
  });

  it('answer timeout when every attempt hangs', async () => {
    const { svc, timers, calls } = client(['hang'], undefined, 9_000);
    const pending = svc.send(GET, anything);
    for (let i = 0; i < retry.attempts; i++) {
      await new Promise((r) => setImmediate(r));
      timers[i]!.fire();
    }
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'timeout', message: 'The service did not answer within 9 s.' } });
    expect(calls).toHaveLength(retry.attempts);
  });

  it('cover the body too: a body that stalls past the timer is a timeout', async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const c = fakeClock();
    const fetch = (async (_u: URL, init: RequestInit) => {
      init.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
      return new Response(stream, { status: 200 });
    }) as unknown as typeof globalThis.fetch;
    const svc = createServiceClient({ baseUrl: 'https://svc.example', token: TOKEN, fetch, clock: c.clock, retry: { attempts: 1, baseMs: 1, maxMs: 1 } });
    const pending = svc.send(GET, anything);
    await new Promise((r) => setImmediate(r));
    c.timers[0]!.fire();
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'timeout' } });
  });
});
