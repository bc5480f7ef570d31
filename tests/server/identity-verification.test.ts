// Identity verification (spec: Authentication → Client family → Identity verification, rules 1–7)
// and the States-and-transitions row it drives (hmac_verified widens the conversation list).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { clientPath, createClientContact, hmacHex } from '../support/public-api';

let svc: DemoService;
beforeAll(async () => {
  svc = await demoService();
});
afterAll(() => svc.close());

const HMAC_BODY = { error: 'HMAC failed: Invalid Identifier Hash Provided' };
const api = () => svc.creds.apiInboxIdentifier;
const strict = () => svc.creds.hmacMandatoryInboxIdentifier;
const strictKey = () => (svc.db.prepare('SELECT hmac_token FROM inboxes WHERE identifier = ?').get(strict()) as { hmac_token: string }).hmac_token;
const verifiedFlag = (sourceId: string) => (svc.db.prepare('SELECT hmac_verified FROM contact_inboxes WHERE source_id = ?').get(sourceId) as { hmac_verified: number }).hmac_verified;
let n = 0;
const uniqueId = () => `user-${Date.now()}-${++n}`;

describe('rule 1: the hash is HMAC-SHA256 hex of `identifier`, keyed by the inbox hmac_token', () => {
  it('accepts the lowercase hex digest', async () => {
    const identifier = uniqueId();
    const res = await svc.request({ method: 'POST', url: clientPath(api(), '/contacts'), payload: { identifier, identifier_hash: hmacHex(svc.creds.apiInboxHmacToken, identifier) } });
    expect(res.status).toBe(200);
  });
  it('accepts the plain (uppercase) hex digest', async () => {
    const identifier = uniqueId();
    const res = await svc.request({ method: 'POST', url: clientPath(api(), '/contacts'), payload: { identifier, identifier_hash: hmacHex(svc.creds.apiInboxHmacToken, identifier).toUpperCase() } });
    expect(res.status).toBe(200);
  });
  it('is over the identifier, not the source_id', async () => {
    const sourceId = `src-${uniqueId()}`;
    const res = await svc.request({ method: 'POST', url: clientPath(api(), '/contacts'), payload: { source_id: sourceId, identifier: uniqueId(), identifier_hash: hmacHex(svc.creds.apiInboxHmacToken, sourceId) } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual(HMAC_BODY);
  });
  it('is keyed by this inbox hmac_token, not another inbox token', async () => {
    const identifier = uniqueId();
    const res = await svc.request({ method: 'POST', url: clientPath(api(), '/contacts'), payload: { identifier, identifier_hash: hmacHex(svc.creds.widgetHmacToken, identifier) } });
    expect(res.status).toBe(500);
  });
});

describe('rule 3: enforced only on POST contacts, GET contact and PATCH contact', () => {
  it('checks GET and PATCH contact', async () => {
    const c = await createClientContact(svc, api());
    const get = await svc.request({ url: clientPath(api(), `/contacts/${c.source_id}?identifier=x&identifier_hash=${'0'.repeat(64)}`) });
    expect(get.status).toBe(500);
    expect(get.body).toEqual(HMAC_BODY);
    const patch = await svc.request({ method: 'PATCH', url: clientPath(api(), `/contacts/${c.source_id}`), payload: { identifier: 'x', identifier_hash: 'wrong', name: 'Nope' } });
    expect(patch.status).toBe(500);
    const after = await svc.request({ url: clientPath(api(), `/contacts/${c.source_id}`) });
    expect((after.body as { name: string }).name).toBe(c.name); // the failed PATCH changed nothing
  });
  it('does not check the conversation and message endpoints, even with a wrong hash', async () => {
    const c = await createClientContact(svc, api());
    const wrong = `?identifier=x&identifier_hash=${'f'.repeat(64)}`;
    const conv = await svc.request({ method: 'POST', url: clientPath(api(), `/contacts/${c.source_id}/conversations`), payload: { identifier: 'x', identifier_hash: 'bad' } });
    expect(conv.status).toBe(200);
    const id = (conv.body as { id: number }).id;
    expect((await svc.request({ url: clientPath(api(), `/contacts/${c.source_id}/conversations${wrong}`) })).status).toBe(200);
    expect((await svc.request({ url: clientPath(api(), `/contacts/${c.source_id}/conversations/${id}/messages${wrong}`) })).status).toBe(200);
    const msg = await svc.request({ method: 'POST', url: clientPath(api(), `/contacts/${c.source_id}/conversations/${id}/messages`), payload: { content: 'hi', identifier_hash: 'bad' } });
    expect(msg.status).toBe(200);
  });
  it('on a mandatory inbox, the conversation endpoints still work without a hash', async () => {
    const identifier = uniqueId();
    const c = await createClientContact(svc, strict(), { identifier, identifier_hash: hmacHex(strictKey(), identifier) });
    const conv = await svc.request({ method: 'POST', url: clientPath(strict(), `/contacts/${c.source_id}/conversations`), payload: {} });
    expect(conv.status).toBe(200);
  });
});

describe('rule 4: inbox without mandatory HMAC', () => {
  it('accepts a request that omits identifier_hash', async () => {
    const res = await svc.request({ method: 'POST', url: clientPath(api(), '/contacts'), payload: { identifier: uniqueId(), name: 'No Hash' } });
    expect(res.status).toBe(200);
  });
  it('fails a request that sends a wrong hash', async () => {
    const res = await svc.request({ method: 'POST', url: clientPath(api(), '/contacts'), payload: { identifier: uniqueId(), identifier_hash: 'deadbeef' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual(HMAC_BODY);
  });
});

describe('rule 5: inbox with mandatory HMAC', () => {
  it('fails POST contacts, GET contact and PATCH contact without a hash', async () => {
    const create = await svc.request({ method: 'POST', url: clientPath(strict(), '/contacts'), payload: { identifier: uniqueId() } });
    expect(create.status).toBe(500);
    expect(create.body).toEqual(HMAC_BODY);
    const identifier = uniqueId();
    const c = await createClientContact(svc, strict(), { identifier, identifier_hash: hmacHex(strictKey(), identifier) });
    expect((await svc.request({ url: clientPath(strict(), `/contacts/${c.source_id}`) })).status).toBe(500);
    expect((await svc.request({ method: 'PATCH', url: clientPath(strict(), `/contacts/${c.source_id}`), payload: { name: 'x' } })).status).toBe(500);
    const ok = await svc.request({ url: clientPath(strict(), `/contacts/${c.source_id}?identifier=${identifier}&identifier_hash=${hmacHex(strictKey(), identifier)}`) });
    expect(ok.status).toBe(200);
  });
});

describe('rule 6: failures are HTTP 500 with the HMAC message, deterministically', () => {
  it('answers the same 500 on every retry, and creates nothing', async () => {
    const before = (svc.db.prepare('SELECT COUNT(*) AS n FROM contact_inboxes').get() as { n: number }).n;
    const payload = { identifier: 'someone', identifier_hash: hmacHex('not-the-key', 'someone') };
    for (let i = 0; i < 3; i++) {
      const res = await svc.request({ method: 'POST', url: clientPath(api(), '/contacts'), payload });
      expect(res.status).toBe(500);
      expect(res.body).toEqual(HMAC_BODY);
    }
    expect((svc.db.prepare('SELECT COUNT(*) AS n FROM contact_inboxes').get() as { n: number }).n).toBe(before);
  });
});

describe('rule 7 and States: a correct hash marks the contact inbox hmac_verified', () => {
  it('marks it on create, on read and on update', async () => {
    const identifier = uniqueId();
    const hash = hmacHex(svc.creds.apiInboxHmacToken, identifier);
    const created = await createClientContact(svc, api(), { identifier, identifier_hash: hash });
    expect(verifiedFlag(created.source_id)).toBe(1);
    const plain = await createClientContact(svc, api());
    expect(verifiedFlag(plain.source_id)).toBe(0);
    await svc.request({ url: clientPath(api(), `/contacts/${plain.source_id}?identifier=${identifier}&identifier_hash=${hash}`) });
    expect(verifiedFlag(plain.source_id)).toBe(1);
    const third = await createClientContact(svc, api());
    await svc.request({ method: 'PATCH', url: clientPath(api(), `/contacts/${third.source_id}`), payload: { identifier, identifier_hash: hash } });
    expect(verifiedFlag(third.source_id)).toBe(1);
  });
  it('unverified lists only its own contact inbox; verified lists every conversation of the contact', async () => {
    const identifier = uniqueId();
    const hash = hmacHex(svc.creds.apiInboxHmacToken, identifier);
    // Two verified sessions of the same identified person resolve to one contact.
    const phone = await createClientContact(svc, api(), { identifier, identifier_hash: hash });
    const laptop = await createClientContact(svc, api(), { identifier, identifier_hash: hash });
    expect(laptop.id).toBe(phone.id);
    expect(laptop.source_id).not.toBe(phone.source_id);
    const convPhone = (await svc.request({ method: 'POST', url: clientPath(api(), `/contacts/${phone.source_id}/conversations`), payload: {} })).body as { id: number };
    const convLaptop = (await svc.request({ method: 'POST', url: clientPath(api(), `/contacts/${laptop.source_id}/conversations`), payload: {} })).body as { id: number };
    const list = (await svc.request({ url: clientPath(api(), `/contacts/${phone.source_id}/conversations`) })).body as { id: number }[];
    expect(list.map((c) => c.id).sort()).toEqual([convPhone.id, convLaptop.id].sort());
    const show = await svc.request({ url: clientPath(api(), `/contacts/${phone.source_id}/conversations/${convLaptop.id}`) });
    expect(show.status).toBe(200);
  });
  it('an unverified caller naming an existing identifier gets its own new contact (no takeover)', async () => {
    const identifier = uniqueId();
    const owner = await createClientContact(svc, api(), { identifier, identifier_hash: hmacHex(svc.creds.apiInboxHmacToken, identifier) });
    const ownerConv = (await svc.request({ method: 'POST', url: clientPath(api(), `/contacts/${owner.source_id}/conversations`), payload: {} })).body as { id: number };
    const intruder = await createClientContact(svc, api(), { identifier });
    expect(intruder.id).not.toBe(owner.id);
    const list = (await svc.request({ url: clientPath(api(), `/contacts/${intruder.source_id}/conversations`) })).body as { id: number }[];
    expect(list.map((c) => c.id)).not.toContain(ownerConv.id);
  });
});
