// Sending and deleting messages (spec: Application endpoints, Retries; chatwoot-compat §1.2, §2.4, §2.5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, ADMIN_EMAIL, agentConversation, conversationRow, expectSpecErrorShape, pickConversation, recordEvents, userIdOf } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

type Message = { id: number; content: string; message_type: number; private: boolean; echo_id?: string; conversation_id: number; content_attributes: Record<string, unknown>; sender?: { id: number; type: string }; attachments?: { file_type: string; data_url: string; extension: string | null; file_size: number }[] };
const send = (id: number, payload: unknown, token = svc.creds.adminToken) => svc.request({ method: 'POST', url: `${A}/conversations/${id}/messages`, token, payload });
const countMessages = (id: number) => (svc.db.prepare('SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?').get(conversationRow(svc, id).id) as { n: number }).n;

describe('POST conversations/{id}/messages', () => {
  it('sends an outgoing reply: the REST message shape with echo_id, sender, and the conversation no longer waiting', async () => {
    const id = agentConversation(svc, 'c.waiting_since IS NOT NULL');
    const rec = recordEvents(svc);
    const res = await send(id, { content: 'We are on it.', echo_id: 'tmp-1' }, svc.creds.agentToken);
    expect(res.status).toBe(200);
    const m = res.body as Message;
    expect(m).toMatchObject({ content: 'We are on it.', echo_id: 'tmp-1', conversation_id: id, message_type: 1, content_type: 'text', status: 'sent', private: false, sender: { type: 'user' } });
    expect(m).not.toHaveProperty('attachments');
    expect(conversationRow(svc, id).waiting_since).toBeNull();
    expect(rec.names()).toContain('message.created');
    expect((rec.events.find((e) => e.name === 'message.created') as { messageId: number }).messageId).toBe(m.id);
    rec.off();
  });

  it('a private note is private and does not count as a reply', async () => {
    const id = agentConversation(svc, 'c.waiting_since IS NOT NULL');
    const res = await send(id, { content: 'internal: check billing', private: true });
    expect(res.body).toMatchObject({ private: true, message_type: 1 });
    expect(conversationRow(svc, id).waiting_since).not.toBeNull();
  });

  it('incoming is allowed only in API inboxes, and is sent as the contact', async () => {
    const api = pickConversation(svc, "i.channel_type = 'Channel::Api'");
    const res = await send(api, { content: 'from the contact', message_type: 'incoming' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message_type: 0, sender: { type: 'contact', id: conversationRow(svc, api).contact_id } });
    const widget = pickConversation(svc, "i.channel_type = 'Channel::WebWidget'");
    const denied = await send(widget, { content: 'x', message_type: 'incoming' });
    expect(denied.status).toBe(422);
    expect(denied.body).toEqual({ message: expect.any(String), attributes: ['message_type'] });
  });

  it('stores attachments metadata, deriving the file type from the MIME type', async () => {
    const id = agentConversation(svc);
    const res = await send(id, {
      content: 'see attached',
      attachments: [
        { content_type: 'image/png', file_name: 'shot.PNG', file_size: 1234, data_url: 'https://files.example/shot.png', width: 10, height: 20 },
        { content_type: 'application/pdf', file_name: 'invoice.pdf', data_url: 'https://files.example/invoice.pdf' },
      ],
    });
    expect(res.status).toBe(200);
    expect((res.body as Message).attachments).toEqual([
      expect.objectContaining({ file_type: 'image', extension: 'png', file_size: 1234, data_url: 'https://files.example/shot.png', width: 10, height: 20 }),
      expect.objectContaining({ file_type: 'file', extension: 'pdf', data_url: 'https://files.example/invoice.pdf', thumb_url: '' }),
    ]);
    // An attachment alone is a message.
    expect((await send(id, { attachments: [{ content_type: 'audio/ogg', data_url: 'https://files.example/a.ogg' }] })).status).toBe(200);
  });

  it('rejects bad input with 422 and sends nothing: blank content, too long, >15 attachments, non-http URLs, unknown types', async () => {
    const id = agentConversation(svc);
    const before = countMessages(id);
    const cases: [unknown, string][] = [
      [{}, 'content'],
      [{ content: '   ' }, 'content'],
      [{ content: 'x'.repeat(150_001) }, 'content'],
      [{ content: 'x', attachments: Array.from({ length: 16 }, () => ({ data_url: 'https://e.example/f' })) }, 'attachments'],
      [{ content: 'x', attachments: [{ data_url: 'javascript:alert(1)' }] }, 'attachments'],
      [{ content: 'x', attachments: ['no-such-upload'] }, 'attachments'],
      [{ content: 'x', content_type: 'hologram' }, 'content_type'],
      [{ content: 'x', message_type: 'broadcast' }, 'message_type'],
      [{ content: 'x', content_attributes: 'not json' }, 'content_attributes'],
      [{ content: 'x', private: 'perhaps' }, 'private'],
      [{ content: 42 }, 'content'],
    ];
    for (const [payload, attribute] of cases) {
      const res = await send(id, payload);
      expect(res.status, JSON.stringify(payload).slice(0, 80)).toBe(422);
      expect(res.body).toEqual({ message: expect.any(String), attributes: [attribute] });
    }
    expect(countMessages(id)).toBe(before);
  });

  it('a retried send is a second message (no deduplication)', async () => {
    const id = agentConversation(svc);
    const before = countMessages(id);
    const a = (await send(id, { content: 'same', echo_id: 'e' })).body as Message;
    const b = (await send(id, { content: 'same', echo_id: 'e' })).body as Message;
    expect(b.id).not.toBe(a.id);
    expect(countMessages(id)).toBe(before + 2);
  });

  it('echo_id is not stored but reaches the live message.created event (compat §2.4, §2.6)', async () => {
    const id = agentConversation(svc);
    const rec = recordEvents(svc);
    const sent = (await send(id, { content: 'with an echo', echo_id: 'tmp-echo-7' }, svc.creds.agentToken)).body as Message;
    expect((rec.events.find((e) => e.name === 'message.created') as { echoId?: string }).echoId).toBe('tmp-echo-7');
    rec.off();
    // The history does not carry it: it was a correlation id for this one request.
    const history = (await svc.request({ url: `${A}/conversations/${id}/messages`, token: svc.creds.agentToken })).body as { payload: Message[] };
    expect(history.payload.find((m) => m.id === sent.id)).not.toHaveProperty('echo_id');
  });

  it('keeps content_attributes given on create and returns them in the history (the app marks its sends this way)', async () => {
    const id = agentConversation(svc);
    const marker = { client_message_id: '3f1c8a52-6b0e-4c1a-9d7e-2a4b5c6d7e8f' };
    const sent = (await send(id, { content: 'marked', content_attributes: marker }, svc.creds.agentToken)).body as Message;
    expect(sent.content_attributes).toEqual(marker);
    const history = (await svc.request({ url: `${A}/conversations/${id}/messages?after=${sent.id - 1}`, token: svc.creds.agentToken })).body as { payload: Message[] };
    expect(history.payload.find((m) => m.id === sent.id)?.content_attributes).toEqual(marker);
  });

  it('an unparseable body is 400 and sends nothing', async () => {
    const id = agentConversation(svc);
    const before = countMessages(id);
    const res = await send(id, '{"content": "half');
    expect(res.status).toBe(400);
    expectSpecErrorShape(res.body);
    expect(countMessages(id)).toBe(before);
  });
});

