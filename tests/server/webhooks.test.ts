// Webhooks: the Application endpoints (spec: Events; chatwoot-compat §1.14, §5.1) and delivery
// (§5.2) to a receiver on this machine.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryResult } from '../../server/webhooks/delivery';
import { conversationByDisplayId } from '../../server/store/conversations';
import { createMessage } from '../../server/store/writes';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { clientPath, createClientContact } from '../support/public-api';

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

let svc: DemoService;
let receiver: Server;
let receiverUrl: string;
const hits: Hit[] = [];
const results: DeliveryResult[] = [];
/** Paths under /slow never answer (timeouts); /fail answers 500. */
beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(raw || '{}') as Record<string, unknown> });
      if (req.url?.startsWith('/slow')) return; // never answers
      res.writeHead(req.url?.startsWith('/fail') ? 500 : 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  svc = await demoService({ webhooks: { timeoutMs: 150, onResult: (r) => results.push(r) } });
});
afterAll(async () => {
  await svc.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(() => {
  hits.length = 0;
  results.length = 0;
});

const A = () => `/api/v1/accounts/${svc.creds.accountId}/webhooks`;
const admin = () => svc.creds.adminToken;
type WebhookBody = { payload: { webhook: { id: number; url: string; subscriptions: string[]; account_id: number; name: string | null; inbox?: { id: number; name: string } } } };
async function createWebhook(webhook: Record<string, unknown>) {
  const res = await svc.request({ method: 'POST', url: A(), token: admin(), payload: { webhook } });
  expect(res.status, res.text).toBe(200);
  return (res.body as WebhookBody).payload.webhook;
}
async function clientMessage(content: string) {
  const c = await createClientContact(svc, svc.creds.apiInboxIdentifier, { name: 'Hooked' });
  const conv = (await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}/conversations`), payload: {} })).body as { id: number };
  const res = await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}/conversations/${conv.id}/messages`), payload: { content } });
  expect(res.status).toBe(200);
  return { contact: c, displayId: conv.id };
}

