// Endpoints real Chatwoot clients call that the service lacked (issue 12, finding 5), with the
// reference's shapes (chatwoot-compat §1.2, §1.4, §1.13, §1.15, §1.16): custom attribute
// definitions, a contact's contact inboxes and contactable inboxes, conversation and contact
// filters, live conversation metrics, integration apps, a message's delivery status, a contact's
// CSAT answer, and GET /api. (Inbox administration, inbox members and agent bots: inbox-admin.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { clientPath, createClientContact } from '../support/public-api';
import { accountPath, agentConversation, expectSpecErrorShape, pickConversation, recordEvents, userIdOf } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

const as = (token: string) => (method: string, url: string, payload?: unknown) => svc.request({ method, url: `${A}${url}`, token, ...(payload === undefined ? {} : { payload }) });
const admin = (method: string, url: string, payload?: unknown) => as(svc.creds.adminToken)(method, url, payload);
const agent = (method: string, url: string, payload?: unknown) => as(svc.creds.agentToken)(method, url, payload);

describe('custom attribute definitions', () => {
  it('administrators define them (enums as integers or names, answered as names); members list by model; keys are unique per model', async () => {
    const created = await admin('POST', '/custom_attribute_definitions', { attribute_display_name: 'Plan', attribute_key: 'plan', attribute_model: 0, attribute_display_type: 6, attribute_values: ['free', 'pro', null] });
    expect(created.body).toMatchObject({ attribute_key: 'plan', attribute_model: 'conversation_attribute', attribute_display_type: 'list', attribute_values: ['free', 'pro'], created_at: expect.any(String) });
    const id = (created.body as { id: number }).id;
    await admin('POST', '/custom_attribute_definitions', { custom_attribute_definition: { attribute_display_name: 'Tier', attribute_key: 'tier', attribute_model: 'contact_attribute' } });
    const conv = (await agent('GET', '/custom_attribute_definitions?attribute_model=0')).body as { attribute_key: string }[];
    expect(conv.map((d) => d.attribute_key)).toEqual(['plan']);
    expect(((await agent('GET', '/custom_attribute_definitions')).body as unknown[]).length).toBe(2);
    expect((await admin('PATCH', `/custom_attribute_definitions/${id}`, { attribute_display_name: 'Billing plan' })).body).toMatchObject({ attribute_display_name: 'Billing plan', attribute_key: 'plan' });
    const dup = await admin('POST', '/custom_attribute_definitions', { attribute_display_name: 'Again', attribute_key: 'plan', attribute_model: 0 });
    expect(dup).toMatchObject({ status: 422, body: { message: 'Attribute key has already been taken', attributes: ['attribute_key'] } });
    expect((await admin('POST', '/custom_attribute_definitions', { attribute_display_name: 'X', attribute_key: 'x', attribute_model: 7 })).body).toMatchObject({ attributes: ['attribute_model'] });
    expect((await agent('POST', '/custom_attribute_definitions', { attribute_display_name: 'X', attribute_key: 'x', attribute_model: 0 })).status).toBe(401);
    expect((await admin('DELETE', `/custom_attribute_definitions/${id}`)).status).toBe(200);
    expect((await admin('GET', `/custom_attribute_definitions/${id}`)).status).toBe(404);
  });
});

describe("a contact's inboxes", () => {
  it('contact_inboxes links the contact to an inbox ({source_id, inbox}); a source_id of another contact is 422', async () => {
    const res = await admin('POST', '/contacts/5/contact_inboxes', { inbox_id: 3, source_id: 'ext-5' });
    expect(res.body).toEqual({ source_id: 'ext-5', inbox: expect.objectContaining({ id: 3, channel_type: 'Channel::Api' }) });
    const again = await admin('POST', '/contacts/5/contact_inboxes', { inbox_id: 3, source_id: 'ext-5' });
    expect(again.body).toMatchObject({ source_id: 'ext-5' });
    const taken = await admin('POST', '/contacts/6/contact_inboxes', { inbox_id: 3, source_id: 'ext-5' });
    expect(taken).toMatchObject({ status: 422, body: { attributes: ['source_id'] } });
    const generated = await admin('POST', '/contacts/6/contact_inboxes', { inbox_id: 3 });
    expect((generated.body as { source_id: string }).source_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await admin('POST', '/contacts/5/contact_inboxes', { inbox_id: 999999 })).status).toBe(404);
    expect((await admin('POST', '/contacts/999999/contact_inboxes', { inbox_id: 3 })).status).toBe(404);
  });

  it('contactable_inboxes lists the inboxes the caller may start a conversation in, with a source_id', async () => {
    const res = await admin('GET', '/contacts/5/contactable_inboxes');
    const payload = (res.body as { payload: { source_id: string; inbox: { id: number; channel_type: string } }[] }).payload;
    expect(payload.find((p) => p.inbox.id === 3)?.source_id).toBe('ext-5');
    expect(payload.filter((p) => p.inbox.channel_type === 'Channel::Api').length).toBe(2);
    const mine = (await agent('GET', '/contacts/5/contactable_inboxes')).body as { payload: { inbox: { id: number } }[] };
    expect(mine.payload.map((p) => p.inbox.id)).not.toContain(3);
  });
});

