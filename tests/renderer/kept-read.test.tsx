// A conversation switched back to opens from what its view showed as it closed
// (conversation/read-ahead.ts `keep`, db/live-read.ts `onClose`), and never from something a write
// has overtaken: what a view hands back is current when it closes, and a write to what a kept read
// rests on forgets it.
import { act, renderHook, waitFor } from '@testing-library/react';
import { Dexie, RangeSet } from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConversationRead } from '../../renderer/src/conversation/conversation-read';
import { conversationParts, FIRST_READ_MESSAGES, keepSameRead, readConversation } from '../../renderer/src/conversation/conversation-read';
import { ConversationReadAhead, PREPARED } from '../../renderer/src/conversation/read-ahead';
import { liveReadSettings, useLiveRead } from '../../renderer/src/db/live-read';
import { saveConversations } from '../../renderer/src/db/save';
import { InboxDb } from '../../renderer/src/db/schema';
import { recordPage } from '../../renderer/src/sync/history';
import { conv, msg, uniqueDbName } from './fixtures';

const dbs: InboxDb[] = [];
async function cached(): Promise<InboxDb> {
  const db = new InboxDb(uniqueDbName('kept'));
  dbs.push(db);
  await saveConversations(db, [conv(5), conv(6), conv(7), conv(8), conv(9), conv(10)]);
  await recordPage(db, 5, { kind: 'latest' }, [msg(1, 5), msg(2, 5), msg(3, 5)]);
  await recordPage(db, 6, { kind: 'latest' }, [msg(10, 6)]);
  return db;
}
const followAfter = liveReadSettings.followAfterMs;
afterEach(async () => {
  liveReadSettings.followAfterMs = followAfter;
  vi.restoreAllMocks();
  for (const db of dbs.splice(0)) await db.delete();
});

/** Counts IndexedDB's reads of an index (the messages' read). */
function indexReads() {
  const getAll = vi.spyOn(IDBIndex.prototype, 'getAll');
  const openCursor = vi.spyOn(IDBIndex.prototype, 'openCursor');
  return () => getAll.mock.calls.length + openCursor.mock.calls.length;
}

const keepRead = async (db: InboxDb, ahead: ConversationReadAhead, id: number) => {
  const read = await readConversation(db, id);
  ahead.keep(id, read, conversationParts(db, id, read));
  return read;
};

describe('a kept read', () => {
  it('answers the next view of its conversation, once, without reading IndexedDB', async () => {
    const db = await cached();
    const ahead = new ConversationReadAhead(db);
    const read = await keepRead(db, ahead, 5);
    const reads = indexReads();
    ahead.ahead(5);
    expect(await ahead.take(5)).toBe(read);
    expect(reads()).toBe(0);
    // Taken: the view holds it now; the next take reads.
    expect(await ahead.take(5)).not.toBe(read);
    expect(reads()).toBeGreaterThan(0);
  });

  it('is forgotten on a write to what it rests on, kept on a write elsewhere', async () => {
    const db = await cached();
    const ahead = new ConversationReadAhead(db);
    const read = await keepRead(db, ahead, 5);
    await recordPage(db, 6, { kind: 'latest' }, [msg(10, 6), msg(11, 6)]);
    await db.conversations.update(6, { unreadCount: 3 });
    expect(await ahead.take(5)).toBe(read);

    for (const write of [
      () => db.messages.update(2, { content: 'edited' }),
      () => recordPage(db, 5, { kind: 'latest' }, [msg(3, 5), msg(4, 5)]),
      () => db.conversations.update(5, { unreadCount: 2 }),
      (kept: ConversationRead) => db.cursors.update(5, { hasOlder: !kept.cursor!.hasOlder }),
      () => db.messages.delete(3),
    ]) {
      const kept = await keepRead(db, ahead, 5);
      await write(kept);
      const taken = await ahead.take(5);
      expect(taken, String(write)).not.toBe(kept);
      expect(taken).toEqual(await readConversation(db, 5));
    }
  });

  it('is kept for the last four conversations, however long nothing it rests on is written', async () => {
    const db = await cached();
    let now = 0;
    const ahead = new ConversationReadAhead(db, () => now);
    const kept = new Map<number, ConversationRead>();
    for (const id of [5, 6, 7, 8, 9]) kept.set(id, await keepRead(db, ahead, id));
    expect(await ahead.take(5)).not.toBe(kept.get(5));
    expect(await ahead.take(6)).toBe(kept.get(6));
    // Current while nothing it rests on is written (the write test above), so time alone does not end it.
    now += 60 * 60_000;
    expect(await ahead.take(7)).toBe(kept.get(7));
  });

  it('tells when one goes: taken, pushed out by newer ones, or overtaken by a write', async () => {
    const db = await cached();
    const ahead = new ConversationReadAhead(db);
    const gone = vi.fn();
    const stop = ahead.onForget(gone);
    for (const id of [5, 6, 7, 8]) await keepRead(db, ahead, id);
    expect(gone).not.toHaveBeenCalled();
    await keepRead(db, ahead, 9);
    expect(gone).toHaveBeenCalledTimes(1);
    expect(ahead.holds(5)).toBe(false);
    await ahead.take(6);
    expect(gone).toHaveBeenCalledTimes(2);
    // Nothing kept for it: nothing goes.
    await ahead.take(6);
    expect(gone).toHaveBeenCalledTimes(2);
    await db.conversations.update(7, { unreadCount: 4 });
    await waitFor(() => expect(gone).toHaveBeenCalledTimes(3));
    expect(ahead.holds(7)).toBe(false);
    expect(ahead.holds(8)).toBe(true);
    stop();
    await ahead.take(8);
    expect(gone).toHaveBeenCalledTimes(3);
  });
});