describe('webhook endpoints (administrators only)', () => {
  it('creates, lists, updates and deletes; a second delete is 404', async () => {
    const created = await createWebhook({ url: `${receiverUrl}/crud`, subscriptions: ['message_created'], name: 'CRM' });
    expect(created).toEqual({ id: expect.any(Number), name: 'CRM', url: `${receiverUrl}/crud`, account_id: svc.creds.accountId, subscriptions: ['message_created'] });
    const list = await svc.request({ url: A(), token: admin() });
    expect((list.body as { payload: { webhooks: { id: number }[] } }).payload.webhooks.map((w) => w.id)).toContain(created.id);
    const updated = await svc.request({ method: 'PATCH', url: `${A()}/${created.id}`, token: admin(), payload: { webhook: { subscriptions: ['conversation_created', 'contact_created'] } } });
    expect(updated.status).toBe(200);
    expect((updated.body as WebhookBody).payload.webhook).toMatchObject({ url: `${receiverUrl}/crud`, subscriptions: ['conversation_created', 'contact_created'] });
    const put = await svc.request({ method: 'PUT', url: `${A()}/${created.id}`, token: admin(), payload: { webhook: { url: `${receiverUrl}/crud2` } } });
    expect((put.body as WebhookBody).payload.webhook.url).toBe(`${receiverUrl}/crud2`);
    expect((await svc.request({ method: 'DELETE', url: `${A()}/${created.id}`, token: admin() })).status).toBe(200);
    const again = await svc.request({ method: 'DELETE', url: `${A()}/${created.id}`, token: admin() });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: expect.any(String) });
  });
  it('an unknown event name fails with exactly 422 {message: "Subscriptions Invalid events", attributes: ["subscriptions"]}', async () => {
    const res = await svc.request({ method: 'POST', url: A(), token: admin(), payload: { webhook: { url: `${receiverUrl}/bad-events`, subscriptions: ['message_created', 'not_an_event'] } } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'Subscriptions Invalid events', attributes: ['subscriptions'] });
    const empty = await svc.request({ method: 'POST', url: A(), token: admin(), payload: { webhook: { url: `${receiverUrl}/no-events`, subscriptions: [] } } });
    expect(empty.body).toEqual({ message: 'Subscriptions Invalid events', attributes: ['subscriptions'] });
  });
  it('a duplicate URL fails with 422 {message: "Url has already been taken", attributes: ["url"]}', async () => {
    await createWebhook({ url: `${receiverUrl}/dup`, subscriptions: ['message_created'] });
    const res = await svc.request({ method: 'POST', url: A(), token: admin(), payload: { webhook: { url: `${receiverUrl}/dup`, subscriptions: ['contact_created'] } } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'Url has already been taken', attributes: ['url'] });
  });
  it('accepts only http and https URLs', async () => {
    for (const url of ['ftp://example.com/hook', 'javascript:alert(1)', 'file:///etc/passwd', 'not a url', '']) {
      const res = await svc.request({ method: 'POST', url: A(), token: admin(), payload: { webhook: { url, subscriptions: ['message_created'] } } });
      expect(res.status, url).toBe(422);
      expect((res.body as { attributes: string[] }).attributes, url).toEqual(['url']);
    }
  });
  it('a missing webhook object is 422 {error}; wrong types are 400 {error}', async () => {
    const missing = await svc.request({ method: 'POST', url: A(), token: admin(), payload: {} });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ error: 'param is missing or the value is empty: webhook' });
    const wrong = await svc.request({ method: 'POST', url: A(), token: admin(), payload: { webhook: { url: `${receiverUrl}/x`, subscriptions: 'message_created' } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: expect.any(String) });
  });
  it('agents get 401 {error}; another account gets 404', async () => {
    const agent = await svc.request({ url: A(), token: svc.creds.agentToken });
    expect(agent.status).toBe(401);
    expect(agent.body).toEqual({ error: 'You are not authorized to do this action' });
    const mine = await createWebhook({ url: `${receiverUrl}/mine`, subscriptions: ['message_created'] });
    const other = await svc.request({ method: 'DELETE', url: `/api/v1/accounts/${svc.creds.otherAccountId}/webhooks/${mine.id}`, token: svc.creds.otherAccountAdminToken });
    expect(other.status).toBe(404);
    const cross = await svc.request({ url: `/api/v1/accounts/${svc.creds.otherAccountId}/webhooks`, token: admin() });
    expect(cross.status).toBe(404);
  });
});

