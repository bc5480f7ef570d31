// What real Chatwoot clients send, accepted the same way everywhere (issue 12, findings 1-4 and 6-9):
// multipart message creates, empty and form-encoded bodies, flat webhook parameters, trailing
// slashes, ids left at a client's default, a blank identifier_hash, CORS on the contact-facing
// families, and an inbox `medium` that is never null. Each failed before its fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { clientPath, createClientContact, widgetPath } from '../support/public-api';
import { accountPath, agentConversation, conversationRow, expectSpecErrorShape } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

/** A multipart/form-data body, as axios + form-data build it. */
function multipart(fields: [string, string][], files: { field: string; name: string; type: string; data: Buffer }[] = []) {
  const boundary = '----interop' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [name, value] of fields) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`), f.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function send(method: string, url: string, opts: { token?: string; payload?: string | Buffer; headers?: Record<string, string> } = {}) {
  const res = await svc.app.inject({
    method: method as 'POST',
    url,
    headers: { ...(opts.token ? { api_access_token: opts.token } : {}), ...opts.headers },
    ...(opts.payload === undefined ? {} : { payload: opts.payload }),
  });
  return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as Record<string, unknown>) : undefined, headers: res.headers, raw: res.rawPayload };
}

describe('finding 1: messages.create as multipart/form-data (how the SDKs always send it)', () => {
  it('takes the fields of a form without files', async () => {
    const id = agentConversation(svc);
    const form = multipart([
      ['content', 'Sent as a form'],
      ['private', 'true'],
      ['content_attributes', '{"in_reply_to": 1}'],
      ['echo_id', 'e-1'],
    ]);
    const res = await send('POST', `${A}/conversations/${id}/messages`, { token: svc.creds.agentToken, ...form });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ content: 'Sent as a form', private: true, content_attributes: { in_reply_to: 1 }, echo_id: 'e-1', message_type: 1 });
  });

  it('stores attachments[] files and serves their bytes', async () => {
    const id = agentConversation(svc);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const form = multipart([['content', 'Two files']], [
      { field: 'attachments[]', name: 'notes.txt', type: 'text/plain', data: Buffer.from('hello') },
      { field: 'attachments[]', name: 'pic.png', type: 'image/png', data: png },
    ]);
    const res = await send('POST', `${A}/conversations/${id}/messages`, { token: svc.creds.agentToken, ...form });
    expect(res.status).toBe(200);
    const attachments = res.body!.attachments as { file_type: string; extension: string; data_url: string; file_size: number }[];
    expect(attachments.map((a) => [a.file_type, a.extension, a.file_size])).toEqual([
      ['file', 'txt', 5],
      ['image', 'png', png.length],
    ]);
    const served = await svc.app.inject({ url: new URL(attachments[0]!.data_url).pathname });
    expect(served.body).toBe('hello');
  });

  it('a form without content or files is 422 {message, attributes}, and a file under another name stores nothing', async () => {
    const id = agentConversation(svc);
    const before = (svc.db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n;
    const empty = await send('POST', `${A}/conversations/${id}/messages`, { token: svc.creds.agentToken, ...multipart([['private', 'false']]) });
    expect(empty.status).toBe(422);
    expectSpecErrorShape(empty.body);
    const misnamed = await send('POST', `${A}/conversations/${id}/messages`, {
      token: svc.creds.agentToken,
      ...multipart([['content', 'x']], [{ field: 'file', name: 'a.txt', type: 'text/plain', data: Buffer.from('a') }]),
    });
    expect(misnamed.status).toBe(422);
    expect((svc.db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n).toBe(before);
  });
});

describe('finding 2: empty bodies and form bodies', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  it('an empty form body or an empty text/plain body means no parameters (axios 0.x sends empty POSTs as a form)', async () => {
    const id = agentConversation(svc, "c.status = 'open'");
    const toggled = await send('POST', `${A}/conversations/${id}/toggle_status`, { token: svc.creds.agentToken, payload: '', headers: form });
    expect(toggled.status).toBe(200);
    const seen = await send('POST', `${A}/conversations/${id}/update_last_seen`, { token: svc.creds.agentToken, payload: '', headers: { 'content-type': 'text/plain' } });
    expect(seen.status).toBe(200);
    const contact = await createClientContact(svc, svc.creds.apiInboxIdentifier);
    const conv = await send('POST', clientPath(svc.creds.apiInboxIdentifier, `/contacts/${contact.source_id}/conversations`), { payload: '', headers: form });
    expect(conv.status).toBe(200);
    expect(conv.body).toMatchObject({ id: expect.any(Number), status: 'open' });
  });

  it('reads form-encoded parameters with Rack nesting, wrapped or flat', async () => {
    const id = agentConversation(svc, "c.status = 'open'");
    const res = await send('POST', `${A}/conversations/${id}/toggle_status`, { token: svc.creds.agentToken, payload: 'status=pending', headers: form });
    expect(res.body).toMatchObject({ payload: { current_status: 'pending' } });
    expect(conversationRow(svc, id).status).toBe('pending');
    const hook = await send('POST', `${A}/webhooks`, {
      token: svc.creds.adminToken,
      payload: 'webhook[url]=https%3A%2F%2Fhooks.example%2Fform&webhook[subscriptions][]=message_created&webhook[subscriptions][]=contact_created',
      headers: form,
    });
    expect(hook.status).toBe(200);
    expect(hook.body).toMatchObject({ payload: { webhook: { url: 'https://hooks.example/form', subscriptions: ['message_created', 'contact_created'] } } });
  });

  it('a text/plain body that is not empty is 400 {error}, and changes nothing', async () => {
    const id = agentConversation(svc, "c.status = 'open'");
    const res = await send('POST', `${A}/conversations/${id}/toggle_status`, { token: svc.creds.agentToken, payload: 'status=resolved', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expectSpecErrorShape(res.body);
    expect(conversationRow(svc, id).status).toBe('open');
  });
});

describe('finding 3: webhooks.create and update take flat parameters, as every other resource', () => {
  it('creates from {url, subscriptions} and updates from flat fields; nothing at all is still 422 {error}', async () => {
    const created = await svc.request({ method: 'POST', url: `${A}/webhooks`, token: svc.creds.adminToken, payload: { url: 'https://hooks.example/flat', subscriptions: ['message_created'] } });
    expect(created.status).toBe(200);
    const id = (created.body as { payload: { webhook: { id: number } } }).payload.webhook.id;
    const updated = await svc.request({ method: 'PATCH', url: `${A}/webhooks/${id}`, token: svc.creds.adminToken, payload: { subscriptions: ['conversation_created'] } });
    expect(updated.body).toMatchObject({ payload: { webhook: { url: 'https://hooks.example/flat', subscriptions: ['conversation_created'] } } });
    const missing = await svc.request({ method: 'POST', url: `${A}/webhooks`, token: svc.creds.adminToken, payload: {} });
    expect(missing).toMatchObject({ status: 422, body: { error: 'param is missing or the value is empty: webhook' } });
    const invalidFlat = await svc.request({ method: 'POST', url: `${A}/webhooks`, token: svc.creds.adminToken, payload: { url: 'https://hooks.example/x', subscriptions: ['nope'] } });
    expect(invalidFlat).toMatchObject({ status: 422, body: { message: 'Subscriptions Invalid events', attributes: ['subscriptions'] } });
  });
});

describe('finding 4: a trailing slash names the same route', () => {
  it('GET inboxes/{id}/, reports/summary/ and the Client inbox/ answer as without it', async () => {
    const inbox = await svc.request({ url: `${A}/inboxes/${svc.creds.apiInboxId}/`, token: svc.creds.adminToken });
    expect(inbox).toMatchObject({ status: 200, body: { id: svc.creds.apiInboxId } });
    const summary = await svc.request({ url: `/api/v2/accounts/${svc.creds.accountId}/reports/summary/?type=account&since=0&until=1`, token: svc.creds.adminToken });
    expect(summary.status).toBe(200);
    expect((await svc.request({ url: clientPath(svc.creds.apiInboxIdentifier, '/') })).status).toBe(200);
  });
});

describe('finding 6: ids clients send as defaults are absent', () => {
  it('inbox_id=0 and team_id=0 list what no filter lists (list and meta); id= is no id (reports)', async () => {
    const plain = await svc.request({ url: `${A}/conversations?status=all`, token: svc.creds.adminToken });
    const zeros = await svc.request({ url: `${A}/conversations?status=all&inbox_id=0&team_id=0`, token: svc.creds.adminToken });
    expect(zeros.status).toBe(200);
    expect(zeros.body).toEqual(plain.body);
    const meta = await svc.request({ url: `${A}/conversations/meta?inbox_id=0&team_id=`, token: svc.creds.adminToken });
    expect(meta.body).toEqual((await svc.request({ url: `${A}/conversations/meta`, token: svc.creds.adminToken })).body);
    const report = await svc.request({ url: `/api/v2/accounts/${svc.creds.accountId}/reports/summary?type=account&id=&since=0&until=1`, token: svc.creds.adminToken });
    expect(report.status).toBe(200);
  });

  it('an empty id in a body is absent (conversation create with source_id "", assignee_id "", team_id "")', async () => {
    const res = await svc.request({
      method: 'POST',
      url: `${A}/conversations`,
      token: svc.creds.adminToken,
      payload: { source_id: '', inbox_id: String(svc.creds.apiInboxId), contact_id: '5', assignee_id: '', team_id: '' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ inbox_id: svc.creds.apiInboxId, meta: { sender: { id: 5 } } });
  });

  it('assignments read team_id only without assignee_id, as the reference (team_id: 0 beside an agent)', async () => {
    const id = agentConversation(svc);
    const res = await svc.request({ method: 'POST', url: `${A}/conversations/${id}/assignments`, token: svc.creds.adminToken, payload: { assignee_id: 2, team_id: 0 } });
    expect(res).toMatchObject({ status: 200, body: { id: 2 } });
  });

  it('other malformed values are still 400 {error}', async () => {
    const res = await svc.request({ url: `${A}/conversations?inbox_id=abc`, token: svc.creds.adminToken });
    expect(res.status).toBe(400);
    expectSpecErrorShape(res.body);
  });
});

describe('finding 7: a blank identifier_hash is no hash', () => {
  it('is accepted where identity verification is optional, and fails where it is mandatory', async () => {
    const ok = await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, '/contacts'), payload: { name: 'Blank hash', identifier_hash: '' } });
    expect(ok.status).toBe(200);
    const source = (ok.body as { source_id: string }).source_id;
    expect((await svc.request({ url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${source}?identifier_hash=`) })).status).toBe(200);
    expect((await svc.request({ method: 'PATCH', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${source}`), payload: { name: 'B', identifier_hash: '' } })).status).toBe(200);
    const mandatory = await svc.request({ method: 'POST', url: clientPath(svc.creds.hmacMandatoryInboxIdentifier, '/contacts'), payload: { identifier: 'u1', identifier_hash: '' } });
    expect(mandatory).toMatchObject({ status: 500, body: { error: 'HMAC failed: Invalid Identifier Hash Provided' } });
  });
});

describe('finding 8: CORS on the Client and Widget families, as Chatwoot allows its public API', () => {
  const origin = { origin: 'https://shop.example' };
  it('answers a preflight and marks answers readable from any origin', async () => {
    const preflight = await send('OPTIONS', clientPath(svc.creds.apiInboxIdentifier, '/contacts'), {
      headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('content-type');
    const read = await send('GET', clientPath(svc.creds.apiInboxIdentifier), { headers: origin });
    expect(read.headers['access-control-allow-origin']).toBe('*');
    const widget = await send('POST', widgetPath(svc.creds.websiteToken, 'config'), { headers: origin });
    expect(widget.status).toBe(200);
    expect(widget.headers['access-control-allow-origin']).toBe('*');
    const notFound = await send('GET', clientPath('nope'), { headers: origin });
    expect(notFound.headers['access-control-allow-origin']).toBe('*');
    // A path under the family that no route matches: the service's 404, still readable by the page.
    const noRoute = await send('GET', '/public/api/v1/nothing', { headers: origin });
    expect(noRoute.status).toBe(404);
    expect(noRoute.headers['access-control-allow-origin']).toBe('*');
  });

  it('gives the Application family none (its token must not work from any page)', async () => {
    const res = await send('GET', '/api/v1/profile', { token: svc.creds.agentToken, headers: origin });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await send('OPTIONS', `${A}/conversations`, { headers: { ...origin, 'access-control-request-method': 'GET' } });
    expect(preflight.status).toBe(404);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});
