// Contact avatars (spec: Client "Update a contact" `avatar` as form data or a URL; chatwoot-compat
// §1.4 Application contact create/update `avatar(file), avatar_url`, DELETE A/contacts/{id}/avatar,
// §2.7 `thumbnail` "avatar url or """ and webhook_data `avatar`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildService } from '../../server/app';
import { seedDemo } from '../../server/demo/seed';
import { MAX_AVATAR_BYTES } from '../../server/http/contact-form';
import { liveDelivery } from '../../server/live/payloads';
import { webhookBody } from '../../server/webhooks/payloads';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { clientPath, createClientContact, hmacHex } from '../support/public-api';
import { accountPath, expectSpecErrorShape, recordEvents } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(32, 7)]);
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(16, 1)]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(14)]);

type Part = { name: string; value: string } | { name: string; filename: string; type: string; data: Buffer };
const BOUNDARY = '----avatarboundary';
function form(parts: Part[]) {
  const chunks = parts.map((p) =>
    'data' in p
      ? Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`), p.data, Buffer.from('\r\n')])
      : Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`),
  );
  return { payload: Buffer.concat([...chunks, Buffer.from(`--${BOUNDARY}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}
const avatarPart = (data = PNG, type = 'image/png', filename = 'me.png'): Part => ({ name: 'avatar', filename, type, data });

async function send(method: string, url: string, body: { payload: Buffer; headers: Record<string, string> }, token?: string) {
  const res = await svc.app.inject({ method: method as 'PATCH', url, headers: { ...body.headers, ...(token ? { api_access_token: token } : {}) }, payload: body.payload });
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, body: json as Record<string, unknown> & { payload: Record<string, unknown> }, headers: res.headers };
}

const contactRow = (id: number) => svc.db.prepare('SELECT * FROM contacts WHERE id = ?').get(id) as { thumbnail: string | null; avatar_upload_id: number | null; avatar_external_url: string | null; name: string };
const uploadCount = () => (svc.db.prepare('SELECT COUNT(*) AS n FROM uploads').get() as { n: number }).n;

async function newContact(name = 'Avatar Person') {
  const res = await svc.request({ method: 'POST', url: `${A}/contacts`, token: svc.creds.agentToken, payload: { name, email: `${Math.random().toString(36).slice(2)}@avatar.example` } });
  expect(res.status).toBe(200);
  return (res.body as { payload: { contact: { id: number } } }).payload.contact.id;
}

async function fetchThumbnail(url: string) {
  const path = new URL(url).pathname;
  return svc.app.inject({ url: path });
}

describe('Application contact create and update with an avatar file', () => {
  it('create: form fields and an avatar; thumbnail is the served URL with the same bytes and an image type', async () => {
    const res = await send('POST', `${A}/contacts`, form([{ name: 'name', value: 'Pic Person' }, { name: 'email', value: 'pic@avatar.example' }, { name: 'custom_attributes[plan]', value: 'pro' }, avatarPart()]), svc.creds.agentToken);
    expect(res.status).toBe(200);
    const contact = (res.body.payload as { contact: { id: number; name: string; thumbnail: string; custom_attributes: unknown } }).contact;
    expect(contact).toMatchObject({ name: 'Pic Person', custom_attributes: { plan: 'pro' } });
    expect(contact.thumbnail).toMatch(/^http:\/\/[^/]+\/rails\/active_storage\/blobs\/[\w-]{43}\/avatar\.png$/);
    const served = await fetchThumbnail(contact.thumbnail);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect(served.rawPayload.equals(PNG)).toBe(true);
  });

  it('update (PATCH and PUT): each image kind is recognised by its bytes; the old picture stops serving; JSON attributes as a string', async () => {
    const id = await newContact();
    let previous = '';
    for (const [data, type] of [[JPEG, 'image/jpeg'], [GIF, 'image/gif'], [WEBP, 'image/webp']] as const) {
      // The declared type is ignored: the bytes decide.
      const res = await send(type === 'image/gif' ? 'PUT' : 'PATCH', `${A}/contacts/${id}`, form([{ name: 'additional_attributes', value: '{"city":"Lisbon"}' }, avatarPart(data, 'application/octet-stream', 'x.bin')]), svc.creds.agentToken);
      expect(res.status).toBe(200);
      const thumb = res.body.payload.thumbnail as string;
      expect(res.body.payload.additional_attributes).toMatchObject({ city: 'Lisbon' });
      const served = await fetchThumbnail(thumb);
      expect(served.headers['content-type']).toBe(type);
      expect(served.rawPayload.equals(data)).toBe(true);
      if (previous) expect((await fetchThumbnail(previous)).statusCode).toBe(404);
      previous = thumb;
    }
    const get = await svc.request({ url: `${A}/contacts/${id}`, token: svc.creds.agentToken });
    expect((get.body as { payload: { thumbnail: string } }).payload.thumbnail).toBe(previous);
  });

  it('JSON bodies work as before, and a contact without an avatar has thumbnail ""', async () => {
    const id = await newContact();
    const res = await svc.request({ method: 'PATCH', url: `${A}/contacts/${id}`, token: svc.creds.agentToken, payload: { name: 'Plain JSON', custom_attributes: { tier: 2 } } });
    expect(res.status).toBe(200);
    expect((res.body as { payload: Record<string, unknown> }).payload).toMatchObject({ name: 'Plain JSON', thumbnail: '', custom_attributes: { tier: 2 } });
  });
});

describe('rejected avatars store nothing', () => {
  it('a non-image (whatever its declared type), an oversized file, another file field: 422 {message, attributes}', async () => {
    const id = await newContact('Unchanged');
    const before = uploadCount();
    const cases: [Part[], string][] = [
      [[avatarPart(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png', 'x.png')], 'avatar'],
      [[avatarPart(Buffer.from('%PDF-1.4'), 'application/pdf', 'x.pdf')], 'avatar'],
      [[avatarPart(Buffer.alloc(0), 'image/png', 'empty.png')], 'avatar'],
      [[avatarPart(Buffer.concat([PNG, Buffer.alloc(MAX_AVATAR_BYTES)]))], 'avatar'],
      [[{ name: 'name', value: 'Changed' }, { name: 'picture', filename: 'p.png', type: 'image/png', data: PNG }], 'picture'],
    ];
    for (const [parts, attribute] of cases) {
      const res = await send('PATCH', `${A}/contacts/${id}`, form([{ name: 'name', value: 'Changed' }, ...parts]), svc.creds.agentToken);
      expect(res.status, attribute).toBe(422);
      expectSpecErrorShape(res.body, attribute);
      expect(res.body.attributes).toEqual([attribute]);
    }
    expect(uploadCount()).toBe(before);
    expect(contactRow(id)).toMatchObject({ name: 'Unchanged', thumbnail: null, avatar_upload_id: null });
  });

  it('malformed multipart is 400 {error}, never a 5xx', async () => {
    const id = await newContact();
    const before = uploadCount();
    const good = form([avatarPart()]);
    const bodies = [
      { payload: good.payload.subarray(0, good.payload.length - 30), headers: good.headers },
      { payload: Buffer.from('garbage without boundaries'), headers: good.headers },
      { payload: good.payload, headers: { 'content-type': 'multipart/form-data' } },
    ];
    for (const body of bodies) {
      for (const [method, url, token] of [['PATCH', `${A}/contacts/${id}`, svc.creds.agentToken], ['POST', `${A}/contacts`, svc.creds.agentToken]] as const) {
        const res = await send(method, url, body, token);
        expect(res.status, `${method} ${body.headers['content-type']}`).toBe(400);
        expectSpecErrorShape(res.body);
      }
    }
    expect(uploadCount()).toBe(before);
  });

  it('avatar_url: only http(s), else 422 naming avatar_url; recorded, never fetched, never the thumbnail', async () => {
    const id = await newContact();
    const bad = await svc.request({ method: 'PATCH', url: `${A}/contacts/${id}`, token: svc.creds.agentToken, payload: { avatar_url: 'file:///etc/passwd' } });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ attributes: ['avatar_url'] });
    const ok = await svc.request({ method: 'PATCH', url: `${A}/contacts/${id}`, token: svc.creds.agentToken, payload: { avatar_url: 'https://cdn.example/me.png' } });
    expect(ok.status).toBe(200);
    expect((ok.body as { payload: { thumbnail: string } }).payload.thumbnail).toBe('');
    expect(contactRow(id).avatar_external_url).toBe('https://cdn.example/me.png');
    // A string `avatar` in JSON is still accepted and ignored, as before; '' clears the URL.
    const legacy = await svc.request({ method: 'PATCH', url: `${A}/contacts/${id}`, token: svc.creds.agentToken, payload: { avatar: 'whatever', avatar_url: '' } });
    expect(legacy.status).toBe(200);
    expect(contactRow(id).avatar_external_url).toBeNull();
    const c = await createClientContact(svc, svc.creds.apiInboxIdentifier, {});
    const client = await svc.request({ method: 'PATCH', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}`), payload: { avatar_url: 'javascript:alert(1)' } });
    expect(client.status).toBe(422);
    expect(client.body).toMatchObject({ attributes: ['avatar_url'] });
  });
});

