// Every row of the spec's Limits table (production only), with the spec's 429: text/plain
// `Retry later`, no Retry-After. Time moves by the injected clock; nothing sleeps.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installThrottles, LIMITS } from '../../server/http/throttle';
import { demoService, DEMO_NOW } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';

let svc: DemoService;
beforeAll(async () => {
  svc = await demoService({ production: true });
});
afterAll(() => svc.close());

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let ipCounter = 0;
/** A fresh client address per test, so the per-IP rows of one test do not spend another's budget. */
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
/** A time well inside a fresh window of every length (no row's window boundary nearby). */
let epoch = 0;
const freshWindow = () => svc.setNow(DEMO_NOW + ++epoch * 24 * HOUR + 60_000);

type Req = Parameters<DemoService['request']>[0];
async function hammer(req: Req, times: number) {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await svc.request(req)).status);
  return statuses;
}
function expectSpec429(res: { status: number; text: string; headers: Record<string, unknown> }) {
  expect(res.status).toBe(429);
  expect(res.text.trim()).toBe('Retry later');
  expect(String(res.headers['content-type'])).toMatch(/^text\/plain/);
  expect(res.headers['retry-after']).toBeUndefined();
}

/** Sends `limit` allowed requests, checks the next is 429, then that the next window allows again. */
async function expectRow(req: Req, limit: number, windowMs: number) {
  const statuses = await hammer(req, limit);
  expect(statuses.filter((s) => s === 429), `first ${limit} allowed`).toEqual([]);
  expectSpec429(await svc.request(req));
  svc.setNow(svc.clock() + windowMs);
  expect((await svc.request(req)).status).not.toBe(429);
}

