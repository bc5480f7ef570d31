// Following a conversation's history with the spec's id cursors: `before` for older pages,
// `after` and `before`+`after` (up to 1000) to close a gap the newest page left. The fake service
// below implements the spec's Pagination table for one conversation whose ids interleave with
// other conversations' (ids are account-wide).
import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/api/records';
import { InboxDb } from '../../renderer/src/db/schema';
import { applyPage, knownSpan } from '../../renderer/src/model/cursor';
import { closeGaps, HistoryFollower, recordPage, refreshLatest } from '../../renderer/src/sync/history';
import type { FetchPage } from '../../renderer/src/sync/history';

const loadOlder = (db: InboxDb, id: number, fetchPage: FetchPage) => followerOf(db, fetchPage).loadOlder(id);
const followers = new WeakMap<InboxDb, HistoryFollower>();
/** One follower per cache, as the session client has. */
function followerOf(db: InboxDb, fetchPage: FetchPage): HistoryFollower {
  let f = followers.get(db);
  if (!f) followers.set(db, (f = new HistoryFollower(db, () => fetchPage)));
  return f;
}
import { msg, uniqueDbName } from './fixtures';

const CONV = 1;

function fakeService(initialIds: number[]) {
  const ids = [...initialIds].sort((a, b) => a - b);
  const requests: string[] = [];
  let offline = false;
  const fetchPage: FetchPage = async ({ before, after }) => {
    requests.push(before !== undefined && after !== undefined ? `between ${after}..${before}` : before !== undefined ? `before ${before}` : after !== undefined ? `after ${after}` : 'latest');
    if (offline) throw new Error('offline');
    let page: number[];
    if (before !== undefined && after !== undefined) page = ids.filter((id) => id >= after && id < before).slice(0, 1000);
    else if (after !== undefined) page = ids.filter((id) => id > after).slice(0, 100);
    else if (before !== undefined) page = ids.filter((id) => id < before).slice(-20);
    else page = ids.slice(-20);
    return page.map((id) => msg(id, CONV));
  };
  return {
    fetchPage,
    requests,
    add: (more: number[]) => ids.push(...more),
    setOffline: (v: boolean) => (offline = v),
    all: () => ids,
  };
}

const heldIds = (db: InboxDb) => db.messages.where('[conversation_id+id]').between([CONV, 0], [CONV, Infinity]).primaryKeys();
/** Every third id belongs to this conversation, the others to other conversations. */
const ours = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i * 3);

describe('history/cursor (pure)', () => {
  it('reads what each answer proves from the page sizes of the spec', () => {
    expect(knownSpan({ kind: 'latest' }, [5, 6])).toEqual({ from: 1, to: Number.MAX_SAFE_INTEGER });
    expect(knownSpan({ kind: 'before', before: 100 }, ours(10, 20))).toEqual({ from: 10, to: 99 });
    expect(knownSpan({ kind: 'after', after: 50 }, [51])).toEqual({ from: 51, to: Number.MAX_SAFE_INTEGER });
    expect(knownSpan({ kind: 'between', after: 51, before: 9000 }, ours(51, 1000))).toEqual({ from: 51, to: 51 + 999 * 3 });
  });

  it('records a gap when the newest page does not touch what was held, and fills it', () => {
    const held = { conversationId: 1, oldestId: 10, newestId: 40, hasOlder: true, gaps: [] };
    const afterLatest = applyPage(1, held, { kind: 'latest' }, ours(300, 20));
    expect(afterLatest.gaps).toEqual([{ after: 40, before: 300 }]);
    expect(afterLatest).toMatchObject({ oldestId: 10, newestId: 357, hasOlder: true });
    const partly = applyPage(1, afterLatest, { kind: 'after', after: 40 }, ours(41, 100).filter((id) => id < 300));
    expect(partly.gaps).toEqual([]);
  });
});

