// The outbox kept in memory for the header's word and the tab counts (db/outbox-summary.ts):
// the same answers as reading the whole outbox, but after the first read a write costs a read of the
// entries and rows it names. Before it, each change read every entry (with its `before` snapshot)
// and the row of every conversation with a change queued: triaging offline slowed with the queue.
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bridge } from '../../shared/bridge/contract';
import { perform } from '../../renderer/src/actions/perform';
import { OutboxSender } from '../../renderer/src/actions/sender';
import { OutboxSummary } from '../../renderer/src/db/outbox-summary';
import type { OutboxSnapshot } from '../../renderer/src/db/outbox-summary';
import { OutboxStatus } from '../../renderer/src/components/OutboxStatus';
import { saveConversations } from '../../renderer/src/db/save';
import { InboxDb } from '../../renderer/src/db/schema';
import { conv, uniqueDbName } from './fixtures';
import { renderWithSession, silentBridge } from './support/render';

const dbs: InboxDb[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const db of dbs.splice(0)) await db.delete();
});

async function seeded(n: number) {
  const db = new InboxDb(uniqueDbName('summary'));
  dbs.push(db);
  await saveConversations(db, Array.from({ length: n }, (_, i) => conv(i + 1)));
  return db;
}

/** What the summary should hold, from the whole outbox and the rows read now. */
async function expected(db: InboxDb) {
  const all = await db.outbox.toArray();
  const ids = [...new Set(all.filter((e) => e.kind !== 'message' && e.conversationId > 0).map((e) => e.conversationId))];
  const rows = new Map((await db.conversations.bulkGet(ids)).filter((r) => r !== undefined).map((r) => [r.id, r]));
  return { entries: all.map((e) => [e.seq, e.conversationId, e.kind, e.state, e.lastErrorKind, e.before?.row?.status]), rows };
}
const shape = (s: OutboxSnapshot | undefined) => ({
  entries: s?.entries.map((e) => [e.seq, e.conversationId, e.kind, e.state, e.lastErrorKind, e.before?.row?.status]),
  rows: s?.rows,
});

function listen(summary: OutboxSummary) {
  let heard = 0;
  const stop = summary.subscribe(() => heard++);
  return { heard: () => heard, stop };
}

describe('the outbox summary', () => {
  it('holds what a read of the whole outbox holds, through adds, changes, deletes and a clear', async () => {
    const db = await seeded(6);
    await perform(db, [1, 2], () => ({ kind: 'status', status: 'resolved', snoozedUntil: null }));
    const summary = new OutboxSummary(db);
    const l = listen(summary);
    await waitFor(async () => expect(shape(summary.snapshot())).toEqual(await expected(db)));
    expect(summary.snapshot()!.rows.get(1)?.status).toBe('resolved');

    await perform(db, [3], () => ({ kind: 'labels', labels: ['vip'] }));
    await perform(db, [4], () => ({ kind: 'message', content: 'hi', private: false, sender: { id: 1, name: 'Sam' } }));
    await waitFor(async () => expect(shape(summary.snapshot())).toEqual(await expected(db)));
    // A message's conversation is not one the counts need.
    expect(summary.snapshot()!.rows.has(4)).toBe(false);

    const [first] = await db.outbox.toArray();
    await db.outbox.update(first!.seq!, { state: 'sending', lastErrorKind: 'network' });
    await db.outbox.delete((await db.outbox.toArray())[1]!.seq!);
    await waitFor(async () => expect(shape(summary.snapshot())).toEqual(await expected(db)));
    expect(summary.snapshot()!.rows.has(2)).toBe(false);

    // A tracked conversation changed by the service: its row is read again.
    await saveConversations(db, [conv(3, { status: 'pending', labels: ['vip'] })], Date.now() + 1000);
    await waitFor(() => expect(summary.snapshot()!.rows.get(3)?.status).toBe('pending'));

    await db.outbox.clear();
    await waitFor(async () => expect(shape(summary.snapshot())).toEqual(await expected(db)));
    expect(summary.snapshot()!.entries).toEqual([]);
    expect(l.heard()).toBeGreaterThan(0);
    l.stop();
  });

  it('after its first read, a write costs a read of what it names, not of the whole outbox', async () => {
    const db = await seeded(40);
    for (let id = 1; id <= 30; id++) await perform(db, [id], () => ({ kind: 'priority', priority: 'high' }));
    const summary = new OutboxSummary(db);
    const l = listen(summary);
    await waitFor(() => expect(summary.snapshot()?.entries).toHaveLength(30));
    const wholeReads = vi.spyOn(db.outbox, 'toArray');
    const entryReads = vi.spyOn(db.outbox, 'bulkGet');
    const rowReads = vi.spyOn(db.conversations, 'bulkGet');

    await perform(db, [31], () => ({ kind: 'status', status: 'resolved', snoozedUntil: null }));
    await waitFor(() => expect(summary.snapshot()?.entries).toHaveLength(31));
    expect(wholeReads).not.toHaveBeenCalled();
    expect(entryReads.mock.calls.map((c) => c[0])).toEqual([[(await db.outbox.toCollection().last())!.seq]]);
    expect(rowReads.mock.calls.map((c) => c[0])).toEqual([[31]]);

    // A conversation no entry is about changes: nothing is read.
    rowReads.mockClear();
    entryReads.mockClear();
    await saveConversations(db, [conv(40, { status: 'pending' })], Date.now() + 1000);
    await db.outbox.count();
    expect(rowReads).not.toHaveBeenCalled();
    expect(entryReads).not.toHaveBeenCalled();
    l.stop();
  });

  it('reads nothing before the session lets it (the first rows on screen)', async () => {
    const db = await seeded(2);
    await perform(db, [1], () => ({ kind: 'priority', priority: 'low' }));
    let go: (() => void) | undefined;
    const summary = new OutboxSummary(db, (run) => ((go = run), () => (go = undefined)));
    const wholeReads = vi.spyOn(db.outbox, 'toArray');
    const l = listen(summary);
    await db.outbox.count();
    expect(wholeReads).not.toHaveBeenCalled();
    expect(summary.snapshot()).toBeUndefined();
    go!();
    await waitFor(() => expect(summary.snapshot()?.entries).toHaveLength(1));
    l.stop();
  });
});

