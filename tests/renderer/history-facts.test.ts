// What a conversation's cached history says for a notification (notifications/history-facts.ts):
// the agent's part in it and who last resolved it, read newest first a page at a time, stopping
// once both are known; never a cursor over the whole history (a step per message, each a task of
// the page's: 427 ms before a notification in a conversation of 10,000, bench "notify").
import type { DBCore, DBCoreTable } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { messageTypes } from '../../shared/api/record-values';
import { InboxDb } from '../../renderer/src/db/schema';
import { FIRST_PAGE, historyFacts } from '../../renderer/src/notifications/history-facts';
import { msg, uniqueDbName } from './fixtures';

const me = { id: 7 };
const mine = (id: number, conversationId = 5) => msg(id, conversationId, { message_type: 1, sender: { id: 7, name: 'Me', type: 'user' } });
const theirs = (id: number, conversationId = 5) => msg(id, conversationId, { sender: { id: 90, name: 'Contact', type: 'contact' } });
const resolvedBy = (id: number, name: string) => msg(id, 5, { message_type: messageTypes.activity, content: `Conversation was marked resolved by ${name}`, sender: { id: 7, name: 'Me', type: 'user' } });

const dbs: InboxDb[] = [];
/** A cache that counts the messages its reads hand over, and the cursors opened on them. */
async function cache(messages: ReturnType<typeof msg>[]) {
  const db = new InboxDb(uniqueDbName('facts'));
  dbs.push(db);
  const seen = { values: 0, cursors: 0 };
  db.use({
    stack: 'dbcore',
    name: 'count-reads',
    create: (down: DBCore) => ({
      ...down,
      table(name: string): DBCoreTable {
        const table = down.table(name);
        if (name !== 'messages') return table;
        return {
          ...table,
          query: async (req) => {
            const res = await table.query(req);
            seen.values += res.result.length;
            return res;
          },
          openCursor: (req) => {
            seen.cursors++;
            return table.openCursor(req);
          },
        };
      },
    }),
  });
  await db.messages.bulkPut(messages);
  seen.values = 0;
  seen.cursors = 0;
  return { db, seen };
}
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.delete();
});

describe('historyFacts', () => {
  it("the agent's reply among the newest: told by the first page alone", async () => {
    const many = Array.from({ length: 3_000 }, (_, i) => theirs(i + 1));
    const { db, seen } = await cache([...many, mine(3_001), theirs(3_002), theirs(1, 6)]);
    expect(await historyFacts(db, 5, me, false)).toEqual({ participating: true, lastResolvedBy: undefined });
    expect(seen).toEqual({ values: FIRST_PAGE, cursors: 0 });
  });

  it('a reply far back is found, page by page; none at all reads the history once; another conversation is not this one', async () => {
    const history = Array.from({ length: 2_500 }, (_, i) => (i === 3 ? mine(i + 1) : theirs(i + 1)));
    const { db, seen } = await cache([...history, mine(9_000, 6)]);
    expect(await historyFacts(db, 5, me, false)).toEqual({ participating: true, lastResolvedBy: undefined });
    expect(seen.cursors).toBe(0);
    expect(seen.values).toBe(2_500);
    seen.values = 0;
    await db.messages.delete(4);
    expect((await historyFacts(db, 5, me, false)).participating).toBe(false);
    expect(seen.values).toBe(2_499);
  });

  it('who last resolved it: the newest such line; an activity line of the agent is not taking part', async () => {
    const { db } = await cache([theirs(1), resolvedBy(2, 'Priya'), theirs(3), resolvedBy(4, ' Me '), theirs(5)]);
    expect(await historyFacts(db, 5, me, true)).toEqual({ participating: false, lastResolvedBy: 'Me' });
    // Not asked for: not read.
    expect(await historyFacts(db, 5, me, false)).toEqual({ participating: false, lastResolvedBy: undefined });
  });

  it('both known: the walk stops; a resolve far back is read only when asked for', async () => {
    const history = [resolvedBy(1, 'Me'), ...Array.from({ length: 1_500 }, (_, i) => theirs(i + 2)), mine(1_502)];
    const { db, seen } = await cache(history);
    expect(await historyFacts(db, 5, me, false)).toEqual({ participating: true, lastResolvedBy: undefined });
    expect(seen.values).toBe(FIRST_PAGE);
    seen.values = 0;
    expect(await historyFacts(db, 5, me, true)).toEqual({ participating: true, lastResolvedBy: 'Me' });
    expect(seen.values).toBe(1_502);
  });
});