describe('delivery', () => {
  it('POSTs subscribed events as JSON, unsigned, with the §5.2 message body; unsubscribed events are not sent', async () => {
    await createWebhook({ url: `${receiverUrl}/messages`, subscriptions: ['message_created'] });
    const { contact, displayId } = await clientMessage('deliver me');
    await svc.webhooks.idle();
    const mine = hits.filter((h) => h.path === '/messages');
    expect(mine.map((h) => h.body.event)).toEqual(['message_created']);
    const [hit] = mine;
    expect(hit!.headers['content-type']).toBe('application/json');
    expect(hit!.headers.accept).toBe('application/json');
    expect(Object.keys(hit!.headers).filter((h) => /signature|hmac/i.test(h))).toEqual([]);
    expect(hit!.body).toMatchObject({
      event: 'message_created',
      content: 'deliver me',
      message_type: 'incoming',
      private: false,
      account: { id: svc.creds.accountId, name: 'Acme Support' },
      inbox: { id: svc.creds.apiInboxId, name: 'Mobile app' },
      conversation: { id: displayId, inbox_id: svc.creds.apiInboxId },
      sender: { id: contact.id, name: 'Hooked' },
      created_at: expect.stringMatching(/Z$/),
    });
  });
  it('delivers contact_created and conversation_status_changed with changed_attributes', async () => {
    await createWebhook({ url: `${receiverUrl}/lifecycle`, subscriptions: ['contact_created', 'conversation_status_changed'] });
    const c = await createClientContact(svc, svc.creds.apiInboxIdentifier, { name: 'Lifecycle' });
    const conv = (await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}/conversations`), payload: {} })).body as { id: number };
    await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}/conversations/${conv.id}/toggle_status`) });
    await svc.webhooks.idle();
    const bodies = hits.filter((h) => h.path === '/lifecycle').map((h) => h.body);
    expect(bodies.map((b) => b.event)).toEqual(['contact_created', 'conversation_status_changed']);
    expect(bodies[0]).toMatchObject({ id: c.id, name: 'Lifecycle', account: { id: svc.creds.accountId } });
    expect(bodies[1]).toMatchObject({ id: conv.id, status: 'resolved', changed_attributes: [{ status: { previous_value: 'open', current_value: 'resolved' } }] });
  });
  it("a Channel::Api inbox's webhook_url receives every inbox-scoped event, whatever the subscriptions", async () => {
    svc.db.prepare('UPDATE inboxes SET webhook_url = ? WHERE id = ?').run(`${receiverUrl}/inbox-hook`, svc.creds.apiInboxId);
    try {
      const c = await createClientContact(svc, svc.creds.apiInboxIdentifier);
      const conv = (await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}/conversations`), payload: {} })).body as { id: number };
      const base = clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}/conversations/${conv.id}`);
      await svc.request({ method: 'POST', url: `${base}/messages`, payload: { content: 'to the inbox hook' } });
      await svc.request({ method: 'POST', url: `${base}/toggle_typing`, payload: { typing_status: 'on' } });
      await svc.webhooks.idle();
      const events = hits.filter((h) => h.path === '/inbox-hook').map((h) => h.body.event);
      // Deliveries go out four at a time over separate connections (the earlier tests' webhooks
      // take slots too), so they may arrive in another order than they were sent.
      expect([...events].sort()).toEqual(['conversation_created', 'conversation_typing_on', 'conversation_updated', 'message_created']);
      expect(events).not.toContain('contact_created'); // not inbox-scoped
    } finally {
      svc.db.prepare('UPDATE inboxes SET webhook_url = NULL WHERE id = ?').run(svc.creds.apiInboxId);
    }
  });
  it('a webhook bound to an inbox gets only that inbox’s events', async () => {
    await createWebhook({ url: `${receiverUrl}/widget-only`, subscriptions: ['message_created'], inbox_id: svc.creds.widgetInboxId });
    await clientMessage('api inbox message');
    await svc.webhooks.idle();
    expect(hits.filter((h) => h.path === '/widget-only')).toEqual([]);
  });
  it('private notes are delivered flagged private; activity messages are not delivered', async () => {
    await createWebhook({ url: `${receiverUrl}/notes`, subscriptions: ['message_created'] });
    const { displayId } = await clientMessage('start');
    await svc.webhooks.idle();
    hits.length = 0;
    const row = conversationByDisplayId(svc.db, svc.creds.accountId, displayId)!;
    const ctx = { db: svc.db, bus: svc.bus, now: svc.clock() };
    createMessage(ctx, { conversation: row, messageType: 1, content: 'a private note', private: true, sender: { type: 'User', id: 1 } });
    createMessage(ctx, { conversation: row, messageType: 2, content: 'activity', sender: null });
    await svc.webhooks.idle();
    const bodies = hits.filter((h) => h.path === '/notes').map((h) => h.body);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({ content: 'a private note', private: true, message_type: 'outgoing', sender: { type: 'user' } });
  });
  it('a receiver that never answers times out (configurable), the request is unaffected, nothing is retried', async () => {
    const slowHook = await createWebhook({ url: `${receiverUrl}/slow`, subscriptions: ['contact_created'] });
    const failHook = await createWebhook({ url: `${receiverUrl}/fail`, subscriptions: ['contact_created'] });
    const res = await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, '/contacts'), payload: { name: 'Unbothered' } });
    expect(res.status).toBe(200);
    await svc.webhooks.idle();
    const slow = results.filter((r) => r.url.endsWith('/slow'));
    const failed = results.filter((r) => r.url.endsWith('/fail'));
    expect(slow).toEqual([expect.objectContaining({ outcome: 'timeout', event: 'contact_created' })]);
    expect(failed).toEqual([expect.objectContaining({ outcome: 'http_error', status: 500 })]);
    expect(hits.filter((h) => h.path === '/fail')).toHaveLength(1); // no retry
    for (const hook of [slowHook, failHook]) await svc.request({ method: 'DELETE', url: `${A()}/${hook.id}`, token: admin() });
  });
});