describe('filters', () => {
  it('conversations/filter joins conditions with and/or, over what the caller may see, 25 a page, with counts and no assigned_count', async () => {
    const res = await admin('POST', '/conversations/filter?page=1', {
      payload: [
        { attribute_key: 'status', filter_operator: 'equal_to', values: ['open'], query_operator: 'and' },
        { attribute_key: 'inbox_id', filter_operator: 'equal_to', values: [svc.creds.apiInboxId], query_operator: null },
      ],
    });
    const body = res.body as { meta: Record<string, number>; payload: { status: string; inbox_id: number }[] };
    expect(Object.keys(body.meta).sort()).toEqual(['all_count', 'mine_count', 'unassigned_count']);
    expect(body.payload.length).toBeGreaterThan(0);
    expect(body.payload.length).toBeLessThanOrEqual(25);
    expect(body.payload.every((c) => c.status === 'open' && c.inbox_id === svc.creds.apiInboxId)).toBe(true);
    const total = svc.db.prepare("SELECT COUNT(*) AS n FROM conversations WHERE account_id = ? AND status = 'open' AND inbox_id = ?").get(svc.creds.accountId, svc.creds.apiInboxId) as { n: number };
    expect(body.meta.all_count).toBe(total.n);
    const either = await admin('POST', '/conversations/filter', {
      payload: [
        { attribute_key: 'status', filter_operator: 'equal_to', values: ['resolved'], query_operator: 'or' },
        { attribute_key: 'status', filter_operator: 'equal_to', values: ['pending'] },
      ],
    });
    expect(new Set((either.body as { payload: { status: string }[] }).payload.map((c) => c.status))).toEqual(new Set(['resolved', 'pending']));
  });

  it('an agent filters only the inboxes it is a member of', async () => {
    const res = await agent('POST', '/conversations/filter', { payload: [{ attribute_key: 'inbox_id', filter_operator: 'equal_to', values: [3] }] });
    expect((res.body as { payload: unknown[] }).payload).toEqual([]);
  });

  it('contacts/filter answers the contact list shape, 15 a page', async () => {
    const res = await admin('POST', '/contacts/filter', { payload: [{ attribute_key: 'email', filter_operator: 'contains', values: ['@'] }] });
    const body = res.body as { meta: { count: number; current_page: number }; payload: { email: string }[] };
    expect(body.meta.current_page).toBe(1);
    expect(body.payload.length).toBe(Math.min(15, body.meta.count));
    expect(body.payload.every((c) => c.email.includes('@'))).toBe(true);
  });

  it('an unknown operator, an operator the attribute does not take, or no payload is 422 {message, attributes}', async () => {
    for (const payload of [[{ attribute_key: 'status', filter_operator: 'eq', values: ['open'] }], [{ attribute_key: 'labels', filter_operator: 'contains', values: ['x'] }], []]) {
      const res = await admin('POST', '/conversations/filter', { payload });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ attributes: ['payload'] });
    }
    const missing = await admin('POST', '/contacts/filter', {});
    expect(missing.status).toBe(422);
    expectSpecErrorShape(missing.body);
  });
});

describe('reports/conversations (live metrics)', () => {
  it('account: {open, unattended, unassigned, pending}; agent: each agent with metric {open, unattended}; administrators only', async () => {
    const account = await svc.request({ url: `/api/v2/accounts/${svc.creds.accountId}/reports/conversations?type=account`, token: svc.creds.adminToken });
    const open = svc.db.prepare("SELECT COUNT(*) AS n FROM conversations WHERE account_id = ? AND status = 'open'").get(svc.creds.accountId) as { n: number };
    expect(account.body).toMatchObject({ open: open.n, unattended: expect.any(Number), unassigned: expect.any(Number), pending: expect.any(Number) });
    const sam = userIdOf(svc, 'sam@acme.example');
    const one = await svc.request({ url: `/api/v2/accounts/${svc.creds.accountId}/reports/conversations/?type=agent&user_id=${sam}`, token: svc.creds.adminToken });
    const assigned = svc.db.prepare("SELECT COUNT(*) AS n FROM conversations WHERE account_id = ? AND status = 'open' AND assignee_id = ?").get(svc.creds.accountId, sam) as { n: number };
    expect(one.body).toEqual([{ id: sam, name: expect.any(String), email: 'sam@acme.example', thumbnail: expect.any(String), availability: expect.any(String), metric: { open: assigned.n, unattended: expect.any(Number) } }]);
    const all = await svc.request({ url: `/api/v2/accounts/${svc.creds.accountId}/reports/conversations?type=agent`, token: svc.creds.adminToken });
    expect((all.body as unknown[]).length).toBe(5);
    expect((await svc.request({ url: `/api/v2/accounts/${svc.creds.accountId}/reports/conversations?type=account`, token: svc.creds.agentToken })).status).toBe(401);
    expect((await svc.request({ url: `/api/v2/accounts/${svc.creds.accountId}/reports/conversations`, token: svc.creds.adminToken })).status).toBe(400);
  });
});

