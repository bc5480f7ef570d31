// The bad-input sweep: every Application-family route Fastify has registered (so a new route cannot
// escape) is sent malformed JSON, non-object and wrong-typed bodies, missing fields, oversized
// bodies, unknown ids, other accounts' ids, malformed ids and query parameters, and no or a wrong
// token. Nothing may answer 5xx, and every error body must have one of the spec's shapes.
// Malformed and oversized bodies must also change nothing in the database. Every parameter each
// route reads (found by watching the reads, see param-reads.ts) is also given prototype-named values.
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import type * as Body from '../../server/http/body';
import { expectSpecErrorShape } from './fixtures';
import { PROTOTYPE_NAMES, readsOf, recordQueryReads } from './param-reads';

// The Application family's writes read their parameters from input() (query string merged under the
// body), a fresh object the query's Proxy cannot see into: watch that object too.
vi.mock('../../server/http/body', async (importOriginal) => {
  const real = await importOriginal<typeof Body>();
  const { watchReads } = await import('./param-reads');
  return { ...real, input: (request: FastifyRequest) => watchReads(request, real.input(request)) };
});

let svc: DemoService;
let routes: { method: string; url: string }[];
const exercised = new Set<string>();
const failures: string[] = [];
let requests = 0;

/** The Application family: account-scoped paths, reports, the profile, account creation. */
const APPLICATION = /^\/api\/(v1\/accounts|v2\/accounts|v1\/profile)(\/|$)/;
const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** A demo service with the records the sweep needs, its query reads watched. Each describe gets its own. */
async function sweepService() {
  svc = await demoService();
  recordQueryReads(svc.app);
  await svc.app.ready();
  routes = svc.routes.filter((r) => r.method !== 'HEAD' && APPLICATION.test(r.url));
  // Records the sweep needs to exist, so valid ids reach past the 404 into body handling.
  const A = `/api/v1/accounts/${svc.creds.accountId}`;
  await svc.request({ method: 'POST', url: `${A}/contacts/5/notes`, token: svc.creds.adminToken, payload: { content: 'sweep note' } });
  await svc.request({ method: 'POST', url: `${A}/custom_filters`, token: svc.creds.adminToken, payload: { name: 'sweep', query: {} } });
  await svc.request({ method: 'POST', url: `${A}/assignment_policies`, token: svc.creds.adminToken, payload: { name: 'sweep' } });
  await svc.request({ method: 'POST', url: `${A}/conversations/3/assignments`, token: svc.creds.agentToken, payload: { assignee_id: 1 } });
  await svc.request({ method: 'POST', url: `${A}/webhooks`, token: svc.creds.adminToken, payload: { webhook: { url: 'https://hooks.example/sweep', subscriptions: ['message_created'] } } });
  await svc.request({ method: 'POST', url: `${A}/custom_attribute_definitions`, token: svc.creds.adminToken, payload: { attribute_display_name: 'Plan', attribute_key: 'plan', attribute_model: 0 } });
}
beforeEach(() => {
  failures.length = 0;
});

/** Current tokens: the sweep itself calls reset_access_token, which replaces the caller's token. */
const tokenOf = (email: string) => (svc.db.prepare("SELECT t.token FROM access_tokens t JOIN users u ON u.id = t.owner_id AND t.owner_type = 'User' WHERE u.email = ?").get(email) as { token: string }).token;
const adminToken = () => tokenOf('alex@acme.example');
const agentToken = () => tokenOf('sam@acme.example');

/** A valid id for each kind of path parameter, by the path segment before it. A new kind must be added here. */
function validIds(): Record<string, number> {
  // Once the sweep's own deletes have removed a record, its routes get an id that no longer exists.
  const one = (sql: string, ...args: unknown[]) => (svc.db.prepare(sql).get(...args) as { id: number } | undefined)?.id ?? 999_999_999;
  const acc = svc.creds.accountId;
  const admin = one("SELECT id FROM users WHERE email = 'alex@acme.example'");
  return {
    accounts: acc,
    conversations: 3,
    messages: one('SELECT m.id FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.account_id = ? AND c.display_id = 3 ORDER BY m.id DESC', acc),
    contacts: 5,
    notes: one('SELECT id FROM contact_notes WHERE contact_id = 5'),
    agents: one("SELECT id FROM users WHERE email = 'jordan@acme.example'"),
    teams: one('SELECT id FROM teams WHERE account_id = ?', acc),
    labels: one('SELECT id FROM labels WHERE account_id = ?', acc),
    canned_responses: one('SELECT id FROM canned_responses WHERE account_id = ?', acc),
    custom_filters: one('SELECT id FROM custom_filters WHERE user_id = ?', admin),
    notifications: one('SELECT id FROM notifications WHERE user_id = ? ORDER BY id', admin),
    assignment_policies: one('SELECT id FROM assignment_policies WHERE account_id = ?', acc),
    webhooks: one('SELECT id FROM webhooks WHERE account_id = ?', acc),
    inboxes: svc.creds.apiInboxId,
    inbox_members: svc.creds.apiInboxId,
    agent_bots: one('SELECT id FROM agent_bots WHERE account_id = ?', acc),
    custom_attribute_definitions: one('SELECT id FROM custom_attribute_definitions WHERE account_id = ?', acc),
  };
}