describe('what a live read hands back as it closes', () => {
  function live(db: InboxDb, id: number) {
    const closed = vi.fn<(value: ConversationRead) => void>();
    const hook = renderHook(() => useLiveRead(`${db.name}/${id}`, () => readConversation(db, id), keepSameRead, { covers: (shown) => conversationParts(db, id, shown), onClose: closed }));
    return { hook, closed };
  }

  it('is what it showed, when nothing it rests on was written since', async () => {
    const db = await cached();
    const { hook, closed } = live(db, 5);
    await waitFor(() => expect(hook.result.current?.messages).toHaveLength(3));
    const shown = hook.result.current;
    hook.unmount();
    expect(closed).toHaveBeenCalledExactlyOnceWith(shown);
  });

  it('is nothing when a write to what it showed has not been read yet', async () => {
    const db = await cached();
    liveReadSettings.followAfterMs = 60_000;
    const { hook, closed } = live(db, 5);
    await waitFor(() => expect(hook.result.current?.messages).toHaveLength(3));
    // Closed in the moment after the write, before the read that follows it answers.
    await db.messages.update(2, { content: 'edited' });
    hook.unmount();
    expect(closed).not.toHaveBeenCalled();
  });

  it('is the read that followed a write, once it has answered', async () => {
    const db = await cached();
    const { hook, closed } = live(db, 5);
    await waitFor(() => expect(hook.result.current?.messages).toHaveLength(3));
    await act(() => db.messages.update(2, { content: 'edited' }));
    await waitFor(() => expect(hook.result.current?.messages[1]!.content).toBe('edited'));
    const shown = hook.result.current;
    hook.unmount();
    expect(closed).toHaveBeenCalledExactlyOnceWith(shown);
  });

  it('a write elsewhere leaves it current', async () => {
    const db = await cached();
    liveReadSettings.followAfterMs = 60_000;
    const { hook, closed } = live(db, 5);
    await waitFor(() => expect(hook.result.current?.messages).toHaveLength(3));
    await db.messages.update(10, { content: 'edited elsewhere' });
    const shown = hook.result.current;
    hook.unmount();
    expect(closed).toHaveBeenCalledExactlyOnceWith(shown);
  });
});

