// Idempotency-Key on a message create sent as multipart form data with `attachments[]` files (how
// Chatwoot's dashboard, and our app, send a message with files): the fingerprint covers every form
// field and every file (its field, name, declared type, bytes, and their order), so a repeat of the
// same form replays the first answer and creates nothing (no second message, no second upload),
// and anything else sent under the key is 422.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, agentConversation } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

interface Part {
  field: string;
  name: string;
  type: string;
  data: Buffer;
}

let n = 0;
const uniqueKey = () => `multipart-key-${++n}`;
const count = (table: string) => (svc.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

function form(fields: [string, string][], files: Part[]) {
  const boundary = `----multipart${n}`;
  const parts = [
    ...fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    ...files.flatMap((f) => [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`), f.data, Buffer.from('\r\n')]),
    Buffer.from(`--${boundary}--\r\n`),
  ];
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(40, 3)]);
const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const files = (): Part[] => [
  { field: 'attachments[]', name: 'screenshot.png', type: 'image/png', data: png },
  { field: 'attachments[]', name: 'invoice.pdf', type: 'application/pdf', data: pdf },
];
const fields = (content = 'Here you go'): [string, string][] => [
  ['content', content],
  ['private', 'false'],
  ['echo_id', 'echo-1'],
  ['content_attributes', JSON.stringify({ client_message_id: 'c-1' })],
];

function send(conversationId: number, key: string, body: { payload: Buffer; contentType: string }) {
  return svc.app.inject({
    method: 'POST',
    url: `${A}/conversations/${conversationId}/messages`,
    headers: { api_access_token: svc.creds.adminToken, 'idempotency-key': key, 'content-type': body.contentType },
    payload: body.payload,
  });
}

describe('Idempotency-Key on a multipart message create with files', () => {
  it('the same form again is the first answer, replayed: one message, one set of stored files', async () => {
    const id = agentConversation(svc);
    const key = uniqueKey();
    const [messages, uploads] = [count('messages'), count('uploads')];
    const first = await send(id, key, form(fields(), files()));
    expect(first.statusCode).toBe(200);
    const created = first.json() as { attachments: { file_type: string; data_url: string }[] };
    expect(created.attachments.map((a) => a.file_type)).toEqual(['image', 'file']);
    const again = await send(id, key, form(fields(), files()));
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect([count('messages'), count('uploads')]).toEqual([messages + 1, uploads + 2]);
  });

  it('two identical forms sent together create once', async () => {
    const id = agentConversation(svc);
    const key = uniqueKey();
    const before = count('messages');
    const [x, y] = await Promise.all([send(id, key, form(fields('together'), files())), send(id, key, form(fields('together'), files()))]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    expect(x.body).toBe(y.body);
    expect(count('messages')).toBe(before + 1);
  });

  it('anything else under the key is 422 and creates nothing: other bytes, name, declared type, order, caption, one file more, or JSON', async () => {
    const id = agentConversation(svc);
    const key = uniqueKey();
    expect((await send(id, key, form(fields(), files()))).statusCode).toBe(200);
    const [messages, uploads] = [count('messages'), count('uploads')];
    const [image, doc] = files() as [Part, Part];
    const variants: [string, { payload: Buffer; contentType: string }][] = [
      ['other bytes', form(fields(), [{ ...image, data: Buffer.concat([png, Buffer.from([1])]) }, doc])],
      ['another name', form(fields(), [{ ...image, name: 'other.png' }, doc])],
      ['another declared type', form(fields(), [{ ...image, type: 'image/webp' }, doc])],
      ['the files in another order', form(fields(), [doc, image])],
      ['another caption', form(fields('Here you are'), files())],
      ['one file more', form(fields(), [...files(), { ...doc, name: 'copy.pdf' }])],
      ['one file fewer', form(fields(), [image])],
    ];
    for (const [what, body] of variants) {
      const res = await send(id, key, body);
      expect(res.statusCode, what).toBe(422);
      expect(res.json(), what).toEqual({ message: 'Idempotency-Key has already been used for a different request', attributes: ['Idempotency-Key'] });
    }
    const json = await svc.request({ method: 'POST', url: `${A}/conversations/${id}/messages`, token: svc.creds.adminToken, payload: { content: 'Here you go' }, headers: { 'idempotency-key': key } });
    expect(json.status).toBe(422);
    expect([count('messages'), count('uploads')]).toEqual([messages, uploads]);
  });
});
