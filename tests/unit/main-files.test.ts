// Files through main against the real service (in process): a message with files goes as one
// multipart `messages.create` (`attachments[]`, as Chatwoot's dashboard sends it), with progress told
// as it goes; its attachments then come back through `files.attachment` as checked bytes; the page
// names only ids, and an attachment whose address is elsewhere (the demo's seeded ones) is refused
// without any request to that address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formBytes } from '../../main/core/api/multipart';
import { attachmentFileSchema } from '../../shared/bridge/calls/files';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { htmlPage, pdfDocument, pngImage } from '../support/sample-files';
import { signedInCore } from '../support/signed-in-core';

let svc: DemoService;
beforeAll(async () => {
  svc = await demoService();
});
afterAll(() => svc.close());

const b64 = (b: Buffer) => b.toString('base64');
const firstConversation = async (core: Awaited<ReturnType<typeof signedInCore>>['core']) => {
  const list = await core.call('conversations.list', { status: 'all' });
  return (list.ok ? (list.value as { data: { payload: { id: number }[] } }).data.payload[0]!.id : 0) as number;
};

describe('a message with files, sent and read back through main', () => {
  it('sends caption and files as one multipart create, tells progress, and hands the checked bytes back', async () => {
    const { core, requests } = await signedInCore(svc);
    const events: { name: string; payload: { sent: number; total: number } }[] = [];
    core.onEvent((name, payload) => events.push({ name, payload: payload as { sent: number; total: number } }));
    const conversationId = await firstConversation(core);
    const png = pngImage();
    const pdf = pdfDocument();
    const before = requests.length;
    const sent = await core.call('messages.create', {
      conversationId,
      content: 'Here you go',
      private: false,
      clientId: '0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b',
      attachments: [
        { name: 'screen.png', type: 'image/png', data: b64(png) },
        { name: 'invoice.pdf', type: 'application/pdf', data: b64(pdf) },
      ],
    });
    expect(sent.ok).toBe(true);
    const created = sent.ok ? (sent.value as { id: number; content: string; attachments: { id: number; data_url: string }[] }) : undefined;
    expect(created!.content).toBe('Here you go');
    expect(created!.attachments).toHaveLength(2);
    // One request, multipart, with the key that makes a repeat harmless.
    const made = requests.slice(before);
    expect(made).toHaveLength(1);
    expect(made[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(made[0]!.headers['idempotency-key']).toBe('0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b');
    const progress = events.filter((e) => e.name === 'messages.uploadProgress').map((e) => e.payload);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)!.sent).toBe(progress.at(-1)!.total);

    const [image, doc] = created!.attachments;
    const gotImage = await core.call('files.attachment', { conversationId, messageId: created!.id, attachmentId: image!.id });
    expect(gotImage).toMatchObject({ ok: true, value: { status: 'ok', kind: 'image', mime: 'image/png', size: png.length } });
    expect(attachmentFileSchema.parse((gotImage as { value: unknown }).value)).toMatchObject({ data: b64(png) });
    const gotPdf = await core.call('files.attachment', { conversationId, messageId: created!.id, attachmentId: doc!.id });
    expect(gotPdf).toMatchObject({ ok: true, value: { status: 'ok', kind: 'pdf', mime: 'application/pdf', data: b64(pdf) } });
    // The request for the bytes carried no token.
    const fileRequests = requests.filter((r) => r.url.includes('/rails/active_storage/blobs/'));
    expect(fileRequests.length).toBeGreaterThan(0);
    for (const r of fileRequests) expect(r.headers).not.toHaveProperty('api_access_token');
  });

  it('hands HTML sent as an image over as a file to save, never as an image', async () => {
    const { core } = await signedInCore(svc);
    const conversationId = await firstConversation(core);
    const sent = await core.call('messages.create', {
      conversationId, content: '', private: false, clientId: '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
      attachments: [{ name: 'cute.png', type: 'image/png', data: b64(htmlPage) }],
    });
    const created = sent.ok ? (sent.value as { id: number; attachments: { id: number }[] }) : undefined;
    const got = await core.call('files.attachment', { conversationId, messageId: created!.id, attachmentId: created!.attachments[0]!.id });
    expect(got).toMatchObject({ ok: true, value: { status: 'ok', kind: 'file', mime: 'application/octet-stream' } });
  });

  it('refuses an attachment stored at another address (the demo\'s seeded ones) without requesting it', async () => {
    const { core, requests } = await signedInCore(svc);
    const row = svc.db.prepare(`SELECT a.id AS attachmentId, m.id AS messageId, c.display_id AS conversationId FROM attachments a JOIN messages m ON m.id = a.message_id
      JOIN conversations c ON c.id = m.conversation_id WHERE a.account_id = ? AND a.data_url LIKE 'https://files.acme.example/%' LIMIT 1`).get(svc.creds.accountId) as { attachmentId: number; messageId: number; conversationId: number };
    const got = await core.call('files.attachment', row);
    expect(got).toEqual({ ok: true, value: { status: 'refused', reason: 'other_host' } });
    expect(requests.filter((r) => r.url.includes('files.acme.example'))).toEqual([]);
    // An id the message does not have: nothing to fetch.
    expect(await core.call('files.attachment', { ...row, attachmentId: 999_999 })).toEqual({ ok: true, value: { status: 'refused', reason: 'no_file' } });
  });

  it('refuses a blank message without files, and more files than one message may carry', async () => {
    const { core } = await signedInCore(svc);
    const conversationId = await firstConversation(core);
    const base = { conversationId, private: false, clientId: '2a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d' };
    expect(await core.call('messages.create', { ...base, content: '  ' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    const many = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, type: 'text/plain', data: b64(Buffer.from('x')) }));
    expect(await core.call('messages.create', { ...base, content: '', attachments: many })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
  });
});

describe('a contact\'s picture through main', () => {
  it('fetches the thumbnail the service serves (an image by its bytes); a contact without one has none', async () => {
    const { core, requests } = await signedInCore(svc);
    const png = pngImage(32, 32);
    const payload = Buffer.from(formBytes({ fields: [['name', 'Pic Person']], files: [{ field: 'avatar', name: 'me.png', type: 'image/png', data: png }] }, 'B0UNDARY'));
    const made = await svc.app.inject({
      method: 'POST',
      url: `/api/v1/accounts/${svc.creds.accountId}/contacts`,
      // The Host names the address the app signed in to: the thumbnail is built from it.
      headers: { host: 'service.test', api_access_token: svc.creds.agentToken, 'content-type': 'multipart/form-data; boundary=B0UNDARY' },
      payload,
    });
    expect(made.statusCode).toBe(200);
    const contactId = (JSON.parse(made.body) as { payload: { contact: { id: number } } }).payload.contact.id;
    const got = await core.call('files.avatar', { contactId });
    expect(got).toMatchObject({ ok: true, value: { status: 'ok', kind: 'image', mime: 'image/png', data: b64(png) } });
    expect(requests.filter((r) => r.url.includes('/rails/active_storage/blobs/')).every((r) => !('api_access_token' in r.headers))).toBe(true);

    const plain = await svc.request({ method: 'POST', url: `/api/v1/accounts/${svc.creds.accountId}/contacts`, token: svc.creds.agentToken, payload: { name: 'No Picture' } });
    const plainId = (plain.body as { payload: { contact: { id: number } } }).payload.contact.id;
    expect(await core.call('files.avatar', { contactId: plainId })).toEqual({ ok: true, value: { status: 'refused', reason: 'no_file' } });
  });
});

describe('the multipart body main builds', () => {
  it('writes parts as browsers do; a name cannot close its quotes or start a header of its own', () => {
    const body = Buffer.from(
      formBytes({ fields: [['content', 'line one\nline "two"']], files: [{ field: 'attachments[]', name: 'evil".png\r\nContent-Type: text/html', type: 'image/png', data: new Uint8Array([1, 2]) }] }, 'BOUNDARY'),
    ).toString('latin1');
    expect(body).toBe(
      '--BOUNDARY\r\nContent-Disposition: form-data; name="content"\r\n\r\nline one\r\nline "two"\r\n' +
        '--BOUNDARY\r\nContent-Disposition: form-data; name="attachments[]"; filename="evil%22.png%0D%0AContent-Type: text/html"\r\nContent-Type: image/png\r\n\r\n\x01\x02\r\n' +
        '--BOUNDARY--\r\n',
    );
  });
});