describe('Limits (spec), with --production', () => {
  it('covers every row of the table', async () => {
    expect(LIMITS.map((r) => [r.name, r.limit, r.windowMs])).toEqual([
      ['requests per IP', 3000, MINUTE],
      ['contact search per account', 100, MINUTE],
      ['reports per user', 100, MINUTE],
      ['reports per account', 1000, MINUTE],
      ['conversation transcript per account', 30, HOUR],
      ['attachment upload per account', 60, HOUR],
      ['account creation per IP', 50, 30 * MINUTE],
      ['widget conversation per visitor IP', 6, 12 * HOUR],
      ['widget contact update per visitor IP', 60, HOUR],
      ['widget page without cw_conversation per visitor IP', 5, HOUR],
    ]);
    // Rows match registered route patterns: each one a row names is served by this build (the
    // upload route is in a plugin, registered when the app is ready).
    await svc.app.ready();
    expect(svc.routes.map((r) => r.url)).toEqual(expect.arrayContaining(LIMITS.flatMap((r) => r.routes ?? [])));
  });

  it('a row naming a route pattern nothing registers stops the service from starting', async () => {
    const app = Fastify();
    installThrottles(app, () => DEMO_NOW, [{ name: 'renamed route', limit: 1, windowMs: MINUTE, routes: ['/api/v1/gone'], key: (r) => r.ip }]);
    app.get('/api/v1/here', async () => ({}));
    await expect(app.ready()).rejects.toThrow('throttle row "renamed route" names /api/v1/gone, which no route registers');
  });

  it('every request, per IP: 3000 a minute; another IP is not affected', async () => {
    freshWindow();
    const ip = freshIp();
    await expectRow({ url: '/no/such/route', remoteAddress: ip }, 3000, MINUTE);
    expect((await svc.request({ url: '/no/such/route', remoteAddress: freshIp() })).status).toBe(404);
  });

  it('contact search, per account: 100 a minute, whichever user or IP asks', async () => {
    freshWindow();
    const url = `/api/v1/accounts/${svc.creds.accountId}/contacts/search?q=a`;
    const statuses = await hammer({ url, token: svc.creds.agentToken, remoteAddress: freshIp() }, 60);
    statuses.push(...(await hammer({ url, token: svc.creds.adminToken, remoteAddress: freshIp() }, 40)));
    expect(statuses.every((s) => s === 200)).toBe(true);
    expectSpec429(await svc.request({ url, token: svc.creds.adminToken, remoteAddress: freshIp() }));
    // Another account's search is counted separately.
    expect((await svc.request({ url: `/api/v1/accounts/${svc.creds.otherAccountId}/contacts/search?q=a`, token: svc.creds.otherAccountAdminToken, remoteAddress: freshIp() })).status).toBe(200);
    svc.setNow(svc.clock() + MINUTE);
    expect((await svc.request({ url, token: svc.creds.adminToken, remoteAddress: freshIp() })).status).toBe(200);
  });

  it('reports v2, per user: 100 a minute for one token; others in the account still get through', async () => {
    freshWindow();
    const url = `/api/v2/accounts/${svc.creds.accountId}/reports/summary`;
    await expectRow({ url, token: svc.creds.adminToken, remoteAddress: freshIp() }, 100, MINUTE);
    svc.setNow(svc.clock() - MINUTE);
    // Same window, same account, another user: not the per-user limit (the agent gets its 401, not 429).
    expect((await svc.request({ url, token: svc.creds.agentToken, remoteAddress: freshIp() })).status).toBe(401);
  });

  it('reports v2, per account: 1000 a minute across users', async () => {
    freshWindow();
    const url = `/api/v2/accounts/${svc.creds.accountId}/reports`;
    // Eleven different tokens (valid or not, each under its own per-user limit) share the account's 1000.
    const statuses: number[] = [];
    for (let user = 0; user < 10; user++) statuses.push(...(await hammer({ url, token: `token-${user}`, remoteAddress: freshIp() }, 100)));
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expectSpec429(await svc.request({ url, token: 'token-10', remoteAddress: freshIp() }));
    svc.setNow(svc.clock() + MINUTE);
    expect((await svc.request({ url, token: 'token-10', remoteAddress: freshIp() })).status).toBe(401);
  });

  it('conversation transcript, per account: 30 an hour', async () => {
    freshWindow();
    const url = `/api/v1/accounts/${svc.creds.accountId}/conversations/1/transcript`;
    await expectRow({ method: 'POST', url, token: svc.creds.adminToken, payload: { email: 'a@example.com' }, remoteAddress: freshIp() }, 30, HOUR);
  });

  it('attachment upload, per account: 60 an hour', async () => {
    freshWindow();
    const url = `/api/v1/accounts/${svc.creds.accountId}/upload`;
    await expectRow({ method: 'POST', url, token: svc.creds.adminToken, payload: { external_url: 'https://files.example/a.png' }, remoteAddress: freshIp() }, 60, HOUR);
  });

  it('account creation, per IP: 50 every 30 minutes', async () => {
    freshWindow();
    const ip = freshIp();
    await expectRow({ method: 'POST', url: '/api/v1/accounts', payload: {}, remoteAddress: ip }, 50, 30 * MINUTE);
    expect((await svc.request({ method: 'POST', url: '/api/v1/accounts', payload: {}, remoteAddress: freshIp() })).status).toBe(422);
  });

  it('POST /api/v1/widget/conversations, per visitor IP: 6 every 12 hours, before the website_token is checked', async () => {
    freshWindow();
    await expectRow({ method: 'POST', url: '/api/v1/widget/conversations?website_token=x', payload: {}, remoteAddress: freshIp() }, 6, 12 * HOUR);
  });

  it('PATCH/PUT /api/v1/widget/contacts, per visitor IP: 60 an hour, both methods together; GET is not counted', async () => {
    freshWindow();
    const ip = freshIp();
    const statuses = [...(await hammer({ method: 'PATCH', url: '/api/v1/widget/contacts', payload: {}, remoteAddress: ip }, 30)), ...(await hammer({ method: 'PUT', url: '/api/v1/widget/contacts', payload: {}, remoteAddress: ip }, 30))];
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    expect((await svc.request({ url: '/api/v1/widget/contacts', remoteAddress: ip })).status).not.toBe(429);
    expectSpec429(await svc.request({ method: 'PUT', url: '/api/v1/widget/contacts', payload: {}, remoteAddress: ip }));
    svc.setNow(svc.clock() + HOUR);
    expect((await svc.request({ method: 'PATCH', url: '/api/v1/widget/contacts', payload: {}, remoteAddress: ip })).status).not.toBe(429);
  });

  it('GET /widget without cw_conversation, per visitor IP: 5 an hour; with cw_conversation it is not counted', async () => {
    freshWindow();
    const ip = freshIp();
    await expectRow({ url: '/widget?website_token=abc', remoteAddress: ip }, 5, HOUR);
    svc.setNow(svc.clock() - HOUR);
    expect((await svc.request({ url: '/widget?website_token=abc&cw_conversation=tok', remoteAddress: ip })).status).not.toBe(429);
  });

  it('a throttled request changes nothing', async () => {
    freshWindow();
    const url = `/api/v1/accounts/${svc.creds.accountId}/conversations/2/transcript`;
    await hammer({ method: 'POST', url, token: svc.creds.adminToken, payload: { email: 'b@example.com' }, remoteAddress: freshIp() }, 30);
    const before = svc.db.prepare('SELECT COUNT(*) AS n FROM transcript_requests').get();
    expectSpec429(await svc.request({ method: 'POST', url, token: svc.creds.adminToken, payload: { email: 'b@example.com' }, remoteAddress: freshIp() }));
    expect(svc.db.prepare('SELECT COUNT(*) AS n FROM transcript_requests').get()).toEqual(before);
  });
});

