// POST A/upload (a file, or an external URL recorded as given) and messages that attach uploads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../server/routes/uploads';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, agentConversation, expectSpecErrorShape } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

function multipart(field: string, filename: string, type: string, data: Buffer) {
  const boundary = '----agentinboxtest';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = async (body: { payload: Buffer; headers: Record<string, string> }, token = svc.creds.agentToken, accountId = svc.creds.accountId) => {
  const res = await svc.app.inject({ method: 'POST', url: `/api/v1/accounts/${accountId}/upload`, headers: { ...body.headers, api_access_token: token }, payload: body.payload });
  return { status: res.statusCode, body: res.json() as Record<string, unknown>, headers: res.headers };
};
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('POST upload', () => {
  it('stores a multipart attachment and answers {file_url, blob_key, blob_id}; the file is served back', async () => {
    const res = await upload(multipart('attachment', 'screen shot.png', 'image/png', PNG));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ file_url: expect.stringMatching(/\/rails\/active_storage\/blobs\/[\w-]{43}\/screen%20shot\.png$/), blob_key: expect.stringMatching(/^[\w-]{43}$/), blob_id: expect.any(Number) });
    const served = await svc.app.inject({ url: new URL(res.body.file_url as string).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect(served.headers).toMatchObject({ 'content-type': 'image/png', 'x-content-type-options': 'nosniff' });
  });

  it('serves anything that could run in a page as a download, never inline', async () => {
    const res = await upload(multipart('attachment', 'x.html', 'text/html', Buffer.from('<script>alert(1)</script>')));
    const served = await svc.app.inject({ url: new URL(res.body.file_url as string).pathname });
    expect(served.headers['content-type']).toBe('application/octet-stream');
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    expect(served.headers['content-security-policy']).toContain('sandbox');
  });

  it('records an external_url as given (never fetched) and answers it as the file_url', async () => {
    const res = await svc.request({ method: 'POST', url: `${A}/upload`, token: svc.creds.agentToken, payload: { external_url: 'https://cdn.example/a/photo.jpg' } });
    expect(res.body).toEqual({ file_url: 'https://cdn.example/a/photo.jpg', blob_key: expect.any(String), blob_id: expect.any(Number) });
  });

  it('a message attaches uploads by blob key; another account\'s key is 422', async () => {
    const up = await upload(multipart('attachment', 'invoice.pdf', 'application/pdf', Buffer.from('%PDF-1.4')));
    const id = agentConversation(svc);
    const msg = await svc.request({ method: 'POST', url: `${A}/conversations/${id}/messages`, token: svc.creds.agentToken, payload: { attachments: [up.body.blob_key] } });
    expect(msg.status).toBe(200);
    expect((msg.body as { attachments: unknown[] }).attachments).toEqual([expect.objectContaining({ file_type: 'file', extension: 'pdf', data_url: up.body.file_url, file_size: 8 })]);
    const foreign = await upload(multipart('attachment', 'x.png', 'image/png', PNG), svc.creds.otherAccountAdminToken, svc.creds.otherAccountId);
    const denied = await svc.request({ method: 'POST', url: `${A}/conversations/${id}/messages`, token: svc.creds.agentToken, payload: { content: 'x', attachments: [foreign.body.blob_key] } });
    expect(denied.status).toBe(422);
  });

  it('rejects no file, a wrong field, a non-http URL (422), more than 40 MB (400: the spec has no 413), and unknown blobs (404)', async () => {
    for (const payload of [{}, { external_url: 'file:///etc/passwd' }, { external_url: 'javascript:alert(1)' }]) {
      const res = await svc.request({ method: 'POST', url: `${A}/upload`, token: svc.creds.agentToken, payload });
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expectSpecErrorShape(res.body);
    }
    const wrongField = await upload(multipart('file', 'a.png', 'image/png', PNG));
    expect(wrongField.status).toBe(422);
    const before = svc.db.prepare('SELECT COUNT(*) AS n FROM uploads').get();
    const huge = await upload(multipart('attachment', 'big.bin', 'application/octet-stream', Buffer.alloc(MAX_UPLOAD_BYTES + 1)));
    expect(huge.status).toBe(400);
    expect(huge.body).toEqual({ error: 'Attachment is too large' });
    expect(svc.db.prepare('SELECT COUNT(*) AS n FROM uploads').get()).toEqual(before);
    expect((await svc.app.inject({ url: '/rails/active_storage/blobs/nope/x.png' })).statusCode).toBe(404);
    expect((await svc.request({ method: 'POST', url: `${A}/upload`, payload: { external_url: 'https://a.example/x' } })).status).toBe(401);
  });
});
