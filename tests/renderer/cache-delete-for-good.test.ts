// A session's cache deleted at sign-out stays deleted: a connection still held by that session
// (its client, a list mid-read, a draft being saved) lets go for good on the delete, so a read or
// write a moment later fails instead of opening (re-creating) a signed-out cache. And the idle
// work still running over it (the queues' prefetch) ends quietly instead of leaving an unhandled
// rejection in the page (seen in the sign-out e2e test, about one run in two).
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../shared/bridge/contract';
import { InboxDb } from '../../renderer/src/db/schema';
import { saveConversations } from '../../renderer/src/db/save';
import { prefetchQueues } from '../../renderer/src/sync/prefetch';
import { conv } from './fixtures';

const names = async () => (await indexedDB.databases()).map((d) => d.name);

describe('a deleted cache', () => {
  it('is not re-created by a later read or write on a connection that was open', async () => {
    const name = `inbox:delete-for-good-${Math.random()}`;
    const held = new InboxDb(name);
    await saveConversations(held, [conv(1)]);
    expect(await held.conversations.count()).toBe(1);

    await new InboxDb(name).delete();
    expect(await names()).not.toContain(name);

    await expect(held.conversations.count()).rejects.toThrow();
    await expect(held.drafts.put({ conversationId: 1, text: 'late', mode: 'reply', updatedAt: 1 } as never)).rejects.toThrow();
    expect(await names()).not.toContain(name);
  });

  it('ends the prefetch round running over it without a rejection', async () => {
    const name = `inbox:delete-for-good-${Math.random()}`;
    const db = new InboxDb(name);
    await saveConversations(db, [conv(1), conv(2), conv(3)]);
    // Their contacts are cached: only the newest pages are left to read.
    await db.contacts.bulkPut([1001, 1002, 1003].map((id) => ({ id, name: `Contact ${id}` }) as never));
    const refreshed: number[] = [];
    // The agent signs out while the first conversation's newest page is being read.
    const history = {
      refreshLatest: async (id: number) => {
        refreshed.push(id);
        if (refreshed.length === 1) await new InboxDb(name).delete();
        return undefined as never;
      },
    };
    const bridge = { call: () => Promise.reject(new Error('nothing else is read')) } as unknown as Bridge;
    const result = await prefetchQueues({ bridge, db, history, meId: 7, pause: async () => undefined });
    expect(refreshed).toHaveLength(1);
    expect(result.conversations).toBe(1);
    expect(await names()).not.toContain(name);
  });
});
