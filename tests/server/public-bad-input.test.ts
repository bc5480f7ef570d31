// Bad-input sweep over every Client, Widget and webhook route, taken from Fastify's registered
// routes so none escapes: malformed JSON, wrong types, non-object bodies, huge bodies, unknown ids,
// another inbox's identifiers, garbage queries. No 5xx except the spec's HMAC 500; every error body
// in one of the spec's shapes; and nothing is stored by any of it. Every query parameter each route
// reads (watched, see param-reads.ts) is also given prototype-named values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { clientPath, createClientContact, extraTenant, startWidget } from '../support/public-api';
import { PROTOTYPE_NAMES, readsOf, recordQueryReads } from './param-reads';

let svc: DemoService;
let ids: { source: string; conv: number; widgetToken: string; webhookId: number; otherInbox: string; otherSite: string };
beforeAll(async () => {
  svc = await demoService();
  recordQueryReads(svc.app);
  const c = await createClientContact(svc, svc.creds.apiInboxIdentifier, { name: 'Sweep' });
  const conv = (await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}/conversations`), payload: {} })).body as { id: number };
  const w = await startWidget(svc, svc.creds.websiteToken);
  await svc.request({ method: 'POST', url: `/api/v1/widget/messages?website_token=${svc.creds.websiteToken}`, headers: { 'x-auth-token': w.website_channel_config.auth_token }, payload: { message: { content: 'hi' } } });
  const hook = await svc.request({ method: 'POST', url: `/api/v1/accounts/${svc.creds.accountId}/webhooks`, token: svc.creds.adminToken, payload: { webhook: { url: 'http://127.0.0.1:9/sweep', subscriptions: ['contact_created'] } } });
  const tenant = extraTenant(svc);
  ids = { source: c.source_id, conv: conv.id, widgetToken: w.website_channel_config.auth_token, webhookId: (hook.body as { payload: { webhook: { id: number } } }).payload.webhook.id, otherInbox: tenant.api.identifier!, otherSite: tenant.widget.websiteToken! };
});
afterAll(() => svc.close());

// The families' own routes; not @fastify/cors's preflight (`OPTIONS <prefix>*`, registered on each
// family's prefix), whose answers the CORS tests in client-requests.test.ts hold.
const isPublic = (url: string) =>
  !url.endsWith('*') && (url.startsWith('/public/') || url.startsWith('/api/v1/widget') || url === '/widget' || url.includes('/webhooks'));
const HMAC_BODY = { error: 'HMAC failed: Invalid Identifier Hash Provided' };
/** The spec's one contracted 500: an HMAC failure on the Client contact endpoints that verify identity. */
function isHmac500(route: { url: string }, method: string, res: { status: number; body: unknown }) {
  const hmacEndpoint = /\/public\/api\/v1\/inboxes\/:inbox_identifier\/contacts(\/:contact_identifier)?$/.test(route.url) && method !== 'GET' ? true : /contacts\/:contact_identifier$/.test(route.url);
  return res.status === 500 && hmacEndpoint && JSON.stringify(res.body) === JSON.stringify(HMAC_BODY);
}

/** The spec's error shapes, exactly (Errors table). */
function isErrorShape(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  const keys = Object.keys(b).sort().join(',');
  if (keys === 'error') return typeof b.error === 'string';
  if (keys === 'attributes,message') return typeof b.message === 'string' && Array.isArray(b.attributes) && b.attributes.every((a) => typeof a === 'string');
  if (keys === 'errors') return Array.isArray(b.errors) && b.errors.every((e) => typeof e === 'string');
  return false;
}

interface Case {
  label: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string | object;
}

/** A route's path with valid identifiers, or with one of them replaced by `bad`. */
function fill(url: string, override: Partial<Record<string, string>> = {}) {
  const values: Record<string, string> = {
    inbox_identifier: svc.creds.apiInboxIdentifier,
    contact_identifier: ids.source,
    conversation_id: String(ids.conv),
    account_id: String(svc.creds.accountId),
    id: String(ids.webhookId),
    ...override,
  };
  return url.replace(/:([a-z_]+)/g, (_m, name: string) => encodeURIComponent(values[name] ?? 'x'));
}
const widgetQuery = (url: string, site = svc.creds.websiteToken) => (url.startsWith('/api/v1/widget') || url === '/widget' ? `${url}?website_token=${encodeURIComponent(site)}` : url);
function auth(url: string): Record<string, string> {
  if (url.includes('/webhooks')) return { api_access_token: svc.creds.adminToken };
  if (url.startsWith('/api/v1/widget')) return { 'x-auth-token': ids.widgetToken };
  return {};
}

const WRONG_TYPES = {
  content: 123,
  echo_id: { a: 1 },
  name: ['x'],
  email: { at: 'x' },
  phone_number: 5,
  identifier: 42,
  identifier_hash: 7,
  source_id: {},
  custom_attributes: 'not-an-object',
  additional_attributes: [1, 2],
  typing_status: 5,
  message: 'not-an-object',
  contact: 5,
  webhook: { url: 5, subscriptions: 'message_created', inbox_id: 'abc' },
};

function casesFor(route: { method: string; url: string }): Case[] {
  const withBody = ['POST', 'PATCH', 'PUT'].includes(route.method);
  const url = widgetQuery(fill(route.url));
  const headers = auth(route.url);
  // Garbage queries on reads only: a write with a valid (empty) body is a real write.
  const cases: Case[] =
    route.method === 'GET' ? [{ label: 'garbage query', method: route.method, url: `${url}${url.includes('?') ? '&' : '?'}before=abc&after[]=x&page=-1&identifier_hash[]=1`, headers }] : [];
  if (withBody) {
    cases.push(
      { label: 'malformed JSON', method: route.method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: '{"content": "x",' },
      { label: 'wrong types', method: route.method, url, headers, payload: WRONG_TYPES },
      { label: 'array body', method: route.method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: '[1,2,3]' },
      { label: 'string body', method: route.method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: '"just a string"' },
      { label: 'null body', method: route.method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: 'null' },
      { label: 'huge body', method: route.method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify({ content: 'x'.repeat(1_100_000) }) },
      { label: 'not JSON at all', method: route.method, url, headers: { ...headers, 'content-type': 'text/plain' }, payload: 'hello' },
    );
  }
  for (const param of route.url.match(/:([a-z_]+)/g) ?? []) {
    const name = param.slice(1);
    for (const bad of ['nope', '99999999', '-1', '0', 'x'.repeat(300), "1' OR '1'='1"]) {
      cases.push({ label: `unknown ${name}=${bad.slice(0, 12)}`, method: route.method, url: widgetQuery(fill(route.url, { [name]: bad })), headers, ...(withBody ? { payload: {} } : {}) });
    }
  }
  // Another inbox's identifier with this inbox's contact: the contact is not there.
  if (route.url.includes(':contact_identifier')) {
    cases.push({ label: "another inbox's identifier", method: route.method, url: fill(route.url, { inbox_identifier: ids.otherInbox }), ...(withBody ? { payload: {} } : {}) });
  }
  if (route.url.startsWith('/api/v1/widget') || route.url === '/widget') {
    // Session start and the page take no X-Auth-Token: another inbox's site is simply a new visitor there.
    if (route.url !== '/api/v1/widget/config' && route.url !== '/widget') {
      cases.push({ label: "another inbox's website_token", method: route.method, url: widgetQuery(fill(route.url), ids.otherSite), headers, ...(withBody ? { payload: {} } : {}) });
    }
    cases.push(
      { label: 'no website_token', method: route.method, url: fill(route.url), headers, ...(withBody ? { payload: {} } : {}) },
      { label: 'website_token as an array', method: route.method, url: `${fill(route.url)}?website_token=a&website_token=b`, headers, ...(withBody ? { payload: {} } : {}) },
    );
  }
  return cases;
}

const counted = ['contacts', 'contact_inboxes', 'conversations', 'messages', 'webhooks'];
const counts = () => Object.fromEntries(counted.map((t) => [t, (svc.db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n]));

describe('bad-input sweep: Client, Widget and webhook routes', () => {
  it('finds every public route among the registered routes', () => {
    const routes = svc.routes.filter((r) => isPublic(r.url));
    const keys = routes.map((r) => `${r.method} ${r.url}`);
    for (const expected of [
      'POST /public/api/v1/inboxes/:inbox_identifier/contacts',
      'POST /public/api/v1/inboxes/:inbox_identifier/contacts/:contact_identifier/conversations/:conversation_id/messages',
      'POST /api/v1/widget/config',
      'PATCH /api/v1/widget/contact/set_user',
      'GET /widget',
      'DELETE /api/v1/accounts/:account_id/webhooks/:id',
    ]) {
      expect(keys).toContain(expected);
    }
    expect(routes.length).toBeGreaterThanOrEqual(30);
  });

  it('answers every bad request without a 5xx (except the HMAC 500), in the spec shapes, storing nothing', async () => {
    const before = counts();
    const routes = svc.routes.filter((r) => isPublic(r.url));
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes) {
      for (const c of casesFor(route)) {
        const res = await svc.request({ method: c.method, url: c.url, headers: c.headers ?? {}, ...(c.payload === undefined ? {} : { payload: c.payload }) });
        sent++;
        const where = `${c.method} ${route.url} [${c.label}] → ${res.status} ${res.text.slice(0, 120)}`;
        if (res.status >= 500 && !isHmac500(route, c.method, res)) failures.push(`5xx: ${where}`);
        if (res.status >= 400 && !isErrorShape(res.body)) failures.push(`shape: ${where}`);
        if (c.label === 'malformed JSON' && res.status !== 400) failures.push(`expected 400: ${where}`);
        // No 413 in the spec's status table: a body too large to read is its 400 "unparseable body".
        if (c.label === 'huge body' && (res.status !== 400 || JSON.stringify(res.body) !== JSON.stringify({ error: 'Request body is too large' }))) failures.push(`expected 400 too large: ${where}`);
        if (c.label.startsWith('unknown') && res.status !== 404 && res.status !== 400) failures.push(`expected 404/400: ${where}`);
        if ((c.label.startsWith('another') || c.label === 'no website_token') && res.status !== 404) failures.push(`expected 404: ${where}`);
        if (c.label === 'website_token as an array' && res.status !== 404 && res.status !== 400) failures.push(`expected 404/400: ${where}`);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(300);
    expect(counts()).toEqual(before);
  });

  // Lookups in object literals find Object.prototype's members for these values. Last: the valid
  // (empty) writes here do store records.
  it('every query parameter a route reads, given prototype-named values, answers no 5xx (except the HMAC 500)', async () => {
    const routes = svc.routes.filter((r) => isPublic(r.url));
    const failures: string[] = [];
    let tried = 0;
    for (const route of routes) {
      const widget = route.url.startsWith('/api/v1/widget') || route.url === '/widget';
      const base: Record<string, string> = widget ? { website_token: svc.creds.websiteToken } : {};
      const send = async (label: string, query: Record<string, string>) => {
        const res = await svc.request({ method: route.method, url: `${fill(route.url)}?${new URLSearchParams(query)}`, headers: auth(route.url), ...(route.method === 'GET' ? {} : { payload: {} }) });
        const where = `${route.method} ${route.url} [${label}] → ${res.status} ${res.text.slice(0, 120)}`;
        if (res.status >= 500 && !isHmac500(route, route.method, res)) failures.push(`5xx: ${where}`);
        if (res.status >= 400 && !isErrorShape(res.body)) failures.push(`shape: ${where}`);
      };
      await send('discovery', base);
      for (const name of readsOf(route)) {
        for (const value of PROTOTYPE_NAMES.flatMap((v) => [v, `-${v}`])) {
          tried++;
          await send(`${name}=${value}`, { ...base, [name]: value });
        }
      }
      await send('prototype-named parameters', { ...base, ...Object.fromEntries(PROTOTYPE_NAMES.map((n) => [n, '1'])) });
    }
    expect(failures).toEqual([]);
    // The reads were seen (so the sweep is not vacuous).
    expect(readsOf({ method: 'GET', url: '/api/v1/widget/messages' })).toEqual(expect.arrayContaining(['website_token', 'before', 'after']));
    expect(readsOf({ method: 'GET', url: '/public/api/v1/inboxes/:inbox_identifier/contacts/:contact_identifier' })).toEqual(expect.arrayContaining(['identifier', 'identifier_hash']));
    expect(readsOf({ method: 'GET', url: '/widget' })).toEqual(expect.arrayContaining(['website_token', 'cw_conversation']));
    expect(tried).toBeGreaterThan(200);
  });

  it('a wrong identifier_hash type is a validation failure (422), not an HMAC 500', async () => {
    const res = await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, '/contacts'), payload: { identifier: 'x', identifier_hash: 12345 } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: expect.stringContaining('identifier_hash'), attributes: ['identifier_hash'] });
  });
});

describe('empty JSON bodies', () => {
  it('a body-less POST with Content-Type: application/json is accepted (widget session start)', async () => {
    const res = await svc.request({ method: 'POST', url: `/api/v1/widget/config?website_token=${svc.creds.websiteToken}`, headers: { 'content-type': 'application/json' }, payload: '' });
    expect(res.status).toBe(200);
  });
  it('prototype poisoning in a JSON body is still refused with a 400', async () => {
    const res = await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, '/contacts'), headers: { 'content-type': 'application/json' }, payload: '{"__proto__": {"admin": true}}' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String) });
  });
});
