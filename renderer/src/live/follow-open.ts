// The open conversation follows live messages without a visible hole: a message newer than the
// newest one held may have others before it that this window never heard of (it was reloading, or
// the socket was down), so the ids in between are asked for with one `after` page before the
// cursor moves. Bursts share one request per conversation. If the service cannot be asked, the
// gap is recorded and closes when the conversation is next refreshed.
import { isLocalMessage } from '../model/intent';
import type { InboxDb } from '../db/schema';
import type { FetchPage } from '../history/follow';
import { recordPage } from '../history/follow';

const running = new Map<string, Promise<void>>();
const again = new Set<string>();

async function closeOnce(db: InboxDb, conversationId: number, fetchPage: FetchPage): Promise<void> {
  const cursor = await db.cursors.get(conversationId);
  if (!cursor || cursor.newestId === 0) return;
  const after = cursor.newestId;
  try {
    await recordPage(db, conversationId, { kind: 'after', after }, await fetchPage({ after }));
  } catch {
    await db.transaction('rw', db.messages, db.cursors, async () => {
      const held = await db.messages.where('[conversation_id+id]').between([conversationId, after + 1], [conversationId, Infinity]).toArray();
      const newest = Math.max(after, ...held.filter((m) => !isLocalMessage(m)).map((m) => m.id));
      const now = await db.cursors.get(conversationId);
      if (!now || newest <= now.newestId) return;
      const gap = newest - now.newestId > 1 ? [{ after: now.newestId, before: newest }] : [];
      await db.cursors.put({ ...now, newestId: newest, gaps: [...now.gaps, ...gap] });
    });
  }
}

/** Brings the open conversation's cursor up to its newest live message. */
export function followOpenConversation(db: InboxDb, conversationId: number, fetchPage: FetchPage): Promise<void> {
  const key = `${db.name}#${conversationId}`;
  const current = running.get(key);
  if (current) {
    // A message that arrived while the page was on its way may be past it: one more round after.
    again.add(key);
    return current;
  }
  const run = (async () => {
    do {
      again.delete(key);
      await closeOnce(db, conversationId, fetchPage);
    } while (again.has(key));
  })().finally(() => running.delete(key));
  running.set(key, run);
  return run;
}