describe('a read of a conversation about to be opened (prepare)', () => {
  const settled = () => new Promise((done) => setTimeout(done, 50));
  const prepared = async (ahead: ConversationReadAhead, id: number) => {
    ahead.prepare(id);
    await settled();
  };
  /** The index reads taking `id`'s read makes (one spy a test). */
  const readsTaking = async (ahead: ConversationReadAhead, id: number) => {
    const reads = indexReads();
    await ahead.take(id);
    return reads();
  };

  it('answers the view that opens it, once, without reading IndexedDB again', async () => {
    const db = await cached();
    const ahead = new ConversationReadAhead(db);
    const current = await readConversation(db, 5, FIRST_READ_MESSAGES);
    await prepared(ahead, 5);
    const reads = indexReads();
    ahead.ahead(5);
    expect(await ahead.take(5)).toEqual(current);
    expect(reads()).toBe(0);
    // Taken: the next view reads.
    await ahead.take(5);
    expect(reads()).toBeGreaterThan(0);
  });

  it('still under way when the conversation opens, is the one read', async () => {
    const db = await cached();
    const ahead = new ConversationReadAhead(db);
    const reads = indexReads();
    ahead.prepare(5);
    ahead.ahead(5);
    expect((await ahead.take(5)).messages).toHaveLength(3);
    expect(reads()).toBe(1);
  });

  it('is never what a write overtook: one during the read, or one after it', async () => {
    const db = await cached();
    const ahead = new ConversationReadAhead(db);
    ahead.prepare(5);
    await db.conversations.update(5, { unreadCount: 4 });
    await settled();
    expect((await ahead.take(5)).row!.unreadCount).toBe(4);

    await prepared(ahead, 5);
    await recordPage(db, 5, { kind: 'latest' }, [msg(3, 5), msg(4, 5)]);
    expect((await ahead.take(5)).messages.map((m) => m.id)).toEqual([1, 2, 3, 4]);

    // A write elsewhere once it is in: kept.
    await prepared(ahead, 5);
    await db.conversations.update(6, { unreadCount: 1 });
    expect(await readsTaking(ahead, 5)).toBe(0);
  });

  // A message changed in place names its key alone: which conversation it is in is not known yet.
  it.each([
    ['its row', 'conversations', 5],
    ['one of its messages changed in place', 'messages', 2],
  ] as const)('is not kept when a write to it is heard while it is under way: %s', async (_what, table, key) => {
    const db = await cached();
    const ahead = new ConversationReadAhead(db);
    ahead.prepare(5);
    // Heard before the read is in (here, before it answers): what it read may be from before it.
    Dexie.on.storagemutated.fire({ [`idb://${db.name}/${table}/`]: new RangeSet(key) });
    await settled();
    expect(await readsTaking(ahead, 5)).toBe(1);
  });

  it('is kept when a write to another conversation is heard while it is under way (a triage key on another row)', async () => {
    const db = await cached();
    const ahead = new ConversationReadAhead(db);
    ahead.prepare(5);
    // What Dexie tells of a row resolved: its key, and the index keys it left and took.
    Dexie.on.storagemutated.fire({
      [`idb://${db.name}/conversations/`]: new RangeSet(6),
      [`idb://${db.name}/conversations/status`]: new RangeSet('open').add({ from: 'resolved', to: 'resolved' }),
      [`idb://${db.name}/outbox/`]: new RangeSet(1),
    });
    await settled();
    expect(await readsTaking(ahead, 5)).toBe(0);
  });

  it('keeps as many as the rows in sight and those rested on, and leaves the closed views\' reads kept', async () => {
    const db = await cached();
    const more = Array.from({ length: PREPARED }, (_, i) => 11 + i);
    await saveConversations(db, more.map((id) => conv(id)));
    const ahead = new ConversationReadAhead(db);
    const views = new Map<number, ConversationRead>();
    for (const id of [5, 6, 7]) views.set(id, await keepRead(db, ahead, id));
    // One more than it keeps, read one after the other (as the rows in sight are).
    for (const id of [8, ...more]) await prepared(ahead, id);
    const reads = indexReads();
    for (const id of [5, 6, 7]) expect(await ahead.take(id)).toBe(views.get(id));
    for (const id of more) await ahead.take(id);
    expect(reads()).toBe(0);
    // The first went.
    await ahead.take(8);
    expect(reads()).toBe(1);
  });
});

describe('what a view can show in its first render (peek)', () => {
  it('is a kept read, left kept: the view still takes the same one', async () => {
    const db = await cached();
    const ahead = new ConversationReadAhead(db);
    expect(ahead.peek(5)).toBeUndefined();
    const read = await keepRead(db, ahead, 5);
    expect(ahead.peek(5)).toBe(read);
    expect(ahead.holds(5)).toBe(true);
    expect(await ahead.take(5)).toBe(read);
    // Taken: nothing in memory for the next view.
    expect(ahead.peek(5)).toBeUndefined();
  });

  it('is a read the press asked, once it has answered and while it is fresh; nothing while it is under way', async () => {
    const db = await cached();
    let now = 0;
    const ahead = new ConversationReadAhead(db, () => now);
    ahead.ahead(5);
    expect(ahead.peek(5)).toBeUndefined();
    await new Promise((done) => setTimeout(done, 50));
    const answered = ahead.peek(5);
    expect(answered?.messages.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(ahead.peek(6)).toBeUndefined();
    expect(await ahead.take(5)).toBe(answered);
    // Asked over a second ago: the view reads afresh, so there is nothing to show first.
    ahead.ahead(6);
    await new Promise((done) => setTimeout(done, 50));
    expect(ahead.peek(6)).toBeDefined();
    now = 1_001;
    expect(ahead.peek(6)).toBeUndefined();
  });

  it('is never what a write overtook', async () => {
    const db = await cached();
    const ahead = new ConversationReadAhead(db);
    await keepRead(db, ahead, 5);
    await db.conversations.update(5, { unreadCount: 4 });
    expect(ahead.peek(5)).toBeUndefined();
    // Asked by a press, a write heard after it answered.
    ahead.ahead(6);
    await new Promise((done) => setTimeout(done, 50));
    expect(ahead.peek(6)).toBeDefined();
    Dexie.on.storagemutated.fire({ [`idb://${db.name}/messages/`]: new RangeSet(10) });
    expect(ahead.peek(6)).toBeUndefined();
  });

  it('is left fresh by a write elsewhere heard after it answered: another conversation\'s row or message', async () => {
    const db = await cached();
    const ahead = new ConversationReadAhead(db);
    ahead.ahead(6);
    await new Promise((done) => setTimeout(done, 50));
    const answered = ahead.peek(6);
    expect(answered).toBeDefined();
    Dexie.on.storagemutated.fire({ [`idb://${db.name}/conversations/`]: new RangeSet(5), [`idb://${db.name}/messages/`]: new RangeSet(1) });
    expect(ahead.peek(6)).toBe(answered);
  });
});