describe('integrations/apps and GET /api', () => {
  it('lists the webhook app, enabled once the account has a webhook', async () => {
    expect((await agent('GET', '/integrations/apps')).body).toMatchObject({ payload: [{ id: 'webhook', enabled: false, hooks: [] }] });
    await admin('POST', '/webhooks', { url: 'https://hooks.example/apps', subscriptions: ['message_created'] });
    expect((await agent('GET', '/integrations/apps')).body).toMatchObject({ payload: [{ id: 'webhook', enabled: true }] });
  });

  it('GET /api answers the version without a token', async () => {
    const res = await svc.request({ url: '/api' });
    expect(res).toMatchObject({ status: 200, body: { version: '4.10.0', queue_services: 'ok', data_services: 'ok' } });
    expect((res.body as { timestamp: string }).timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });
});

describe("a message's delivery status (API inboxes)", () => {
  it('moves forward and emits message.updated; delivered after read and unknown values are ignored; failed keeps external_error', async () => {
    const id = pickConversation(svc, 'c.inbox_id = ?', svc.creds.apiInboxId);
    const sent = (await admin('POST', `/conversations/${id}/messages`, { content: 'status me' })).body as { id: number };
    const events = recordEvents(svc);
    expect((await admin('PATCH', `/conversations/${id}/messages/${sent.id}`, { status: 'read' })).body).toMatchObject({ id: sent.id, status: 'read' });
    expect(events.events).toEqual([expect.objectContaining({ name: 'message.updated', changes: { status: ['sent', 'read'] } })]);
    expect((await admin('PUT', `/conversations/${id}/messages/${sent.id}`, { status: 'delivered' })).body).toMatchObject({ status: 'read' });
    expect((await admin('PATCH', `/conversations/${id}/messages/${sent.id}`, { status: 'lost' })).body).toMatchObject({ status: 'read' });
    expect(events.events).toHaveLength(1);
    const failed = await admin('PATCH', `/conversations/${id}/messages/${sent.id}`, { status: 'failed', external_error: 'carrier refused' });
    expect(failed.body).toMatchObject({ status: 'failed', content_attributes: { external_error: 'carrier refused' } });
    events.off();
  });

  it('is 403 {error} outside API inboxes (as the reference), 404 for another conversation\'s message', async () => {
    const id = agentConversation(svc, 'i.channel_type = ?', 'Channel::WebWidget');
    const m = (await agent('POST', `/conversations/${id}/messages`, { content: 'x' })).body as { id: number };
    expect(await agent('PATCH', `/conversations/${id}/messages/${m.id}`, { status: 'read' })).toMatchObject({ status: 403, body: { error: 'Message status update is only allowed for API inboxes' } });
    const other = pickConversation(svc, 'c.inbox_id = ?', svc.creds.apiInboxId);
    expect((await admin('PATCH', `/conversations/${other}/messages/${m.id}`, { status: 'read' })).status).toBe(404);
  });
});

describe("a contact's CSAT answer (Client API)", () => {
  it('stores submitted_values on the survey message and emits message.updated; a private note is 404', async () => {
    const contact = await createClientContact(svc, svc.creds.apiInboxIdentifier);
    const conv = (await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${contact.source_id}/conversations`), payload: {} })).body as { id: number };
    const survey = (await admin('POST', `/conversations/${conv.id}/messages`, { content: 'Rate us', content_type: 'input_csat' })).body as { id: number };
    const events = recordEvents(svc);
    const url = clientPath(svc.creds.apiInboxIdentifier, `/contacts/${contact.source_id}/conversations/${conv.id}/messages/${survey.id}`);
    const res = await svc.request({ method: 'PATCH', url, payload: { submitted_values: { csat_survey_response: { rating: 5, feedback_message: 'Quick' } } } });
    expect(res.body).toMatchObject({ id: survey.id, content_attributes: { submitted_values: { csat_survey_response: { rating: 5, feedback_message: 'Quick' } } } });
    expect(events.names()).toEqual(['message.updated']);
    events.off();
    const note = (await admin('POST', `/conversations/${conv.id}/messages`, { content: 'internal', private: true })).body as { id: number };
    expect((await svc.request({ method: 'PATCH', url: url.replace(String(survey.id), String(note.id)), payload: { submitted_values: {} } })).status).toBe(404);
  });

  it('is 422 on a survey older than 14 days', async () => {
    const contact = await createClientContact(svc, svc.creds.apiInboxIdentifier);
    const conv = (await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${contact.source_id}/conversations`), payload: {} })).body as { id: number };
    const survey = (await admin('POST', `/conversations/${conv.id}/messages`, { content: 'Rate us', content_type: 'input_csat' })).body as { id: number };
    svc.setNow(svc.clock() + 15 * 86_400_000);
    const res = await svc.request({
      method: 'PUT',
      url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${contact.source_id}/conversations/${conv.id}/messages/${survey.id}`),
      payload: { submitted_values: { csat_survey_response: { rating: 1 } } },
    });
    expect(res).toMatchObject({ status: 422, body: { message: 'You cannot update the CSAT survey after 14 days', attributes: ['submitted_values'] } });
  });
});