/** Fills a route's parameters; `override` replaces some by parameter name, or all non-account ids with '*'. */
function fill(url: string, override: Record<string, string> = {}): string {
  const ids = validIds();
  const segments = url.split('/');
  return segments
    .map((seg, i) => {
      if (!seg.startsWith(':')) return seg;
      const name = seg.slice(1);
      if (name in override) return override[name]!;
      if (name !== 'account_id' && '*' in override) return override['*']!;
      const kind = name === 'account_id' ? 'accounts' : name === 'conversation_id' ? 'conversations' : name === 'note_id' ? 'notes' : segments[i - 1]!;
      const id = ids[kind];
      if (id === undefined) throw new Error(`the sweep has no valid id for ${url} (${seg} after ${segments[i - 1]}): add one to validIds()`);
      return String(id);
    })
    .join('/');
}
const params = (url: string) => url.split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1));

async function probe(route: { method: string; url: string }, label: string, req: Parameters<DemoService['request']>[0], expectStatus?: number) {
  requests++;
  exercised.add(`${route.method} ${route.url}`);
  const res = await svc.request({ method: route.method, ...req });
  const where = `${route.method} ${route.url} [${label}] → ${res.status}`;
  if (res.status >= 500) failures.push(`${where}: ${res.text.slice(0, 200)}`);
  else if (expectStatus !== undefined && res.status !== expectStatus) failures.push(`${where}, expected ${expectStatus}: ${res.text.slice(0, 200)}`);
  else if (res.status >= 400) {
    try {
      expectSpecErrorShape(res.body, where);
    } catch {
      failures.push(`${where}: body not in a spec shape: ${res.text.slice(0, 200)}`);
    }
  }
  return res;
}

const confusing = {
  content: { nested: true }, status: 5, priority: ['high'], labels: 'vip', assignee_id: 'abc', assignee_type: 3, team_id: { x: 1 }, name: 12, email: [], phone_number: 5,
  custom_attributes: 'x', additional_attributes: 7, message: 'hi', private: 'perhaps', message_type: {}, content_type: 5, content_attributes: 3, echo_id: {}, attachments: 'file',
  inbox_id: 'x', contact_id: -1, source_id: 7, snoozed_until: {}, typing_status: 3, is_private: 'x', user_ids: 'all', note: 5, title: 3, color: 1, short_code: [], query: 'x',
  filter_type: 9, account_name: {}, profile: 3, agent: 'x', team: [], label: 9, canned_response: 1, custom_filter: 2, assignment_policy: 'x', assignment_policy_id: 'x', external_url: 5,
  role: 'god', availability: 1, auto_offline: 'x', display_name: 4, ui_settings: 'x', primary_actor_id: 'x', type: 4, identifier: [], blocked: 'no', description: {}, allow_auto_assign: 'x',
  show_on_sidebar: 7, locale: 5, domain: [], support_email: 1, auto_resolve_duration: 'x', enabled: 'x', fair_distribution_limit: 'x', assignment_order: 1, conversation_priority: 2,
};
const huge = (n: number) => 'x'.repeat(n);

function fingerprint() {
  const tables = ['accounts', 'users', 'access_tokens', 'contacts', 'conversations', 'messages', 'attachments', 'conversation_labels', 'labels', 'teams', 'team_members', 'canned_responses', 'contact_notes', 'contact_labels', 'custom_filters', 'notifications', 'assignment_policies', 'inbox_assignment_policies', 'uploads', 'transcript_requests', 'account_users'];
  return tables.map((t) => svc.db.prepare(`SELECT '${t}' AS t, COUNT(*) AS n FROM ${t}`).get());
}
const updatedAt = () => svc.db.prepare('SELECT (SELECT MAX(updated_at) FROM conversations) AS c, (SELECT MAX(updated_at) FROM contacts) AS k, (SELECT MAX(updated_at) FROM messages) AS m').get();