describe('the outbox\'s sender', () => {
  it('finds each conversation\'s next entry from memory, not by reading every entry at each look; a failure still puts it off', async () => {
    const db = await seeded(30);
    for (let id = 1; id <= 20; id++) await perform(db, [id], () => ({ kind: 'priority', priority: 'high' }));
    let calls = 0;
    // The service out of reach: every change fails as not sent, and is put off for most of a minute.
    const bridge = { call: async () => (calls++, { ok: false, error: { kind: 'unreachable', message: 'The service could not be reached.' } }), on: () => () => undefined } as unknown as Bridge;
    const backoff = { baseMs: 60_000, maxMs: 60_000, rateLimitedBaseMs: 60_000, landingWindowMs: 1_000 };
    const sender = new OutboxSender({ db, bridge, notify: () => undefined, backoff, random: () => 0.99 });
    await sender.start();
    const tried = async (n: number) => expect((await db.outbox.toArray()).filter((e) => e.attempts === 1 && e.nextAttemptAt > Date.now())).toHaveLength(n);
    await waitFor(() => tried(20), { timeout: 5_000 });
    const wholeReads = vi.spyOn(db.outbox, 'orderBy');
    for (let id = 21; id <= 25; id++) await perform(db, [id], () => ({ kind: 'priority', priority: 'high' }));
    await waitFor(() => tried(25), { timeout: 5_000 });
    const callsThen = calls;
    await new Promise((done) => setTimeout(done, 200));
    sender.stop();
    expect(wholeReads).not.toHaveBeenCalled();
    // Nothing went again before its time.
    expect(calls).toBe(callsThen);
    expect((await db.outbox.toArray()).every((e) => e.attempts === 1)).toBe(true);
  });
});

describe('the header\'s word on the outbox', () => {
  it('follows triage keys without reading the whole outbox again', async () => {
    const { db } = renderWithSession(<OutboxStatus />, { bridge: silentBridge });
    await saveConversations(db, Array.from({ length: 20 }, (_, i) => conv(i + 1)));
    for (let id = 1; id <= 10; id++) await perform(db, [id], () => ({ kind: 'status', status: 'resolved', snoozedUntil: null }));
    await waitFor(() => expect(screen.getByTestId('outbox-status').textContent).toBe('Saving 10 changes…'));
    const wholeReads = vi.spyOn(db.outbox, 'toArray');
    for (let id = 11; id <= 15; id++) await perform(db, [id], () => ({ kind: 'status', status: 'resolved', snoozedUntil: null }));
    await waitFor(() => expect(screen.getByTestId('outbox-status').textContent).toBe('Saving 15 changes…'));
    expect(wholeReads).not.toHaveBeenCalled();
  });
});
