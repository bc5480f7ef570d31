// Writes what the service returned into the cache. Reads go: cache first (useLiveQuery), then the
// service through the bridge, then here.
import type { Conversation, Message } from '../../../shared/api/records';
import { toCachedConversation } from './normalize';
import type { InboxDb } from './schema';

export async function saveConversations(db: InboxDb, records: Conversation[]): Promise<void> {
  await db.conversations.bulkPut(records.map(toCachedConversation));
}

/**
 * Stores a page of messages and widens the conversation's cursor state. `requestedBefore` tells
 * whether this was an older-history page; a short one means the start of history is cached.
 */
export async function saveMessages(
  db: InboxDb,
  conversationId: number,
  page: Message[],
  opts: { kind: 'latest' | 'before' | 'after' | 'between'; pageSize: number },
): Promise<void> {
  await db.transaction('rw', db.messages, db.cursors, async () => {
    if (page.length) await db.messages.bulkPut(page);
    const ids = page.map((m) => m.id);
    const prev = await db.cursors.get(conversationId);
    const oldest = ids.length ? Math.min(...ids) : undefined;
    const newest = ids.length ? Math.max(...ids) : undefined;
    const reachedStart = (opts.kind === 'latest' || opts.kind === 'before') && page.length < opts.pageSize;
    await db.cursors.put({
      conversationId,
      oldestId: Math.min(prev?.oldestId ?? Infinity, oldest ?? Infinity),
      newestId: Math.max(prev?.newestId ?? 0, newest ?? 0),
      hasOlder: reachedStart ? false : (prev?.hasOlder ?? true),
    });
  });
}