// Hundreds of requests per test: generous timeouts, since four engineers share two cores.
describe('bad-input sweep over every Application route', { timeout: 120_000 }, () => {
  beforeAll(sweepService);
  afterAll(() => svc.close());

  it('finds the routes from Fastify itself', () => {
    expect(routes.length).toBeGreaterThan(90);
    for (const known of ['POST /api/v1/accounts/:account_id/conversations/:conversation_id/toggle_status', 'GET /api/v2/accounts/:account_id/reports/summary', 'POST /api/v1/accounts/:account_id/upload', 'DELETE /api/v1/accounts/:account_id/contacts/:id/avatar']) {
      expect(routes.map((r) => `${r.method} ${r.url}`)).toContain(known);
    }
  });

  // An oversized body is 400 too: the spec's status table has no 413, and its 400 row is "unparseable body".
  it('malformed, prototype-polluting and oversized bodies are 400 and change nothing', async () => {
    const before = [fingerprint(), updatedAt()];
    for (const route of routes.filter((r) => BODY_METHODS.has(r.method))) {
      const url = fill(route.url);
      for (const [label, payload] of [
        ['malformed JSON', '{"content": "unterminated'],
        ['trailing garbage', '{"a":1} extra'],
        ['prototype pollution', '{"__proto__": {"admin": true}}'],
      ] as const) {
        await probe(route, label, { url, token: adminToken(), payload, headers: { 'content-type': 'application/json' } }, 400);
      }
      const big = await probe(route, 'oversized body', { url, token: adminToken(), payload: JSON.stringify({ content: huge(1_100_000) }), headers: { 'content-type': 'application/json' } }, 400);
      if (big.status === 400 && JSON.stringify(big.body) !== JSON.stringify({ error: 'Request body is too large' })) failures.push(`${route.method} ${route.url} [oversized body]: ${big.text}`);
      await probe(route, 'unsupported content type', { url, token: adminToken(), payload: '<xml/>', headers: { 'content-type': 'application/xml' } }, route.url.endsWith('/upload') ? undefined : 400);
      // Routes that read form-data (contact create/update) answer a torn one 400; the rest refuse the type, 400.
      const torn = '--sweep\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG';
      await probe(route, 'torn multipart', { url, token: adminToken(), payload: torn, headers: { 'content-type': 'multipart/form-data; boundary=sweep' } }, route.url.endsWith('/upload') ? undefined : 400);
    }
    expect(failures).toEqual([]);
    expect([fingerprint(), updatedAt()]).toEqual(before);
  });

  it('no token is 401 {errors}, a wrong token 401 {error}; other accounts, unknown and malformed ids are 404/404/400', async () => {
    for (const route of routes) {
      const signup = route.method === 'POST' && route.url === '/api/v1/accounts';
      if (!signup) {
        const none = await probe(route, 'no token', { url: fill(route.url), payload: route.method === 'GET' ? undefined : {} }, 401);
        if (none.status === 401) expect(none.body, route.url).toEqual({ errors: [expect.any(String)] });
      }
      await probe(route, 'wrong token', { url: fill(route.url), token: 'not-a-token', payload: route.method === 'GET' ? undefined : {} }, 401);
      const accountScoped = route.url.includes(':account_id');
      if (!accountScoped) continue;
      await probe(route, 'other account', { url: fill(route.url, { account_id: String(svc.creds.otherAccountId) }), token: adminToken(), payload: route.method === 'GET' ? undefined : {} }, 404);
      await probe(route, 'unknown account', { url: fill(route.url, { account_id: '999999999' }), token: adminToken(), payload: route.method === 'GET' ? undefined : {} }, 404);
      if (params(route.url).length > 1) {
        await probe(route, 'unknown ids', { url: fill(route.url, { '*': '999999999' }), token: adminToken(), payload: route.method === 'GET' ? undefined : {} }, 404);
      }
      for (const bad of ['abc', '-1', '1.5', '99999999999999999999', '%27%20OR%201=1']) {
        for (const name of params(route.url)) {
          await probe(route, `malformed ${name}=${bad}`, { url: fill(route.url, { [name]: bad }), token: adminToken(), payload: route.method === 'GET' ? undefined : {} }, 400);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('another account\'s records under this account are 404', async () => {
    const globexContact = (svc.db.prepare('SELECT id FROM contacts WHERE account_id = ?').get(svc.creds.otherAccountId) as { id: number }).id;
    const globexInbox = (svc.db.prepare('SELECT id FROM inboxes WHERE account_id = ?').get(svc.creds.otherAccountId) as { id: number }).id;
    for (const route of routes.filter((r) => /\/(contacts|inboxes)\/:id/.test(r.url))) {
      const id = route.url.includes('/contacts/') ? globexContact : globexInbox;
      await probe(route, 'other account record', { url: fill(route.url, { id: String(id) }), token: adminToken(), payload: route.method === 'GET' ? undefined : {} }, 404);
    }
    expect(failures).toEqual([]);
  });

  it('malformed query parameters never cause a 5xx', async () => {
    for (const route of routes.filter((r) => r.method === 'GET')) {
      for (const q of ['page=abc', 'page=0', 'page=-1', 'page=1e9', 'status=foo&assignee_type=x&sort_by=x', 'before=x&after=y', 'since=x&until=y&type=x&metric=x', 'labels[]=&includes[]=x', 'q=%00%ff', `q=${huge(5000)}`, 'filter_type=x&sort=-nope&sort_order=x']) {
        await probe(route, q.slice(0, 40), { url: `${fill(route.url)}?${q}`, token: adminToken() });
      }
    }
    expect(failures).toEqual([]);
  });

  it('non-object, wrong-typed, empty, deeply nested and huge-field bodies never cause a 5xx (deletes last)', async () => {
    const ordered = [...routes.filter((r) => r.method !== 'DELETE'), ...routes.filter((r) => r.method === 'DELETE')];
    for (const route of ordered.filter((r) => BODY_METHODS.has(r.method))) {
      const url = fill(route.url);
      for (const [label, payload] of [
        ['array body', '[]'],
        ['string body', '"text"'],
        ['number body', '42'],
        ['null body', 'null'],
        ['deep nesting', `{"content":${'['.repeat(2000)}${']'.repeat(2000)}}`],
      ] as const) {
        await probe(route, label, { url, token: adminToken(), payload, headers: { 'content-type': 'application/json' } });
      }
      await probe(route, 'wrong types', { url, token: adminToken(), payload: confusing });
      await probe(route, 'huge fields', { url, token: adminToken(), payload: { content: huge(900_000), name: huge(100_000) } });
      await probe(route, 'as an agent', { url, token: agentToken(), payload: {} });
      await probe(route, 'missing fields', { url, token: adminToken(), payload: {} });
    }
    expect(failures).toEqual([]);
  });

  it('covered every Application route', () => {
    expect([...exercised].sort()).toEqual(routes.map((r) => `${r.method} ${r.url}`).sort());
    expect(requests).toBeGreaterThan(routes.length * 10);
  });
});

// Lookups such as `SORTS[sort_by]` in an object literal find Object.prototype's members for these
// values. Its own service: these requests are real writes (a valid value reaches the handler), and
// the sweep above deletes records these need.
describe('prototype-named values in every parameter of every Application route', { timeout: 120_000 }, () => {
  beforeAll(sweepService);
  afterAll(() => svc.close());

  it('never answer 5xx, as a value (also `-value`, as sort takes) or as a name', async () => {
    const ordered = [...routes.filter((r) => r.method !== 'DELETE'), ...routes.filter((r) => r.method === 'DELETE')];
    let tried = 0;
    for (const route of ordered) {
      const get = route.method === 'GET';
      // What the route reads. GETs carry q (search answers 422 without it, before reading anything
      // else). Writes are sent an empty body (the names the code looks up) and the sweep's wrong-typed
      // body: updates spread the parameters over the record's values before validating, so their
      // names show only as the keys that spread copies.
      const base: Record<string, string> = get ? { q: 'a' } : {};
      const payload = get ? undefined : {};
      await probe(route, 'discovery', { url: `${fill(route.url)}?${new URLSearchParams(base)}`, token: adminToken(), payload });
      if (!get) await probe(route, 'discovery, every field', { url: fill(route.url), token: adminToken(), payload: confusing });
      for (const name of readsOf(route)) {
        for (const value of PROTOTYPE_NAMES.flatMap((v) => [v, `-${v}`])) {
          tried++;
          await probe(route, `${name}=${value}`, { url: `${fill(route.url)}?${new URLSearchParams({ ...base, [name]: value })}`, token: adminToken(), payload });
        }
      }
      await probe(route, 'prototype-named parameters', { url: `${fill(route.url)}?${PROTOTYPE_NAMES.map((n) => `${n}=1`).join('&')}`, token: adminToken(), payload });
    }
    expect(failures).toEqual([]);
    // The reads were seen, both from the query string and from input() (so the sweep is not vacuous).
    const A = '/api/v1/accounts/:account_id';
    expect(readsOf({ method: 'GET', url: `${A}/contacts` })).toEqual(expect.arrayContaining(['sort', 'page', 'labels', 'labels[]']));
    expect(readsOf({ method: 'GET', url: `${A}/conversations` })).toEqual(expect.arrayContaining(['sort_by', 'status', 'assignee_type']));
    expect(readsOf({ method: 'GET', url: '/api/v2/accounts/:account_id/reports' })).toContain('metric');
    expect(readsOf({ method: 'POST', url: `${A}/contacts` })).toEqual(expect.arrayContaining(['name', 'email', 'inbox_id']));
    expect(tried).toBeGreaterThan(500);
  });
});
