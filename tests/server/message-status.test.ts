// A message's delivery status as an API channel reports it (chatwoot-compat §1: PATCH/PUT
// conversations/{cid}/messages/{id}): API inboxes only; sent → delivered → read, or failed with
// `external_error`; unknown values and read → delivered ignored; a live message.updated follows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, pickConversation, recordEvents } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

type Message = { id: number; status: string; content_attributes: Record<string, unknown> };
const reply = async (id: number) => (await svc.request({ method: 'POST', url: `${A}/conversations/${id}/messages`, token: svc.creds.adminToken, payload: { content: 'Your export is ready.' } })).body as Message;
const setStatus = (id: number, messageId: number, payload: unknown, method: 'PATCH' | 'PUT' = 'PATCH') => svc.request({ method, url: `${A}/conversations/${id}/messages/${messageId}`, token: svc.creds.adminToken, payload });

describe('PATCH conversations/{id}/messages/{id} (status)', () => {
  it('moves a reply through delivered and read, telling live clients', async () => {
    const id = pickConversation(svc, "i.channel_type = 'Channel::Api'");
    const m = await reply(id);
    expect(m.status).toBe('sent');
    const rec = recordEvents(svc);
    expect((await setStatus(id, m.id, { status: 'delivered' })).body).toMatchObject({ id: m.id, status: 'delivered' });
    expect((await setStatus(id, m.id, { status: 'read' }, 'PUT')).body).toMatchObject({ status: 'read' });
    expect(rec.names().filter((n) => n === 'message.updated')).toHaveLength(2);
    rec.off();
  });

  it('ignores an unknown status and read going back to delivered; keeps the reason only with failed', async () => {
    const id = pickConversation(svc, "i.channel_type = 'Channel::Api'");
    const m = await reply(id);
    await setStatus(id, m.id, { status: 'read' });
    expect((await setStatus(id, m.id, { status: 'delivered' })).body).toMatchObject({ status: 'read' });
    expect((await setStatus(id, m.id, { status: 'bounced' })).body).toMatchObject({ status: 'read' });
    const n = await reply(id);
    expect((await setStatus(id, n.id, { status: 'delivered', external_error: 'x' })).body).not.toHaveProperty('content_attributes.external_error');
    const failed = (await setStatus(id, n.id, { status: 'failed', external_error: 'Number unreachable' })).body as Message;
    expect(failed).toMatchObject({ status: 'failed', content_attributes: { external_error: 'Number unreachable' } });
  });

  it('answers 403 outside API inboxes, and 404 for a message of another conversation', async () => {
    const web = pickConversation(svc, "i.channel_type = 'Channel::WebWidget'");
    const m = await reply(web);
    const denied = await setStatus(web, m.id, { status: 'read' });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: 'Message status update is only allowed for API inboxes' });
    const api = pickConversation(svc, "i.channel_type = 'Channel::Api'");
    expect((await setStatus(api, m.id, { status: 'read' })).status).toBe(404);
  });
});
