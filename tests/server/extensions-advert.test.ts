// The service advertises its optional help for sync engines (SYNC-PROTOCOL.md, "The service's optional
// help") on every Application API response, errors included, so a client can learn it from any answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';

let svc: DemoService;
beforeAll(async () => {
  svc = await demoService();
  await svc.app.ready();
});
afterAll(() => svc.close());

const ADVERT = 'idempotency-key, conversation-etag, changes-feed, presence';
const A = () => `/api/v1/accounts/${svc.creds.accountId}`;

describe('X-Inbox-Extensions', () => {
  it('is on every Application GET route, v1 and v2', async () => {
    const gets = svc.routes.filter((r) => r.method === 'GET' && /^\/api\/(v1\/accounts|v2\/accounts|v1\/profile)(\/|$)/.test(r.url));
    expect(gets.length).toBeGreaterThan(30);
    const missing: string[] = [];
    for (const r of gets) {
      const url = r.url.replace(':account_id', String(svc.creds.accountId)).replace(/:[a-z_]+/g, '1');
      const res = await svc.request({ url, token: svc.creds.adminToken });
      if (res.headers['x-inbox-extensions'] !== ADVERT) missing.push(`${r.url} → ${res.status} ${String(res.headers['x-inbox-extensions'])}`);
    }
    expect(missing).toEqual([]);
  });

  it('is on errors too: no token, a wrong token, another account, an unknown path, a validation failure, a malformed body', async () => {
    const answers = [
      await svc.request({ url: `${A()}/conversations` }),
      await svc.request({ url: `${A()}/conversations`, token: 'wrong' }),
      await svc.request({ url: `/api/v1/accounts/${svc.creds.otherAccountId}/conversations`, token: svc.creds.adminToken }),
      await svc.request({ url: `${A()}/no-such-thing`, token: svc.creds.adminToken }),
      await svc.request({ method: 'POST', url: `${A()}/contacts`, token: svc.creds.adminToken, payload: { email: 'not an email' } }),
      await svc.request({ method: 'POST', url: `${A()}/contacts`, token: svc.creds.adminToken, payload: '{"name": ', headers: { 'content-type': 'application/json' } }),
      await svc.request({ url: `/api/v2/accounts/${svc.creds.accountId}/reports?metric=nope`, token: svc.creds.adminToken }),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 401, 404, 404, 422, 400, 400]);
    for (const a of answers) expect(a.headers['x-inbox-extensions'], a.text).toBe(ADVERT);
  });

  it('is on successful writes', async () => {
    const res = await svc.request({ method: 'POST', url: `${A()}/contacts`, token: svc.creds.adminToken, payload: { name: 'Advertised' } });
    expect(res.status).toBe(200);
    expect(res.headers['x-inbox-extensions']).toBe(ADVERT);
  });
});