/** Percent-encodes every character of a string (what a client may send for any path segment). */
const encodeAll = (s: string) => [...s].map((ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');

/**
 * Sends `limit` requests cycling through `spellings` (one resource written differently), all allowed;
 * then each spelling is refused: they share one budget.
 */
async function expectSharedBudget(spellings: Req[], limit: number) {
  const statuses: number[] = [];
  for (let i = 0; i < limit; i++) statuses.push((await svc.request(spellings[i % spellings.length]!)).status);
  expect(statuses.filter((st) => st === 429), `first ${limit} allowed`).toEqual([]);
  for (const req of spellings) {
    const res = await svc.request(req);
    // A HEAD answer has no body to check.
    if (req.method === 'HEAD') expect(res.status).toBe(429);
    else expectSpec429(res);
  }
}

// The router accepts more than one spelling of a path: percent-encoded characters, ids with leading
// zeros (which intString reads as the same number). Each must count against the same bucket as the
// plain spelling, or a client gets a fresh budget by re-spelling. Spellings the router does not serve
// (trailing or doubled slash, other case) must not be served at all.
describe('Limits count the route that is served, however its path is spelt', () => {
  const account = () => String(svc.creds.accountId);
  const notServed = (path: string) => [`${path}/`, path.replace('/api/', '//api/'), path.replace('/api/', '/API/'), path.replace(/\/([a-z]+)$/, (_m, last: string) => `//${last}`), `${path};x`];

  it('contact search: percent-encoded segments and zero-padded account ids share the account budget', async () => {
    freshWindow();
    const req = (path: string): Req => ({ url: `${path}?q=a`, token: svc.creds.adminToken, remoteAddress: freshIp() });
    const plain = `/api/v1/accounts/${account()}/contacts/search`;
    await expectSharedBudget(
      [plain, `/api/v1/accounts/${account()}/contacts/%73earch`, `/api/v1/accounts/0${account()}/contacts/search`, `/api/v1/accounts/00${account()}/contacts/${encodeAll('search')}`, `/api/v1/accounts/${encodeAll(account())}/contacts/search`].map(req),
      100,
    );
    for (const path of notServed(plain)) expect((await svc.request(req(path))).status, path).not.toBe(200);
  });

  it('reports v2 per user: zero-padded account ids and encoded paths share the user budget', async () => {
    freshWindow();
    const req = (path: string): Req => ({ url: path, token: svc.creds.adminToken, remoteAddress: freshIp() });
    await expectSharedBudget([`/api/v2/accounts/${account()}/reports/summary`, `/api/v2/accounts/0${account()}/reports/summary`, `/api/v2/accounts/${account()}/reports/%73ummary`, `/api/v2/accounts/${account()}/%72eports/summary`].map(req), 100);
  });

  it('conversation transcript: zero-padded account and conversation ids and encoded paths share the account budget', async () => {
    freshWindow();
    const req = (path: string): Req => ({ method: 'POST', url: path, token: svc.creds.adminToken, payload: { email: 'c@example.com' }, remoteAddress: freshIp() });
    await expectSharedBudget(
      [`/api/v1/accounts/${account()}/conversations/1/transcript`, `/api/v1/accounts/0${account()}/conversations/1/transcript`, `/api/v1/accounts/${account()}/conversations/01/transcript`, `/api/v1/accounts/${account()}/conversations/1/%74ranscript`].map(req),
      30,
    );
  });

  it('attachment upload: zero-padded account ids and encoded paths share the account budget', async () => {
    freshWindow();
    const req = (path: string): Req => ({ method: 'POST', url: path, token: svc.creds.adminToken, payload: { external_url: 'https://files.example/b.png' }, remoteAddress: freshIp() });
    const plain = `/api/v1/accounts/${account()}/upload`;
    await expectSharedBudget([plain, `/api/v1/accounts/0${account()}/upload`, `/api/v1/accounts/${account()}/%75pload`].map(req), 60);
    for (const path of notServed(plain)) expect((await svc.request(req(path))).status, path).not.toBe(200);
  });

  it('account creation: an encoded path shares the IP budget', async () => {
    freshWindow();
    const ip = freshIp();
    await expectSharedBudget([{ method: 'POST', url: '/api/v1/accounts', payload: {}, remoteAddress: ip }, { method: 'POST', url: '/api/v1/%61ccounts', payload: {}, remoteAddress: ip }], 50);
  });

  it('widget conversations: an encoded path shares the visitor IP budget', async () => {
    freshWindow();
    const ip = freshIp();
    const url = (path: string) => `${path}?website_token=${svc.creds.websiteToken}`;
    await expectSharedBudget([{ method: 'POST', url: url('/api/v1/widget/conversations'), payload: {}, remoteAddress: ip }, { method: 'POST', url: url('/api/v1/widget/%63onversations'), payload: {}, remoteAddress: ip }], 6);
  });

  it('widget contact update: PATCH/PUT on /contact (the same handler as /contacts) and encoded paths share the visitor IP budget', async () => {
    freshWindow();
    const ip = freshIp();
    const spellings: Req[] = [];
    for (const method of ['PATCH', 'PUT']) {
      for (const path of ['/api/v1/widget/contacts', '/api/v1/widget/contact', '/api/v1/widget/%63ontact', '/api/v1/widget/contact%73']) spellings.push({ method, url: `${path}?website_token=${svc.creds.websiteToken}`, payload: {}, remoteAddress: ip });
    }
    await expectSharedBudget(spellings, 60);
    // set_user is another endpoint (identification), not this row.
    expect((await svc.request({ method: 'PATCH', url: `/api/v1/widget/contact/set_user?website_token=${svc.creds.websiteToken}`, payload: {}, remoteAddress: ip })).status).not.toBe(429);
  });

  it('GET /widget: an encoded path, HEAD, and a blank or whitespace cw_conversation count as "without cw_conversation"', async () => {
    freshWindow();
    const ip = freshIp();
    const t = `website_token=${svc.creds.websiteToken}`;
    await expectSharedBudget(
      [
        { url: `/widget?${t}`, remoteAddress: ip },
        { url: `/%77idget?${t}`, remoteAddress: ip },
        { method: 'HEAD', url: `/widget?${t}`, remoteAddress: ip },
        { url: `/widget?${t}&cw_conversation=`, remoteAddress: ip },
        { url: `/widget?${t}&cw_conversation=%20`, remoteAddress: ip },
      ],
      5,
    );
    expect((await svc.request({ url: `/widget?${t}&cw_conversation=tok`, remoteAddress: ip })).status).not.toBe(429);
  });
});

describe('Limits are off without --production', () => {
  it('answers beyond every limit', async () => {
    const dev = await demoService();
    try {
      const url = `/api/v1/accounts/${dev.creds.accountId}/contacts/search?q=a`;
      for (let i = 0; i < 101; i++) expect((await dev.request({ url, token: dev.creds.agentToken })).status).toBe(200);
      for (let i = 0; i < 7; i++) expect((await dev.request({ method: 'POST', url: '/api/v1/widget/conversations', payload: {} })).status).not.toBe(429);
    } finally {
      await dev.close();
    }
  });
});
