// The open conversation's read (conversation/conversation-read.ts, db/live-read.ts,
// conversation/read-ahead.ts): one read of row, messages, cursor and record; asked by the event
// that opens the view; followed live, the live read's repeat of the first rendering nothing; no
// write between the first read and the live one missed.
import { act, renderHook, waitFor } from '@testing-library/react';
import { RangeSet } from 'dexie';
import type { ObservabilitySet } from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationRead } from '../../renderer/src/conversation/conversation-read';
import { conversationParts, keepSameRead, patchConversationRead, readConversation } from '../../renderer/src/conversation/conversation-read';
import { ConversationReadAhead } from '../../renderer/src/conversation/read-ahead';
import { useReadAhead } from '../../renderer/src/conversation/use-read-ahead';
import { liveReadSettings, useLiveRead } from '../../renderer/src/db/live-read';
import { saveConversations } from '../../renderer/src/db/save';
import { InboxDb } from '../../renderer/src/db/schema';
import { recordPage } from '../../renderer/src/sync/history';
import { useUi } from '../../renderer/src/state/ui';
import { conv, msg, uniqueDbName } from './fixtures';
import { renderWithSession, silentBridge } from './support/render';

const dbs: InboxDb[] = [];
async function cached(): Promise<InboxDb> {
  const db = new InboxDb(uniqueDbName('read'));
  dbs.push(db);
  await saveConversations(db, [conv(5), conv(6)]);
  await recordPage(db, 5, { kind: 'latest' }, [msg(1, 5), msg(2, 5), msg(3, 5)]);
  await recordPage(db, 6, { kind: 'latest' }, [msg(10, 6)]);
  return db;
}
afterEach(async () => {
  vi.useRealTimers();
  for (const db of dbs.splice(0)) await db.delete();
});

/** What holds the live read's start: a frame, then a timer (db/live-read.ts, platform/frames.ts). */
const followClocks: ('setTimeout' | 'clearTimeout' | 'requestAnimationFrame' | 'cancelAnimationFrame')[] = [
  'setTimeout',
  'clearTimeout',
  'requestAnimationFrame',
  'cancelAnimationFrame',
];
/** Fake time enough for the frame, its timer and the follow delay. */
const followStartsWithin = liveReadSettings.followAfterMs + 100;

/** Lets IndexedDB (fake-indexeddb schedules with setImmediate) and promises settle. */
const settle = async (rounds = 20) => {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
};

