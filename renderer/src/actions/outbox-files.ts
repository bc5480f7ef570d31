// The bytes of files queued with a message. They wait in `outboxFiles` (IndexedDB, so they survive
// going offline, a reload or a crash) beside the outbox entry that names them, written in the same
// transaction that queues the message, and go when the service has the message (or the agent
// discards it). The entry itself carries only names, types and sizes, so reading the queue (which
// the sender and the screens do often) never reads files.
import type { OutgoingFile } from '../../../shared/bridge/calls/messages';
import type { InboxDb, QueuedFile } from '../db/schema';
import type { FileSummary } from '../model/intent';

export const summaryOf = (files: readonly QueuedFile[]): FileSummary[] => files.map(({ name, type, size }) => ({ name, type, size }));

/** Base64 of `data`, in slices (one `String.fromCharCode` call over megabytes would overflow the stack). */
export function base64Of(data: ArrayBuffer): string {
  const bytes = new Uint8Array(data);
  let text = '';
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(text);
}

/** The files queued with message `clientId`, as the bridge takes them; undefined when they are gone. */
export async function outgoingFiles(db: InboxDb, clientId: string): Promise<OutgoingFile[] | undefined> {
  const row = await db.outboxFiles.get(clientId);
  return row?.files.map((f) => ({ name: f.name, type: f.type, data: base64Of(f.data) }));
}
