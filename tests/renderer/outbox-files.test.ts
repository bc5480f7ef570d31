// Messages with files through the outbox, against the real bridge and demo service: the files'
// bytes are kept in IndexedDB in the commit that queues the message (so they survive offline and a
// restart), go as one multipart create when the service is reachable, arrive exactly once (also
// after an answer lost on the way back), and are dropped once the service has them or the agent
// discards the message.
import { waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '../../shared/bridge/result';
import { discardMessage, sendMessage } from '../../renderer/src/actions/agent-actions';
import { base64Of } from '../../renderer/src/actions/outbox-files';
import { isLocalMessage } from '../../renderer/src/model/intent';
import type { InboxDb, QueuedFile } from '../../renderer/src/db/schema';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { pdfDocument, pngImage } from '../support/sample-files';
import { demoBridge } from './support/demo-bridge';
import type { DemoBridge } from './support/demo-bridge';
import { actionContext, agentConversations, seededDb, serviceMessagesWith, startSender, steer } from './support/outbox-harness';

let svc: DemoService;
let demo: DemoBridge;
beforeAll(async () => {
  svc = await demoService();
  demo = await demoBridge(svc);
});
afterAll(() => svc.close());

const offline: Result<never> = { ok: false, error: { kind: 'network', message: 'The service could not be reached.' } };
const timeout: Result<never> = { ok: false, error: { kind: 'timeout', message: 'The service did not answer in time.' } };
const history = (db: InboxDb, id: number) => db.messages.where('[conversation_id+id]').between([id, 0], [id, Infinity]).toArray();
const arrayBufferOf = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
const queued = (name: string, type: string, bytes: Buffer): QueuedFile => ({ name, type, size: bytes.length, data: arrayBufferOf(bytes) });
let n = 0;
const unique = (what: string) => `${what} ${Date.now()}-${n++}`;
let picked = 100;
async function openConversation() {
  const id = agentConversations(svc, "c.status = 'open'", ++picked).at(-1)!;
  return { id, db: await seededDb(demo, [id]) };
}
const attachmentsOnService = (messageId: number) =>
  svc.db.prepare('SELECT file_type, file_size, data_url FROM attachments WHERE message_id = ? ORDER BY id').all(messageId) as { file_type: string; file_size: number; data_url: string }[];

describe('a message with files', () => {
  it('queued offline, kept in IndexedDB, then sent once as multipart when the service is back', async () => {
    const { id, db } = await openConversation();
    const caption = unique('Screenshot and invoice');
    const png = pngImage();
    const pdf = pdfDocument();
    const steering = steer(demo);
    steering.intercept((name) => (name === 'messages.create' ? Promise.resolve(offline) : undefined));
    const sent = await sendMessage(actionContext(db, demo), id, caption, false, [queued('screen.png', 'image/png', png), queued('invoice.pdf', 'application/pdf', pdf)]);

    // Shown at once with its files by name and size; the entry carries no bytes, the files table does.
    const local = (await history(db, id)).find(isLocalMessage)!;
    expect(local.attachments?.map((a) => [a.fallback_title, a.file_type, a.file_size])).toEqual([['screen.png', 'image', png.length], ['invoice.pdf', 'file', pdf.length]]);
    const entry = await db.outbox.get(sent.seq);
    expect(JSON.stringify(entry)).not.toContain(base64Of(arrayBufferOf(png)).slice(0, 40));
    expect(entry?.payload).toMatchObject({ kind: 'message', files: [{ name: 'screen.png', type: 'image/png', size: png.length }, { name: 'invoice.pdf', type: 'application/pdf', size: pdf.length }] });
    expect((await db.outboxFiles.get(sent.clientId))?.files.map((f) => f.size)).toEqual([png.length, pdf.length]);

    const sender = startSender(db, steering.bridge);
    await waitFor(() => expect(steering.log.filter((l) => l.name === 'messages.create' && l.phase === 'end').length).toBeGreaterThan(1));
    // Still on its way (waiting to retry, or already trying again): neither sent nor given up.
    expect(['queued', 'sending']).toContain((await db.outbox.get(sent.seq))?.state);
    expect(serviceMessagesWith(svc, id, caption)).toEqual([]);
    // A restart while offline: a fresh handle on the same database still has the bytes.
    expect((await db.outboxFiles.get(sent.clientId))?.files).toHaveLength(2);

    steering.intercept(() => undefined);
    await waitFor(async () => expect((await db.outbox.get(sent.seq))?.state).toBe('confirmed'));
    sender.stop();
    const onService = serviceMessagesWith(svc, id, caption);
    expect(onService).toHaveLength(1);
    expect(attachmentsOnService(onService[0]!.id).map((a) => [a.file_type, a.file_size])).toEqual([['image', png.length], ['file', pdf.length]]);
    expect(await db.outboxFiles.get(sent.clientId)).toBeUndefined();
    const held = await history(db, id);
    expect(held.filter(isLocalMessage)).toEqual([]);
    expect(held.find((m) => m.id === onService[0]!.id)?.attachments).toHaveLength(2);
  });

  it('after an answer lost once the service had stored it, finds it by its marker and does not send the files again', async () => {
    const { id, db } = await openConversation();
    const steering = steer(demo);
    let first = true;
    steering.intercept((name, _input, through) => {
      if (name !== 'messages.create' || !first) return undefined;
      first = false;
      return through().then(() => timeout);
    });
    // No caption: only the marker can tell this send apart.
    const sent = await sendMessage(actionContext(db, demo), id, '', false, [queued('only.png', 'image/png', pngImage(8, 8))]);
    const sender = startSender(db, steering.bridge);
    await waitFor(async () => expect((await db.outbox.get(sent.seq))?.state).toBe('confirmed'));
    sender.stop();
    const withMarker = svc.db
      .prepare("SELECT m.id FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.account_id = ? AND c.display_id = ? AND m.content_attributes LIKE ?")
      .all(svc.creds.accountId, id, `%${sent.clientId}%`) as { id: number }[];
    expect(withMarker).toHaveLength(1);
    expect(attachmentsOnService(withMarker[0]!.id)).toHaveLength(1);
    expect(await db.outboxFiles.get(sent.clientId)).toBeUndefined();
  });

  it('discarding a message that was not sent drops its files too', async () => {
    const { id, db } = await openConversation();
    const sent = await sendMessage(actionContext(db, demo), id, 'never mind', false, [queued('a.png', 'image/png', pngImage(4, 4))]);
    expect(await db.outboxFiles.get(sent.clientId)).toBeDefined();
    expect(await discardMessage(db, sent.seq)).toBe(true);
    expect(await db.outboxFiles.get(sent.clientId)).toBeUndefined();
    expect((await history(db, id)).filter(isLocalMessage)).toEqual([]);
  });
});
