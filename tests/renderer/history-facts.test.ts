// What a conversation's cached history says for a notification (notifications/history-facts.ts):
// the agent's part in it and who last resolved it, read newest first a page at a time, stopping
// once both are known; never a cursor over the whole history (a step per message, each a task of
// the page's: 427 ms before a notification in a conversation of 10,000, bench "notify").
import Dexie from 'dexie';
import type { DBCore, DBCoreTable } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { messageTypes } from '../../shared/api/record-values';
import { InboxDb } from '../../renderer/src/db/schema';
import { FIRST_PAGE, createHistoryFacts, historyFacts } from '../../renderer/src/notifications/history-facts';
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
  const seen: { values: number; cursors: number; afterQuery?: () => Promise<unknown> } = { values: 0, cursors: 0 };
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
            const after = seen.afterQuery;
            seen.afterQuery = undefined;
            if (after) await Dexie.ignoreTransaction(after);
            return res;
          },
          getMany: async (req) => {
            const res = await table.getMany(req);
            seen.values += res.filter((m) => m !== undefined).length;
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

  describe('kept between messages (createHistoryFacts)', () => {
    const readers: { stop(): void }[] = [];
    afterEach(() => {
      for (const r of readers.splice(0)) r.stop();
    });
    const kept = (db: InboxDb) => {
      const r = createHistoryFacts(db, me);
      readers.push(r);
      return r;
    };
    const long = () => Array.from({ length: 3_000 }, (_, i) => theirs(i + 1));

    it("the contact's next message reads that message alone, not the history again; the agent's reply after it is seen", async () => {
      const { db, seen } = await cache(long());
      const history = kept(db);
      expect(await history.facts(5, false)).toEqual({ participating: false, lastResolvedBy: undefined });
      expect(seen.values).toBe(3_000);
      seen.values = 0;
      await db.messages.put(theirs(3_001));
      expect(await history.facts(5, false)).toEqual({ participating: false, lastResolvedBy: undefined });
      expect(seen.values).toBe(1);
      await db.messages.put(mine(3_002));
      await db.messages.put(theirs(3_003));
      seen.values = 0;
      expect(await history.facts(5, false)).toEqual({ participating: true, lastResolvedBy: undefined });
      expect(seen.values).toBe(2);
      // Another conversation's message is none of this one's.
      await db.messages.put(theirs(3_004, 6));
      seen.values = 0;
      expect((await history.facts(5, false)).participating).toBe(true);
      expect(seen.values).toBe(0);
    });

    it('an older message written later (a page loaded above) counts; a newer resolve line wins, an older one does not', async () => {
      const { db } = await cache([...long(), resolvedBy(3_001, 'Priya')]);
      const history = kept(db);
      expect(await history.facts(5, true)).toEqual({ participating: false, lastResolvedBy: 'Priya' });
      await db.messages.bulkPut([mine(5), resolvedBy(0, 'Sam')]);
      expect(await history.facts(5, true)).toEqual({ participating: true, lastResolvedBy: 'Priya' });
      await db.messages.put(resolvedBy(3_005, 'Ola'));
      expect(await history.facts(5, true)).toEqual({ participating: true, lastResolvedBy: 'Ola' });
    });

    it('a delete, or a page of 50 or more, forgets: the next read is whole and right', async () => {
      const { db, seen } = await cache([...long(), mine(3_001)]);
      const history = kept(db);
      expect((await history.facts(5, false)).participating).toBe(true);
      await db.messages.delete(3_001);
      seen.values = 0;
      expect((await history.facts(5, false)).participating).toBe(false);
      expect(seen.values).toBe(3_000);
      await db.messages.bulkPut([...Array.from({ length: 59 }, (_, i) => theirs(4_000 + i)), mine(0)]);
      seen.values = 0;
      expect((await history.facts(5, false)).participating).toBe(true);
      expect(seen.values).toBe(3_060);
    });

    it('who resolved it, asked for after a read that did not look: read whole', async () => {
      const { db } = await cache([resolvedBy(1, 'Priya'), ...Array.from({ length: 300 }, (_, i) => theirs(i + 2)), mine(400)]);
      const history = kept(db);
      expect(await history.facts(5, false)).toEqual({ participating: true, lastResolvedBy: undefined });
      expect(await history.facts(5, true)).toEqual({ participating: true, lastResolvedBy: 'Priya' });
    });

    it('a write while the history is read, above where the read has got to, is not lost', async () => {
      const { db, seen } = await cache(long());
      const history = kept(db);
      // Written once the newest page is read: the walk goes on below it and never sees it.
      seen.afterQuery = () => db.messages.put(mine(3_500));
      expect((await history.facts(5, false)).participating).toBe(false);
      expect((await history.facts(5, false)).participating).toBe(true);
    });

    it('stopped, it keeps nothing: each read is whole', async () => {
      const { db, seen } = await cache(long());
      const history = kept(db);
      await history.facts(5, false);
      history.stop();
      seen.values = 0;
      await history.facts(5, false);
      expect(seen.values).toBe(3_000);
    });
  });
});