describe('reading the open conversation', () => {
  it('reads row, messages (oldest first), cursor and record, and says what is not cached', async () => {
    const db = await cached();
    const read = await readConversation(db, 5);
    expect(read.row?.id).toBe(5);
    expect(read.messages.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(read.cursor?.conversationId).toBe(5);
    expect(read.record?.id).toBe(5);
    expect(await readConversation(db, 99)).toEqual({ row: null, messages: [], olderHeld: false, cursor: null, record: undefined });
  });

  it('keeps what did not change: the same read is the same object; one changed message is the only new one', async () => {
    const db = await cached();
    const a = await readConversation(db, 5);
    expect(keepSameRead(a, await readConversation(db, 5))).toBe(a);
    await db.messages.update(2, { content: 'edited' });
    const b = keepSameRead(a, await readConversation(db, 5));
    expect(b).not.toBe(a);
    expect(b.messages[0]).toBe(a.messages[0]);
    expect(b.messages[1]).not.toBe(a.messages[1]);
    expect(b.messages[1]!.content).toBe('edited');
    expect(b.messages[2]).toBe(a.messages[2]);
    expect(b.row).toBe(a.row);
    expect(b.cursor).toBe(a.cursor);
  });
});

describe('useLiveRead', () => {
  function liveConversation(db: InboxDb, id: { current: number }, first?: () => Promise<ConversationRead>, withParts = false) {
    const reads = vi.fn(() => readConversation(db, id.current));
    const keeps = vi.fn(keepSameRead);
    let renders = 0;
    const covers = withParts ? (shown: ConversationRead) => conversationParts(db, id.current, shown) : undefined;
    const hook = renderHook(() => {
      renders++;
      return useLiveRead(`${db.name}/${id.current}`, reads, keeps, { first, covers });
    });
    return { hook, reads, keeps, renders: () => renders };
  }

  it('shows the first read at once; the live read repeating it renders nothing; then follows changes', async () => {
    const db = await cached();
    // liveQuery's first run waits for a frame and then a timer: both held here until the first
    // read has shown. The frame is faked too: a real one could come during settle() on a loaded
    // machine, leaving the follow timer scheduled on fake timers that nothing runs.
    vi.useFakeTimers({ toFake: followClocks });
    const { hook, reads, keeps, renders } = liveConversation(db, { current: 5 });
    await act(() => settle());
    expect(hook.result.current?.messages.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(reads).toHaveBeenCalledTimes(1);
    const shownFirst = hook.result.current;
    const rendersFirst = renders();
    act(() => void vi.advanceTimersByTime(followStartsWithin));
    vi.useRealTimers();
    // liveQuery read it again, found the same, and nothing rendered.
    await waitFor(() => expect(keeps).toHaveBeenCalledTimes(1));
    expect(reads).toHaveBeenCalledTimes(2);
    expect(hook.result.current).toBe(shownFirst);
    expect(renders()).toBe(rendersFirst);
    const before = hook.result.current!;

    // A message edited, one added, the row and the cursor changed: each shows.
    await act(() => db.messages.update(2, { content: 'edited' }));
    await waitFor(() => expect(hook.result.current?.messages[1]!.content).toBe('edited'));
    expect(hook.result.current!.messages[0]).toBe(before.messages[0]);
    await act(() => recordPage(db, 5, { kind: 'latest' }, [msg(3, 5), msg(4, 5)]));
    await waitFor(() => expect(hook.result.current?.messages.map((m) => m.id)).toEqual([1, 2, 3, 4]));
    await act(() => db.conversations.update(5, { unreadCount: 7 }));
    await waitFor(() => expect(hook.result.current?.row?.unreadCount).toBe(7));
    // Another conversation's messages are not its change.
    const shown = hook.result.current;
    await act(async () => {
      await recordPage(db, 6, { kind: 'latest' }, [msg(10, 6), msg(11, 6)]);
      await settle();
    });
    expect(hook.result.current).toBe(shown);
    hook.unmount();
  });

  it('a write between the first read and the live run is not missed', async () => {
    const db = await cached();
    vi.useFakeTimers({ toFake: followClocks });
    // The first read answers what it read; then a message is edited before the live run starts.
    const stale = await readConversation(db, 5);
    const { hook } = liveConversation(db, { current: 5 }, () => Promise.resolve(stale));
    await act(() => settle());
    expect(hook.result.current).toBe(stale);
    await act(async () => {
      await db.messages.update(3, { content: 'written meanwhile' });
      await settle();
    });
    act(() => void vi.advanceTimersByTime(followStartsWithin));
    vi.useRealTimers();
    await waitFor(() => expect(hook.result.current?.messages[2]!.content).toBe('written meanwhile'));
    hook.unmount();
  });

  describe('until it follows', () => {
    // Long enough that only a write can start it within a test.
    beforeEach(() => void (liveReadSettings.followAfterMs = 60_000));
    afterEach(() => void (liveReadSettings.followAfterMs = 250));

    it('a write elsewhere does not start it; an edit of a message it shows does, at once', async () => {
      const db = await cached();
      const { hook, reads } = liveConversation(db, { current: 5 }, undefined, true);
      await waitFor(() => expect(hook.result.current?.messages.map((m) => m.id)).toEqual([1, 2, 3]));
      // Another conversation's messages, a setting: still waiting (a start would read it again).
      await act(async () => {
        await recordPage(db, 6, { kind: 'latest' }, [msg(10, 6), msg(12, 6)]);
        await db.settings.put({ key: 'x', value: 1 });
        await new Promise((r) => setTimeout(r, 100));
      });
      expect(reads).toHaveBeenCalledTimes(1);
      await act(() => db.messages.update(2, { content: 'edited' }));
      await waitFor(() => expect(hook.result.current?.messages[1]!.content).toBe('edited'));
      expect(reads).toHaveBeenCalledTimes(2);
      hook.unmount();
    });

    it('a message added to it shows at once; so does a change of its row', async () => {
      const db = await cached();
      const { hook } = liveConversation(db, { current: 5 }, undefined, true);
      await waitFor(() => expect(hook.result.current?.row?.id).toBe(5));
      await act(() => recordPage(db, 5, { kind: 'latest' }, [msg(3, 5), msg(4, 5)]));
      await waitFor(() => expect(hook.result.current?.messages.map((m) => m.id)).toEqual([1, 2, 3, 4]));
      hook.unmount();
      const again = liveConversation(db, { current: 5 }, undefined, true);
      await waitFor(() => expect(again.hook.result.current?.row?.id).toBe(5));
      await act(() => db.conversations.update(5, { unreadCount: 4 }));
      await waitFor(() => expect(again.hook.result.current?.row?.unreadCount).toBe(4));
      again.hook.unmount();
    });
  });

  describe('once it follows, a write read back alone (patch)', () => {
    async function following(db: InboxDb) {
      const reads = vi.fn(() => readConversation(db, 5));
      const patches = vi.fn((shown: ConversationRead, changes: ObservabilitySet[]) => patchConversationRead(db, 5, shown, changes));
      let renders = 0;
      const hook = renderHook(() => {
        renders++;
        return useLiveRead(`${db.name}/5`, reads, keepSameRead, { covers: (shown) => conversationParts(db, 5, shown), patch: patches });
      });
      // The first read, then the read of it all that following starts with.
      await waitFor(() => expect(reads).toHaveBeenCalledTimes(2));
      await act(() => settle());
      return { hook, reads, patches, renders: () => renders };
    }
    const ids = (read: ConversationRead | undefined) => read?.messages.map((m) => m.id);

    it('a reply, an edit, a message gone, its row: each shown, and the history not read again', async () => {
      const db = await cached();
      const { hook, reads, patches } = await following(db);
      const before = hook.result.current!;
      await act(() => db.messages.put(msg(4, 5)));
      await waitFor(() => expect(ids(hook.result.current)).toEqual([1, 2, 3, 4]));
      // The messages that did not change are the objects shown before.
      expect(hook.result.current!.messages[0]).toBe(before.messages[0]);
      await act(() => db.messages.update(2, { content: 'edited' }));
      await waitFor(() => expect(hook.result.current?.messages[1]!.content).toBe('edited'));
      await act(() => db.messages.delete(1));
      await waitFor(() => expect(ids(hook.result.current)).toEqual([2, 3, 4]));
      await act(() => db.conversations.update(5, { unreadCount: 3 }));
      await waitFor(() => expect(hook.result.current?.row?.unreadCount).toBe(3));
      // Moved to another conversation: no longer this one's.
      await act(() => db.messages.update(3, { conversation_id: 6 }));
      await waitFor(() => expect(ids(hook.result.current)).toEqual([2, 4]));
      expect(reads).toHaveBeenCalledTimes(2);
      expect(patches.mock.calls.length).toBeGreaterThanOrEqual(5);
      hook.unmount();
    });

    it('writes told while one is read back are read back after it: none is missed', async () => {
      const db = await cached();
      const { hook, reads } = await following(db);
      await act(async () => {
        await Promise.all([db.messages.put(msg(7, 5)), db.messages.put(msg(8, 5)), db.messages.put(msg(6, 5))]);
        await db.messages.update(7, { content: 'seventh' });
      });
      await waitFor(() => expect(ids(hook.result.current)).toEqual([1, 2, 3, 6, 7, 8]));
      await waitFor(() => expect(hook.result.current?.messages[4]!.content).toBe('seventh'));
      expect(reads).toHaveBeenCalledTimes(2);
      hook.unmount();
    });

    it("another conversation's messages render nothing; a page of 50 or more reads it all again", async () => {
      const db = await cached();
      const { hook, reads, renders } = await following(db);
      const shown = hook.result.current;
      const rendersBefore = renders();
      await act(async () => {
        await db.messages.put(msg(11, 6));
        await settle();
      });
      expect(hook.result.current).toBe(shown);
      expect(renders()).toBe(rendersBefore);
      // Dexie names the keys of a write of fewer than 50 only: a larger page is read whole.
      const page = Array.from({ length: 50 }, (_, i) => msg(100 + i, 5));
      await act(() => db.messages.bulkPut(page));
      await waitFor(() => expect(hook.result.current?.messages).toHaveLength(53));
      expect(reads).toHaveBeenCalledTimes(3);
      hook.unmount();
    });
  });

  it('patchConversationRead: a first read of the newest only, or a write of a range, is read whole', async () => {
    const db = await cached();
    const newest = await readConversation(db, 5, 2);
    expect(newest.olderHeld).toBe(true);
    const one = { [`idb://${db.name}/messages/`]: new RangeSet().addKey(3) };
    expect(patchConversationRead(db, 5, newest, [one])).toBeUndefined();
    const all = await readConversation(db, 5);
    expect(patchConversationRead(db, 5, all, [{ [`idb://${db.name}/messages/`]: new RangeSet(1, 9) }])).toBeUndefined();
    // Keys named one by one: read back, and nothing else changed.
    const patched = await patchConversationRead(db, 5, all, [one])!;
    expect(keepSameRead(all, patched)).toBe(all);
  });

  it('another key shows nothing of the last until its own read answers', async () => {
    const db = await cached();
    const id = { current: 5 };
    const { hook } = liveConversation(db, id);
    await waitFor(() => expect(hook.result.current?.row?.id).toBe(5));
    id.current = 6;
    hook.rerender();
    expect(hook.result.current).toBeUndefined();
    await waitFor(() => expect(hook.result.current?.messages.map((m) => m.id)).toEqual([10]));
    hook.unmount();
  });

  describe('a first answer already in memory (inMemory)', () => {
    function fromMemory(db: InboxDb, inMemory: () => ConversationRead | undefined, first: () => Promise<ConversationRead>) {
      let renders = 0;
      const hook = renderHook(() => {
        renders++;
        return useLiveRead(`${db.name}/5`, () => readConversation(db, 5), keepSameRead, { first, inMemory, covers: (shown) => conversationParts(db, 5, shown) });
      });
      return { hook, renders: () => renders };
    }

    it('shows in the first render; the first read answering the same renders nothing more', async () => {
      const db = await cached();
      const held = await readConversation(db, 5);
      const first = vi.fn(() => Promise.resolve(held));
      const { hook, renders } = fromMemory(db, () => held, first);
      // Before any promise has settled.
      expect(hook.result.current).toBe(held);
      expect(renders()).toBe(1);
      await act(() => settle());
      expect(first).toHaveBeenCalledTimes(1);
      expect(hook.result.current).toBe(held);
      expect(renders()).toBe(1);
      // It knows what it showed rests on: an edit of one of its messages shows at once, before
      // liveQuery would follow by the clock.
      liveReadSettings.followAfterMs = 60_000;
      try {
        await act(() => db.messages.update(2, { content: 'edited' }));
        await waitFor(() => expect(hook.result.current?.messages[1]!.content).toBe('edited'));
      } finally {
        liveReadSettings.followAfterMs = 250;
      }
      hook.unmount();
    });

    it('is replaced when the first read answers otherwise (a write overtook it meanwhile)', async () => {
      const db = await cached();
      const held = await readConversation(db, 5);
      await db.messages.update(3, { content: 'written meanwhile' });
      const { hook } = fromMemory(db, () => held, () => readConversation(db, 5));
      expect(hook.result.current).toBe(held);
      await waitFor(() => expect(hook.result.current?.messages[2]!.content).toBe('written meanwhile'));
      hook.unmount();
    });

    it('nothing in memory: nothing until the first read answers, as before', async () => {
      const db = await cached();
      const { hook } = fromMemory(db, () => undefined, () => readConversation(db, 5));
      expect(hook.result.current).toBeUndefined();
      await waitFor(() => expect(hook.result.current?.messages.map((m) => m.id)).toEqual([1, 2, 3]));
      hook.unmount();
    });
  });

  it('a failed read fails the render, as useLiveQuery does', async () => {
    const db = await cached();
    const failing = () => Promise.reject(new Error('cache unreadable'));
    const errors: unknown[] = [];
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const hook = renderHook(() => {
      try {
        return useLiveRead(`${db.name}/x`, failing, (_a, b) => b);
      } catch (e) {
        errors.push(e);
        return 'failed';
      }
    });
    await waitFor(() => expect(hook.result.current).toBe('failed'));
    expect(errors[0]).toMatchObject({ message: 'cache unreadable' });
    hook.unmount();
  });
});

describe('the read ahead', () => {
  it('is taken once, for its own conversation, while fresh; else the view reads anew', async () => {
    const db = await cached();
    let now = 0;
    const ahead = new ConversationReadAhead(db, () => now);
    ahead.ahead(5);
    const first = ahead.take(5);
    expect((await first).messages.map((m) => m.id)).toEqual([1, 2, 3]);
    // Taken: the next take reads anew (another promise, the same data).
    const again = ahead.take(5);
    expect(again).not.toBe(first);
    expect((await again).row?.id).toBe(5);
    // Another conversation's read is not this one's.
    ahead.ahead(5);
    expect((await ahead.take(6)).row?.id).toBe(6);
    // A write to what it reads after it was asked (a message arriving): the view reads anew.
    ahead.ahead(5);
    await db.conversations.update(5, { unreadCount: 9 });
    expect((await ahead.take(5)).row?.unreadCount).toBe(9);
    // A read asked long ago is not used: what it read may have changed since.
    ahead.ahead(5);
    await db.messages.update(1, { content: 'later' });
    now += 5_000;
    expect((await ahead.take(5)).messages[0]!.content).toBe('later');
  });

  it('a failed read fails the take', async () => {
    const db = await cached();
    const ahead = new ConversationReadAhead(db);
    vi.spyOn(db.cursors, 'get').mockRejectedValueOnce(new Error('cache unreadable'));
    await expect(ahead.take(5)).rejects.toThrow('cache unreadable');
  });

  it('starts in the event that opens a conversation, before React renders it', () => {
    function Probe() {
      useReadAhead();
      return null;
    }
    const { inbox, unmount } = renderWithSession(<Probe />, { bridge: silentBridge });
    const ahead = vi.spyOn(inbox.conversations.readAhead, 'ahead');
    // Synchronously inside the store's change: no render, no effect has run yet.
    useUi.getState().select(5);
    expect(ahead).toHaveBeenCalledWith(5);
    useUi.getState().select(5);
    useUi.getState().select(undefined);
    expect(ahead).toHaveBeenCalledTimes(1);
    unmount();
    useUi.getState().select(6);
    expect(ahead).toHaveBeenCalledTimes(1);
    useUi.getState().select(undefined);
  });
});
