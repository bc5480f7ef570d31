// perform(): the one way the agent changes anything. In ONE cache transaction it applies the
// intended end state (list row, full record, and for a message the optimistic message), queues the
// action in the outbox, and (for a message) drops the draft. Either all of that happens or none,
// so a change is never shown without being queued, and a draft never goes without its message.
// The sender (sender.ts) takes it from there.
import type { InboxDb, OutboxEntry, QueuedFile } from '../db/schema';
import type { Cached, Intent } from '../model/intent';
import { applyIntent, optimisticMessage } from '../model/intent';

export interface PerformOptions {
  now?: () => number;
  newId?: () => string;
  /** Files that go with a message: their bytes are kept (outboxFiles) in the same commit that queues it. */
  files?: readonly QueuedFile[];
}

export interface Performed {
  clientId: string;
  conversationId: number;
  seq: number;
}

/** A UUID from the platform; falls back to getRandomValues where randomUUID is missing. */
export function newClientId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Applies and queues one action per conversation. `intentFor` runs inside the transaction with
 * the conversation as cached right now, so an intent built from current state (the full label
 * set with one label added) cannot race another change. Returning undefined skips that one.
 */
export async function perform(
  db: InboxDb,
  conversationIds: readonly number[],
  intentFor: (cached: Cached, conversationId: number) => Intent | undefined,
  opts: PerformOptions = {},
): Promise<Performed[]> {
  const now = opts.now ?? Date.now;
  const newId = opts.newId ?? newClientId;
  const batchId = conversationIds.length > 1 ? newId() : undefined;
  return db.transaction('rw', [db.conversations, db.conversationRecords, db.messages, db.outbox, db.drafts, db.draftFiles, db.outboxFiles], async () => {
    const done: Performed[] = [];
    for (const conversationId of new Set(conversationIds)) {
      const before: Cached = { row: await db.conversations.get(conversationId), record: (await db.conversationRecords.get(conversationId))?.record };
      const intent = intentFor(before, conversationId);
      if (!intent) continue;
      const at = now();
      const clientId = newId();
      const entry: OutboxEntry = {
        clientId,
        conversationId,
        kind: intent.kind,
        payload: intent,
        state: 'queued',
        createdAt: at,
        attempts: 0,
        nextAttemptAt: 0,
        before,
        ...(batchId ? { batchId } : {}),
      };
      const seq = await db.outbox.add(entry);
      const after = applyIntent(before, intent, at);
      if (after.row) await db.conversations.put(after.row);
      if (after.record) await db.conversationRecords.put({ id: conversationId, record: after.record });
      if (intent.kind === 'message') {
        if (opts.files?.length) await db.outboxFiles.put({ clientId, files: [...opts.files] });
        await db.messages.put(optimisticMessage(intent, conversationId, seq, clientId, at));
        // The draft (its text and its files) goes in the same commit that queues its message: never one without the other.
        await db.drafts.delete(conversationId);
        await db.draftFiles.delete(conversationId);
      }
      done.push({ clientId, conversationId, seq });
    }
    return done;
  });
}