describe('history/follow against the spec cursors', () => {
  it('scrolls back with before until the start of the conversation', async () => {
    const db = new InboxDb(uniqueDbName());
    const svc = fakeService(ours(1, 75));
    await refreshLatest(db, CONV, svc.fetchPage);
    expect(await heldIds(db)).toHaveLength(20);
    expect(await db.cursors.get(CONV)).toMatchObject({ hasOlder: true, gaps: [] });

    let hasOlder = true;
    while (hasOlder) hasOlder = await loadOlder(db, CONV, svc.fetchPage);

    expect(await heldIds(db)).toEqual(svc.all());
    expect(svc.requests).toEqual(['latest', `before ${svc.all()[55]}`, `before ${svc.all()[35]}`, `before ${svc.all()[15]}`]);
    expect(await db.cursors.get(CONV)).toMatchObject({ oldestId: 1, hasOlder: false, gaps: [] });
    // Nothing more to ask once the start is known.
    await loadOlder(db, CONV, svc.fetchPage);
    expect(svc.requests).toHaveLength(4);
  });

  it('asks once when older history is requested again while a page is on its way', async () => {
    const db = new InboxDb(uniqueDbName());
    const svc = fakeService(ours(1, 75));
    await refreshLatest(db, CONV, svc.fetchPage);
    svc.requests.length = 0;
    await Promise.all([loadOlder(db, CONV, svc.fetchPage), loadOlder(db, CONV, svc.fetchPage), loadOlder(db, CONV, svc.fetchPage)]);
    expect(svc.requests).toEqual([`before ${svc.all()[55]}`]);
    await loadOlder(db, CONV, svc.fetchPage);
    expect(svc.requests).toEqual([`before ${svc.all()[55]}`, `before ${svc.all()[35]}`]);
  });

  it('a short newest page means the whole history is held', async () => {
    const db = new InboxDb(uniqueDbName());
    const svc = fakeService(ours(1, 5));
    await refreshLatest(db, CONV, svc.fetchPage);
    expect(await db.cursors.get(CONV)).toMatchObject({ hasOlder: false, gaps: [] });
  });

  it('closes a small gap with after when the newest page does not connect to the cache', async () => {
    const db = new InboxDb(uniqueDbName());
    const svc = fakeService(ours(1, 30));
    await refreshLatest(db, CONV, svc.fetchPage);
    const newestHeld = (await db.cursors.get(CONV))!.newestId;
    svc.add(ours(1000, 60)); // 60 new messages while the app was closed: more than one latest page
    svc.requests.length = 0;

    await refreshLatest(db, CONV, svc.fetchPage);

    expect(svc.requests).toEqual(['latest', `after ${newestHeld}`]);
    const cursor = (await db.cursors.get(CONV))!;
    expect(cursor.gaps).toEqual([]);
    const held = await heldIds(db);
    // Contiguous from the oldest held to the newest: every message in between is there.
    expect(held).toEqual(svc.all().filter((id) => id >= cursor.oldestId));
  });

  it('closes a large gap with after, then before+after pages of up to 1000', async () => {
    const db = new InboxDb(uniqueDbName());
    const svc = fakeService(ours(1, 25));
    await refreshLatest(db, CONV, svc.fetchPage);
    const newestHeld = (await db.cursors.get(CONV))!.newestId;
    svc.add(ours(10_000, 1_650));
    svc.requests.length = 0;

    await refreshLatest(db, CONV, svc.fetchPage);

    const latestOldest = svc.all().at(-20)!;
    const afterFirst100 = svc.all().filter((id) => id > newestHeld)[99]!;
    expect(svc.requests[0]).toBe('latest');
    expect(svc.requests[1]).toBe(`after ${newestHeld}`);
    expect(svc.requests[2]).toBe(`between ${afterFirst100 + 1}..${latestOldest}`);
    expect(svc.requests.slice(2).every((r) => r.startsWith('between') && r.endsWith(`..${latestOldest}`))).toBe(true);
    expect(svc.requests).toHaveLength(4); // 100 by after, 1000 + 530 by between
    expect((await db.cursors.get(CONV))!.gaps).toEqual([]);
    expect(await heldIds(db)).toEqual(svc.all().filter((id) => id >= (svc.all()[5] ?? 0)));
  });

  it('keeps the gap when the service goes away mid-way, and closes it later', async () => {
    const db = new InboxDb(uniqueDbName());
    const svc = fakeService(ours(1, 25));
    await refreshLatest(db, CONV, svc.fetchPage);
    svc.add(ours(5_000, 300));
    // The newest page arrives, then the connection drops before the gap is closed.
    const page = await svc.fetchPage({});
    await recordPage(db, CONV, { kind: 'latest' }, page);
    svc.setOffline(true);
    await expect(closeGaps(db, CONV, svc.fetchPage)).rejects.toThrow('offline');
    const open = (await db.cursors.get(CONV))!.gaps;
    expect(open).toHaveLength(1);

    svc.setOffline(false);
    await closeGaps(db, CONV, svc.fetchPage);
    expect((await db.cursors.get(CONV))!.gaps).toEqual([]);
    expect(await heldIds(db)).toEqual(svc.all().filter((id) => id >= (svc.all()[5] ?? 0)));
  });

  it('never stores another conversation\'s messages that arrive in a page', async () => {
    const db = new InboxDb(uniqueDbName());
    await recordPage(db, CONV, { kind: 'latest' }, [msg(1, CONV), msg(2, 99)] as Message[]);
    expect(await db.messages.toCollection().primaryKeys()).toEqual([1]);
  });
});

describe('a jump into the middle (a search hit)', () => {
  it('loads the page around the message, not the thread between it and the newest; the gap fills a page at a time as the agent scrolls to it', async () => {
    const db = new InboxDb(uniqueDbName());
    const svc = fakeService(Array.from({ length: 600 }, (_, i) => 1000 + i * 3));
    const follower = followerOf(db, svc.fetchPage);
    const hit = 1000 + 300 * 3;
    await follower.loadAround(CONV, hit);
    // The newest page first (nothing was held), then the hit with 20 before it, then 100 after it.
    expect(svc.requests).toEqual(['latest', `before ${hit + 1}`, `after ${hit}`]);
    const held = (await db.messages.toArray()).map((m) => m.id);
    expect(held).toContain(hit);
    expect(held.length).toBe(20 + 20 + 100);
    const cursor = (await db.cursors.get(CONV))!;
    expect(cursor.gaps).toEqual([{ after: hit + 100 * 3, before: svc.all().at(-20)!, lazy: true }]);

    // A refresh of the newest page leaves the jump's gap alone.
    svc.requests.length = 0;
    await follower.refreshLatest(CONV);
    expect(svc.requests).toEqual(['latest']);
    expect((await db.cursors.get(CONV))!.gaps).toHaveLength(1);

    // Scrolling down into it: one `after` page at a time; what remains stays lazy, then closes.
    await follower.fillGap(CONV, cursor.gaps[0]!);
    expect(svc.requests.at(-1)).toBe(`after ${hit + 300}`);
    expect((await db.cursors.get(CONV))!.gaps).toEqual([{ after: hit + 200 * 3, before: svc.all().at(-20)!, lazy: true }]);
    for (let i = 0; i < 5 && (await db.cursors.get(CONV))!.gaps.length; i++) await follower.fillGap(CONV, (await db.cursors.get(CONV))!.gaps[0]!);
    expect((await db.cursors.get(CONV))!.gaps).toEqual([]);
    // Everything from 20 before the hit to the newest; nothing older than that was asked for.
    expect(await db.messages.count()).toBe(svc.all().length - (300 - 19));
  });
});