describe('DELETE conversations/{id}/messages/{message_id}', () => {
  it('soft-deletes (content replaced, deleted flag, attachments removed) and a second delete is 404', async () => {
    const id = agentConversation(svc);
    const sent = (await send(id, { content: 'oops', attachments: [{ content_type: 'image/png', data_url: 'https://files.example/x.png' }] })).body as Message;
    const rec = recordEvents(svc);
    const res = await svc.request({ method: 'DELETE', url: `${A}/conversations/${id}/messages/${sent.id}`, token: svc.creds.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: sent.id, content: 'This message was deleted', content_type: 'text', content_attributes: { deleted: true } });
    expect(res.body).not.toHaveProperty('attachments');
    const updated = rec.events.find((e) => e.name === 'message.updated') as { changes: Record<string, unknown[]>; performer: unknown };
    expect(updated.changes.content).toEqual(['oops', 'This message was deleted']);
    expect(updated.performer).toEqual({ type: 'user', id: userIdOf(svc, ADMIN_EMAIL) });
    const again = await svc.request({ method: 'DELETE', url: `${A}/conversations/${id}/messages/${sent.id}`, token: svc.creds.adminToken });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'Resource could not be found' });
    rec.off();
  });

  it('a message of another conversation is 404', async () => {
    const id = agentConversation(svc);
    const other = agentConversation(svc, 'c.display_id != ?', id);
    const m = (await send(other, { content: 'elsewhere' })).body as Message;
    expect((await svc.request({ method: 'DELETE', url: `${A}/conversations/${id}/messages/${m.id}`, token: svc.creds.adminToken })).status).toBe(404);
  });
});