describe('Client PATCH contact with an avatar (form data)', () => {
  it('stores the avatar; agents see it as the thumbnail', async () => {
    const c = await createClientContact(svc, svc.creds.apiInboxIdentifier, { name: 'Client Pic' });
    const res = await send('PATCH', clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}`), form([{ name: 'name', value: 'Client Pic 2' }, avatarPart(JPEG, 'image/jpeg', 'me.jpg')]));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, name: 'Client Pic 2' });
    const thumb = contactRow(c.id).thumbnail!;
    const served = await fetchThumbnail(thumb);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.rawPayload.equals(JPEG)).toBe(true);
    const agentView = await svc.request({ url: `${A}/contacts/${c.id}`, token: svc.creds.agentToken });
    expect((agentView.body as { payload: { thumbnail: string } }).payload.thumbnail).toBe(thumb);
  });

  it('the HMAC check still applies to a multipart body: a wrong hash is the 500 HMAC failure and nothing is stored', async () => {
    const c = await createClientContact(svc, svc.creds.apiInboxIdentifier, { name: 'Hashed' });
    const url = clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}`);
    const before = uploadCount();
    const wrong = await send('PATCH', url, form([{ name: 'identifier', value: 'user-7' }, { name: 'identifier_hash', value: 'f'.repeat(64) }, avatarPart()]));
    expect(wrong.status).toBe(500);
    expect(wrong.body).toEqual({ error: 'HMAC failed: Invalid Identifier Hash Provided' });
    expect(uploadCount()).toBe(before);
    expect(contactRow(c.id).thumbnail).toBeNull();
    const right = await send('PATCH', url, form([{ name: 'identifier', value: 'user-7' }, { name: 'identifier_hash', value: hmacHex(svc.creds.apiInboxHmacToken, 'user-7') }, avatarPart()]));
    expect(right.status).toBe(200);
    expect(contactRow(c.id).thumbnail).toMatch(/avatar\.png$/);
  });

  it('a non-image is 422 naming avatar; malformed multipart is 400', async () => {
    const c = await createClientContact(svc, svc.creds.apiInboxIdentifier, {});
    const url = clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}`);
    const bad = await send('PUT', url, form([avatarPart(Buffer.from('<html>'), 'image/png')]));
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ message: expect.any(String), attributes: ['avatar'] });
    const good = form([avatarPart()]);
    const torn = await send('PATCH', url, { payload: good.payload.subarray(0, 60), headers: good.headers });
    expect(torn.status).toBe(400);
    expectSpecErrorShape(torn.body);
  });
});

describe('DELETE A/contacts/{id}/avatar', () => {
  it('removes the picture, answers {payload: contact} without contact_inboxes; the URL stops serving', async () => {
    const id = await newContact();
    const up = await send('PATCH', `${A}/contacts/${id}`, form([avatarPart()]), svc.creds.agentToken);
    const thumb = up.body.payload.thumbnail as string;
    const res = await svc.request({ method: 'DELETE', url: `${A}/contacts/${id}/avatar`, token: svc.creds.agentToken });
    expect(res.status).toBe(200);
    const payload = (res.body as { payload: Record<string, unknown> }).payload;
    expect(payload).toMatchObject({ id, thumbnail: '' });
    expect(payload).not.toHaveProperty('contact_inboxes');
    expect((await fetchThumbnail(thumb)).statusCode).toBe(404);
    expect(contactRow(id)).toMatchObject({ thumbnail: null, avatar_upload_id: null });
  });

  it('another account\'s contact is 404; a malformed id is 400; no token is 401', async () => {
    const id = await newContact();
    const other = await svc.request({ method: 'DELETE', url: `${accountPath(svc, svc.creds.otherAccountId)}/contacts/${id}/avatar`, token: svc.creds.otherAccountAdminToken });
    expect(other.status).toBe(404);
    const foreignPatch = await send('PATCH', `${accountPath(svc, svc.creds.otherAccountId)}/contacts/${id}`, form([avatarPart()]), svc.creds.otherAccountAdminToken);
    expect(foreignPatch.status).toBe(404);
    const malformed = await svc.request({ method: 'DELETE', url: `${A}/contacts/abc/avatar`, token: svc.creds.agentToken });
    expect(malformed.status).toBe(400);
    const anonymous = await svc.request({ method: 'DELETE', url: `${A}/contacts/${id}/avatar` });
    expect(anonymous.status).toBe(401);
  });
});

describe('contact.updated on avatar changes', () => {
  it('setting and removing the avatar emit contact.updated with the thumbnail change; live and webhook data carry it', async () => {
    const id = await newContact();
    const rec = recordEvents(svc);
    const up = await send('PATCH', `${A}/contacts/${id}`, form([{ name: 'name', value: 'Both Changed' }, avatarPart()]), svc.creds.agentToken);
    const thumb = up.body.payload.thumbnail as string;
    expect(rec.names()).toEqual(['contact.updated']);
    const event = rec.events[0]!;
    expect(event).toMatchObject({ contactId: id, changes: { name: [expect.any(String), 'Both Changed'], thumbnail: ['', thumb] } });
    expect(liveDelivery(svc.db, event)?.data).toMatchObject({ id, thumbnail: thumb });
    expect(webhookBody(svc.db, event, 'contact_updated')).toMatchObject({ id, avatar: thumb, thumbnail: thumb, changed_attributes: expect.anything() });
    rec.clear();
    await svc.request({ method: 'DELETE', url: `${A}/contacts/${id}/avatar`, token: svc.creds.agentToken });
    expect(rec.events).toMatchObject([{ name: 'contact.updated', contactId: id, changes: { thumbnail: [thumb, ''] } }]);
    rec.clear();
    // Nothing to remove: no event.
    await svc.request({ method: 'DELETE', url: `${A}/contacts/${id}/avatar`, token: svc.creds.agentToken });
    expect(rec.events).toEqual([]);
    rec.off();
  });
});

describe('restart', () => {
  it('the avatar survives a restart of a file database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avatars-'));
    const file = join(dir, 'service.db');
    try {
      const first = await buildService({ db: file });
      const creds = seedDemo(first.db, Date.now());
      const created = await first.app.inject({
        method: 'POST',
        url: `/api/v1/accounts/${creds.accountId}/contacts`,
        headers: { ...form([]).headers, api_access_token: creds.agentToken },
        payload: form([{ name: 'name', value: 'Persistent' }, avatarPart(GIF, 'image/gif', 'a.gif')]).payload,
      });
      const thumb = (created.json() as { payload: { contact: { thumbnail: string } } }).payload.contact.thumbnail;
      await first.close();
      const second = await buildService({ db: file });
      try {
        const served = await second.app.inject({ url: new URL(thumb).pathname });
        expect(served.statusCode).toBe(200);
        expect(served.rawPayload.equals(GIF)).toBe(true);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the avatar link of a contact\'s own upload', () => {
  it('takes the configured public address, never the Host header the anonymous caller sent', async () => {
    const own = await demoService({ publicUrl: () => 'https://inbox.example/support' });
    try {
      const c = await createClientContact(own, own.creds.apiInboxIdentifier, { name: 'Host Forger' });
      const body = form([avatarPart()]);
      const res = await own.app.inject({ method: 'PATCH', url: clientPath(own.creds.apiInboxIdentifier, `/contacts/${c.source_id}`), headers: { ...body.headers, host: 'attacker.example' }, payload: body.payload });
      expect(res.statusCode).toBe(200);
      const thumb = (own.db.prepare('SELECT thumbnail FROM contacts WHERE id = ?').get(c.id) as { thumbnail: string }).thumbnail;
      expect(thumb.startsWith('https://inbox.example/support/')).toBe(true);
      expect(thumb).not.toContain('attacker.example');
    } finally {
      await own.close();
    }
  });
});
