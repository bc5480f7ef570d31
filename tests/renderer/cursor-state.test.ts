// Cursor state in the cache: which slice of a conversation's history is held locally.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/api/records';
import { InboxDb } from '../../renderer/src/db/schema';
import { saveMessages } from '../../renderer/src/db/sync';

const msg = (id: number): Message => ({ id, content: `m${id}`, conversation_id: 1, message_type: 0, content_type: 'text', content_attributes: {}, created_at: id, private: false });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));

describe('saveMessages', () => {
  it('widens oldest/newest and learns that history ends when a before page is short', async () => {
    const db = new InboxDb(`t-${Math.random()}`);
    await saveMessages(db, 1, range(81, 100), { kind: 'latest', pageSize: 20 });
    expect(await db.cursors.get(1)).toEqual({ conversationId: 1, oldestId: 81, newestId: 100, hasOlder: true });
    await saveMessages(db, 1, range(61, 80), { kind: 'before', pageSize: 20 });
    expect(await db.cursors.get(1)).toMatchObject({ oldestId: 61, hasOlder: true });
    await saveMessages(db, 1, range(55, 60), { kind: 'before', pageSize: 20 });
    expect(await db.cursors.get(1)).toMatchObject({ oldestId: 55, newestId: 100, hasOlder: false });
    await saveMessages(db, 1, range(101, 105), { kind: 'after', pageSize: 100 });
    expect(await db.cursors.get(1)).toMatchObject({ oldestId: 55, newestId: 105, hasOlder: false });
    expect(await db.messages.where('[conversation_id+id]').between([1, 0], [1, Infinity]).count()).toBe(51);
  });
});
