// Widget family conformance (spec: Resources → Widget configuration; States and transitions;
// Authentication → Widget family; Endpoints → Widget family; chatwoot-compat §1.17).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildService } from '../../server/app';
import { seedDemo } from '../../server/demo/seed';
import { WidgetTokens } from '../../server/widget/session-token';
import { DEMO_NOW, demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { extraTenant, startWidget, widgetPath, widgetRequest } from '../support/public-api';

let svc: DemoService;
beforeAll(async () => {
  svc = await demoService();
});
afterAll(() => svc.close());

const DAY_S = 86_400;
const site = () => svc.creds.websiteToken;
const count = (table: string) => (svc.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('session start: POST /api/v1/widget/config', () => {
  it('returns website_channel_config with every field the spec lists', async () => {
    const s = await startWidget(svc, site());
    const config = s.website_channel_config;
    const fields = ['allow_messages_after_resolved', 'api_host', 'auth_token', 'avatar_url', 'csat_survey_enabled', 'disable_branding', 'enabled_features', 'enabled_languages', 'locale', 'out_of_office_message', 'portal', 'pre_chat_form_enabled', 'pre_chat_form_options', 'reply_time', 'timezone', 'utc_off_set', 'website_name', 'website_token', 'welcome_tagline', 'welcome_title', 'widget_color', 'working_hours', 'working_hours_enabled'];
    expect(Object.keys(config).sort()).toEqual([...fields].sort());
    expect(config).toMatchObject({
      allow_messages_after_resolved: expect.any(Boolean),
      api_host: expect.stringMatching(/^https?:\/\//),
      avatar_url: expect.any(String),
      csat_survey_enabled: false,
      disable_branding: false,
      locale: 'en',
      out_of_office_message: null,
      portal: null,
      pre_chat_form_enabled: false,
      pre_chat_form_options: { pre_chat_fields: expect.any(Array), pre_chat_message: expect.any(String) },
      reply_time: expect.any(String),
      timezone: 'UTC',
      utc_off_set: '+00:00',
      website_name: 'Website chat',
      website_token: site(),
      widget_color: expect.any(String),
      working_hours_enabled: false,
    });
    expect(config.enabled_features).toEqual(expect.arrayContaining(['attachments', 'emoji_picker']));
    const languages = config.enabled_languages as { name: string; iso_639_1_code: string }[];
    expect(languages.length).toBeGreaterThan(0);
    for (const l of languages) expect(l).toEqual({ name: expect.any(String), iso_639_1_code: expect.any(String) });
    const hours = config.working_hours as Record<string, unknown>[];
    expect(hours).toHaveLength(7);
    for (const h of hours) {
      expect(h).toMatchObject({ id: expect.any(Number), inbox_id: svc.creds.widgetInboxId, account_id: svc.creds.accountId, created_at: expect.any(String), updated_at: expect.any(String), day_of_week: expect.any(Number), closed_all_day: expect.any(Boolean), open_all_day: expect.any(Boolean) });
    }
  });
  it('gives a first-time visitor a generated name, null email/identifier/phone and a pubsub_token; global_config is four strings', async () => {
    const s = await startWidget(svc, site());
    expect(s.contact).toEqual({ id: expect.any(Number), name: expect.stringMatching(/^[a-z]+-[a-z]+-\d{3}$/), email: null, identifier: null, phone_number: null, pubsub_token: expect.any(String) });
    expect(Object.keys(s.global_config).sort()).toEqual(['BRAND_NAME', 'INSTALLATION_NAME', 'LOGO_THUMBNAIL', 'WIDGET_BRAND_URL']);
    for (const v of Object.values(s.global_config)) expect(typeof v).toBe('string');
  });
  it('derives utc_off_set (+HH:MM) from the inbox timezone', async () => {
    const tenant = extraTenant(svc);
    for (const [tz, offset] of [['Asia/Kolkata', '+05:30'], ['America/Sao_Paulo', '-03:00'], ['Asia/Kathmandu', '+05:45'], ['Not/AZone', '+00:00']] as const) {
      svc.db.prepare('UPDATE inboxes SET settings = ? WHERE id = ?').run(JSON.stringify({ timezone: tz }), tenant.widget.id);
      const s = await startWidget(svc, tenant.widget.websiteToken!);
      expect(s.website_channel_config.utc_off_set, tz).toBe(offset);
    }
  });
  it('issues a signed JWT with source_id and inbox_id (no account, contact or role), valid 180 days', async () => {
    const s = await startWidget(svc, site());
    const claims = decodeJwt(s.website_channel_config.auth_token);
    expect(Object.keys(claims).sort()).toEqual(['exp', 'iat', 'inbox_id', 'source_id']);
    expect(claims.inbox_id).toBe(svc.creds.widgetInboxId);
    const ci = svc.db.prepare('SELECT contact_id FROM contact_inboxes WHERE source_id = ?').get(claims.source_id) as { contact_id: number };
    expect(ci.contact_id).toBe(s.contact.id);
    expect(claims.exp! - claims.iat!).toBe(180 * DAY_S);
    expect(claims.iat).toBe(Math.floor(svc.clock() / 1000));
  });
  it('answers 404 {error} for an unknown or missing website_token', async () => {
    for (const url of ['/api/v1/widget/config?website_token=nope', '/api/v1/widget/config']) {
      const res = await svc.request({ method: 'POST', url });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });
  it('answers 404 for a website_token of an inbox that is not a web widget', async () => {
    svc.db.prepare("UPDATE inboxes SET website_token = 'api-inbox-site' WHERE id = ?").run(svc.creds.apiInboxId);
    expect((await svc.request({ method: 'POST', url: widgetPath('api-inbox-site', 'config') })).status).toBe(404);
    svc.db.prepare('UPDATE inboxes SET website_token = NULL WHERE id = ?').run(svc.creds.apiInboxId);
  });
});

describe('States and transitions: the visitor session', () => {
  it('config without X-Auth-Token creates a contact and a contact inbox', async () => {
    const contacts = count('contacts');
    const links = count('contact_inboxes');
    await startWidget(svc, site());
    expect(count('contacts')).toBe(contacts + 1);
    expect(count('contact_inboxes')).toBe(links + 1);
  });
  it('config with a valid token returns the same visitor, creates no second contact, and a reload continues the conversation', async () => {
    const first = await startWidget(svc, site());
    const token = first.website_channel_config.auth_token;
    const sent = await widgetRequest(svc, site(), token, 'POST', 'messages', { message: { content: 'before reload' } });
    expect(sent.status).toBe(200);
    const contacts = count('contacts');
    const again = await startWidget(svc, site(), token);
    expect(again.contact.id).toBe(first.contact.id);
    expect(again.website_channel_config.auth_token).toBe(token);
    expect(count('contacts')).toBe(contacts);
    const history = await widgetRequest(svc, site(), token, 'GET', 'messages');
    expect((history.body as { payload: { content: string }[] }).payload.map((m) => m.content)).toEqual(['before reload']);
  });
  it('after 180 days the token yields 404, and config without a token creates a new visitor', async () => {
    const s = await startWidget(svc, site());
    const token = s.website_channel_config.auth_token;
    const start = svc.clock();
    try {
      svc.setNow(start + 179 * DAY_S * 1000);
      expect((await widgetRequest(svc, site(), token, 'GET', 'conversations')).status).toBe(200);
      svc.setNow(start + 180 * DAY_S * 1000 + 1000);
      const expired = await widgetRequest(svc, site(), token, 'GET', 'conversations');
      expect(expired.status).toBe(404);
      expect(expired.body).toEqual({ error: expect.any(String) });
      const fresh = await startWidget(svc, site());
      expect(fresh.contact.id).not.toBe(s.contact.id);
      // An expired token presented to config is no session either: a new visitor.
      const viaExpired = await startWidget(svc, site(), token);
      expect(viaExpired.contact.id).not.toBe(s.contact.id);
    } finally {
      svc.setNow(start);
    }
  });
  it('the lifetime is configurable, and the signing key survives a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'widget-token-'));
    const file = join(dir, 'service.sqlite');
    try {
      let now = DEMO_NOW;
      const a = await buildService({ db: file, clock: () => now, widgetTokenLifetimeSeconds: 3600 });
      const creds = seedDemo(a.db, now);
      const res = await a.app.inject({ method: 'POST', url: widgetPath(creds.websiteToken, 'config') });
      const token = (JSON.parse(res.body) as { website_channel_config: { auth_token: string } }).website_channel_config.auth_token;
      const claims = decodeJwt(token);
      expect(claims.exp! - claims.iat!).toBe(3600);
      await a.close();
      const b = await buildService({ db: file, clock: () => now, widgetTokenLifetimeSeconds: 3600 });
      const ok = await b.app.inject({ method: 'GET', url: widgetPath(creds.websiteToken, 'conversations'), headers: { 'x-auth-token': token } });
      expect(ok.statusCode).toBe(200);
      now += 3601_000;
      const late = await b.app.inject({ method: 'GET', url: widgetPath(creds.websiteToken, 'conversations'), headers: { 'x-auth-token': token } });
      expect(late.statusCode).toBe(404);
      await b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('widget credential failures', () => {
  it('404 when X-Auth-Token is missing or malformed', async () => {
    for (const headers of [{}, { 'x-auth-token': 'garbage' }, { 'x-auth-token': 'a.b.c' }] as Record<string, string>[]) {
      const res = await svc.request({ url: widgetPath(site(), 'messages'), headers });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });
  it('404 for a token issued for another inbox', async () => {
    const tenant = extraTenant(svc);
    const other = await startWidget(svc, tenant.widget.websiteToken!);
    const res = await widgetRequest(svc, site(), other.website_channel_config.auth_token, 'GET', 'messages');
    expect(res.status).toBe(404);
  });
  it("404 when the token's source_id is not a contact inbox of the inbox", async () => {
    const forged = await new WidgetTokens(svc.db, svc.clock).issue({ source_id: 'no-such-contact-inbox', inbox_id: svc.creds.widgetInboxId });
    expect((await widgetRequest(svc, site(), forged, 'GET', 'messages')).status).toBe(404);
  });
  it('404 for a token signed with another key', async () => {
    const s = await startWidget(svc, site());
    const [h, p] = s.website_channel_config.auth_token.split('.');
    const forged = `${h}.${p}.${Buffer.from('x'.repeat(32)).toString('base64url')}`;
    expect((await widgetRequest(svc, site(), forged, 'GET', 'messages')).status).toBe(404);
  });
  it('401 "Account is suspended": {errors:[…]} on config, {error} elsewhere', async () => {
    const tenant = extraTenant(svc);
    const s = await startWidget(svc, tenant.widget.websiteToken!);
    svc.db.prepare("UPDATE accounts SET status = 'suspended' WHERE id = ?").run(tenant.accountId);
    const config = await svc.request({ method: 'POST', url: widgetPath(tenant.widget.websiteToken!, 'config') });
    expect(config.status).toBe(401);
    expect(config.body).toEqual({ errors: ['Account is suspended'] });
    const messages = await widgetRequest(svc, tenant.widget.websiteToken!, s.website_channel_config.auth_token, 'GET', 'messages');
    expect(messages.status).toBe(401);
    expect(messages.body).toEqual({ error: 'Account is suspended' });
  });
});

describe('widget messages and conversations', () => {
  it('POST messages creates the conversation when there is none; GET lists {payload, meta}', async () => {
    const s = await startWidget(svc, site());
    const token = s.website_channel_config.auth_token;
    const none = await widgetRequest(svc, site(), token, 'GET', 'messages');
    expect(none.body).toEqual({ payload: [] });
    expect((await widgetRequest(svc, site(), token, 'GET', 'conversations')).body).toEqual({});
    const sent = await widgetRequest(svc, site(), token, 'POST', 'messages', { message: { content: 'Hi from the widget', echo_id: 'e-1' } });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ id: expect.any(Number), content: 'Hi from the widget', inbox_id: svc.creds.widgetInboxId, conversation_id: expect.any(Number), message_type: 0, private: false, echo_id: 'e-1', sender: { type: 'contact', id: s.contact.id } });
    const conv = (await widgetRequest(svc, site(), token, 'GET', 'conversations')).body as { id: number; status: string };
    expect(conv).toEqual({ id: (sent.body as { conversation_id: number }).conversation_id, inbox_id: svc.creds.widgetInboxId, contact_last_seen_at: 0, status: 'open' });
    const list = await widgetRequest(svc, site(), token, 'GET', 'messages');
    expect(list.body).toEqual({ payload: [expect.objectContaining({ content: 'Hi from the widget', message_type: 0 })], meta: { contact_last_seen_at: null } });
  });
  it('filters private notes and activity messages, and pages with before/after', async () => {
    const s = await startWidget(svc, site());
    const token = s.website_channel_config.auth_token;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(((await widgetRequest(svc, site(), token, 'POST', 'messages', { message: { content: `w${i}` } })).body as { id: number }).id);
    const { createMessage } = await import('../../server/store/writes');
    const conv = svc.db.prepare('SELECT c.* FROM conversations c JOIN contact_inboxes ci ON ci.id = c.contact_inbox_id WHERE ci.contact_id = ?').get(s.contact.id) as Parameters<typeof createMessage>[1]['conversation'];
    createMessage({ db: svc.db, bus: svc.bus, now: svc.clock() }, { conversation: conv, messageType: 1, content: 'internal', private: true, sender: { type: 'User', id: 1 } });
    createMessage({ db: svc.db, bus: svc.bus, now: svc.clock() }, { conversation: conv, messageType: 2, content: 'activity', sender: null });
    const all = (await widgetRequest(svc, site(), token, 'GET', 'messages')).body as { payload: { id: number }[] };
    expect(all.payload.map((m) => m.id)).toEqual(ids);
    const after = (await widgetRequest(svc, site(), token, 'GET', 'messages', undefined, `&after=${ids[0]}`)).body as { payload: { id: number }[] };
    expect(after.payload.map((m) => m.id)).toEqual(ids.slice(1));
    const before = (await widgetRequest(svc, site(), token, 'GET', 'messages', undefined, `&before=${ids[2]}`)).body as { payload: { id: number }[] };
    expect(before.payload.map((m) => m.id)).toEqual(ids.slice(0, 2));
  });
  it('POST conversations starts one with a first message and the contact details', async () => {
    const s = await startWidget(svc, site());
    const token = s.website_channel_config.auth_token;
    const res = await widgetRequest(svc, site(), token, 'POST', 'conversations', { contact: { name: 'Vera Visitor', email: 'vera@visitor.example' }, message: { content: 'I need help' }, custom_attributes: { order: 'A-1' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: expect.any(Number), inbox_id: svc.creds.widgetInboxId, status: 'open', contact_last_seen_at: 0, messages: [expect.objectContaining({ content: 'I need help' })], custom_attributes: { order: 'A-1' }, contact: { id: s.contact.id, name: 'Vera Visitor', email: 'vera@visitor.example' } });
  });
  it('toggle_status resolves, update_last_seen records, toggle_typing answers 200; without a conversation they are 404', async () => {
    const s = await startWidget(svc, site());
    const token = s.website_channel_config.auth_token;
    expect((await widgetRequest(svc, site(), token, 'POST', 'conversations/update_last_seen')).status).toBe(404);
    await widgetRequest(svc, site(), token, 'POST', 'messages', { message: { content: 'hello' } });
    expect((await widgetRequest(svc, site(), token, 'POST', 'conversations/toggle_typing', { typing_status: 'on' })).status).toBe(200);
    expect((await widgetRequest(svc, site(), token, 'POST', 'conversations/toggle_typing', { typing_status: 'maybe' })).status).toBe(422);
    expect((await widgetRequest(svc, site(), token, 'POST', 'conversations/update_last_seen')).status).toBe(200);
    const seen = (await widgetRequest(svc, site(), token, 'GET', 'conversations')).body as { contact_last_seen_at: number };
    expect(seen.contact_last_seen_at).toBe(Math.floor(svc.clock() / 1000));
    expect((await widgetRequest(svc, site(), token, 'GET', 'conversations/toggle_status')).status).toBe(200);
    expect(((await widgetRequest(svc, site(), token, 'GET', 'conversations')).body as { status: string }).status).toBe('resolved');
  });
});

describe('the visitor contact', () => {
  it('GET contact summarises; PATCH/PUT on /contact and /contacts update it', async () => {
    const s = await startWidget(svc, site());
    const token = s.website_channel_config.auth_token;
    expect((await widgetRequest(svc, site(), token, 'GET', 'contact')).body).toEqual({ id: s.contact.id, has_email: false, has_name: true, has_phone_number: false, identifier: null });
    const patched = await widgetRequest(svc, site(), token, 'PATCH', 'contact', { email: 'w@visitor.example' });
    expect(patched.body).toEqual({ id: s.contact.id, has_email: true, has_name: true, has_phone_number: false });
    expect((await widgetRequest(svc, site(), token, 'PUT', 'contacts', { phone_number: '+14155550100' })).body).toMatchObject({ has_phone_number: true });
    expect((await widgetRequest(svc, site(), token, 'PATCH', 'contacts', { name: 'Named Visitor' })).status).toBe(200);
    expect((await widgetRequest(svc, site(), token, 'PUT', 'contact', { email: 'bad' })).status).toBe(422);
    const config = await startWidget(svc, site(), token);
    expect(config.contact).toMatchObject({ name: 'Named Visitor', email: 'w@visitor.example', phone_number: '+14155550100' });
  });
});

describe('set_user: identity verification in the widget', () => {
  const key = () => svc.creds.widgetHmacToken;
  const hash = async (identifier: string) => (await import('../support/public-api')).hmacHex(key(), identifier);

  it('a correct hash verifies the session; verified sessions see all conversations of the contact across contact inboxes', async () => {
    const identifier = `widget-user-${Date.now()}`;
    const browserA = await startWidget(svc, site());
    const browserB = await startWidget(svc, site());
    const a = browserA.website_channel_config.auth_token;
    const b = browserB.website_channel_config.auth_token;
    const setA = await widgetRequest(svc, site(), a, 'PATCH', 'contact/set_user', { identifier, identifier_hash: await hash(identifier), email: 'same@person.example' });
    expect(setA.status).toBe(200);
    expect(setA.body).toMatchObject({ identifier, has_email: true });
    const sentA = (await widgetRequest(svc, site(), a, 'POST', 'messages', { message: { content: 'from browser A' } })).body as { conversation_id: number };
    // Before B verifies it sees nothing of A's.
    expect((await widgetRequest(svc, site(), b, 'GET', 'conversations')).body).toEqual({});
    const setB = await widgetRequest(svc, site(), b, 'PATCH', 'contact/set_user', { identifier, identifier_hash: (await hash(identifier)).toUpperCase() });
    expect(setB.status).toBe(200);
    const seenByB = (await widgetRequest(svc, site(), b, 'GET', 'conversations')).body as { id: number };
    expect(seenByB.id).toBe(sentA.conversation_id);
    const msgs = (await widgetRequest(svc, site(), b, 'GET', 'messages')).body as { payload: { content: string }[] };
    expect(msgs.payload.map((m) => m.content)).toEqual(['from browser A']);
  });
  it('a wrong hash fails with 401 {error: HMAC failed…} and changes nothing', async () => {
    const s = await startWidget(svc, site());
    const token = s.website_channel_config.auth_token;
    const res = await widgetRequest(svc, site(), token, 'PATCH', 'contact/set_user', { identifier: 'victim', identifier_hash: 'abc', email: 'x@y.example' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'HMAC failed: Invalid Identifier Hash Provided' });
    expect((await widgetRequest(svc, site(), token, 'GET', 'contact')).body).toMatchObject({ identifier: null, has_email: false });
  });
  it('a mandatory-HMAC widget inbox fails set_user without a hash', async () => {
    const tenant = extraTenant(svc, { hmacMandatory: true });
    const s = await startWidget(svc, tenant.widget.websiteToken!);
    const res = await widgetRequest(svc, tenant.widget.websiteToken!, s.website_channel_config.auth_token, 'PATCH', 'contact/set_user', { identifier: 'someone' });
    expect(res.status).toBe(401);
  });
  it('an identified visitor set to a different identifier gets a new contact and a new widget_auth_token', async () => {
    const s = await startWidget(svc, site());
    const token = s.website_channel_config.auth_token;
    const first = `first-${Date.now()}`;
    await widgetRequest(svc, site(), token, 'PATCH', 'contact/set_user', { identifier: first, identifier_hash: await hash(first) });
    const second = `second-${Date.now()}`;
    const res = await widgetRequest(svc, site(), token, 'PATCH', 'contact/set_user', { identifier: second, identifier_hash: await hash(second) });
    expect(res.status).toBe(200);
    const body = res.body as { id: number; identifier: string; widget_auth_token: string };
    expect(body.identifier).toBe(second);
    expect(body.id).not.toBe(s.contact.id);
    const next = await startWidget(svc, site(), body.widget_auth_token);
    expect(next.contact.id).toBe(body.id);
  });
});

describe('GET /widget', () => {
  it('serves the widget page; without cw_conversation it boots a fresh session', async () => {
    const res = await svc.request({ url: `/widget?website_token=${site()}` });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.text).toContain('"token":null');
    expect(res.headers['content-security-policy']).toMatch(/script-src 'nonce-/);
  });
  it('with cw_conversation it continues that session (the token is embedded as JSON, not markup)', async () => {
    const s = await startWidget(svc, site());
    const res = await svc.request({ url: `/widget?website_token=${site()}&cw_conversation=${s.website_channel_config.auth_token}` });
    expect(res.text).toContain(JSON.stringify(s.website_channel_config.auth_token));
    const hostile = await svc.request({ url: `/widget?website_token=${site()}&cw_conversation=${encodeURIComponent('</script><script>alert(1)</script>')}` });
    expect(hostile.text).not.toContain('</script><script>alert(1)');
  });
  it('answers 404 for an unknown website_token', async () => {
    expect((await svc.request({ url: '/widget?website_token=nope' })).status).toBe(404);
  });
});
