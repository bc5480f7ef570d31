// The pure parts of the write path: how each intent looks in the cache, how a rollback puts back
// only the fields an action changed, and how failures are read and backed off.
import { describe, expect, it } from 'vitest';
import type { Cached, Intent } from '../../renderer/src/model/intent';
import { applyIntent, combineLabelChanges, describeIntent, isLocalMessage, localMessageId, normalizeLabels, restoreFields } from '../../renderer/src/model/intent';
import { changeLabels, setStatus } from '../../renderer/src/actions/agent-actions';
import { saveConversations } from '../../renderer/src/db/save';
import { InboxDb } from '../../renderer/src/db/schema';
import { uniqueDbName } from './fixtures';
import type { InFlight } from '../../renderer/src/actions/in-flight';
import { InFlightActions } from '../../renderer/src/actions/in-flight';
import { withPending } from '../../renderer/src/model/overlay';
import { cursorAfter, defaultView, withInFlight } from '../../renderer/src/conversations/view';
import { classify, defaultBackoff, retryDelay } from '../../renderer/src/actions/retry-policy';
import { toCachedConversation } from '../../renderer/src/model/normalize';
import type { OutboxEntry } from '../../renderer/src/db/schema';
import { conv } from './fixtures';

const cached = (c = conv(5, { status: 'open', labels: ['billing'], priority: 'low', assignee: 2, team: 1, unread: 3 })): Cached => ({ row: toCachedConversation(c), record: c });
const at = Date.UTC(2026, 10, 21, 12, 0);

describe('applyIntent', () => {
  it('sets each field in the list row and the full record alike', () => {
    const start = cached();
    const snoozed = applyIntent(start, { kind: 'status', status: 'snoozed', snoozedUntil: 1_800_000_000 }, at);
    expect([snoozed.row!.status, snoozed.record!.status, snoozed.record!.snoozed_until]).toEqual(['snoozed', 'snoozed', new Date(1_800_000_000_000).toISOString()]);
    expect(applyIntent(snoozed, { kind: 'status', status: 'open', snoozedUntil: null }, at).record!.snoozed_until).toBeNull();
    const urgent = applyIntent(start, { kind: 'priority', priority: 'urgent' }, at);
    expect([urgent.row!.priority, urgent.row!.priorityRank, urgent.record!.priority]).toEqual(['urgent', 3, 'urgent']);
    const jordan = applyIntent(start, { kind: 'assignee', assignee: { id: 3, name: 'Jordan Lee' } }, at);
    expect([jordan.row!.assigneeId, jordan.row!.assigneeName, jordan.record!.meta.assignee?.name]).toEqual([3, 'Jordan Lee', 'Jordan Lee']);
    const nobody = applyIntent(start, { kind: 'assignee', assignee: null }, at);
    expect([nobody.row!.assigneeId, nobody.row!.assigneeName, nobody.record!.meta.assignee]).toEqual([0, '', null]);
    expect(applyIntent(start, { kind: 'team', team: null }, at).row!.teamId).toBe(0);
    expect(applyIntent(start, { kind: 'labels', labels: ['vip', ' billing', 'vip'] }, at).row!.labels).toEqual(['billing', 'vip']);
    expect(applyIntent(start, { kind: 'read' }, at).row!.unreadCount).toBe(0);
    expect(applyIntent(applyIntent(start, { kind: 'read' }, at), { kind: 'unread' }, at).row!.unreadCount).toBe(1);
    const reply = applyIntent(start, { kind: 'message', content: 'On **it**', private: false, sender: { id: 2, name: 'Sam' } }, at);
    expect([reply.row!.preview, reply.row!.lastActivityAt, reply.row!.waitingSince]).toEqual(['On it', at / 1000, 0]);
    // The input is never changed in place.
    expect(start.row!.status).toBe('open');
  });

  it('works on a conversation never cached (nothing to show, nothing to break)', () => {
    expect(applyIntent({ row: undefined, record: undefined }, { kind: 'status', status: 'resolved', snoozedUntil: null }, at)).toEqual({ row: undefined, record: undefined });
  });
});

describe('restoreFields', () => {
  it('puts back only the fields of the action\'s kind', () => {
    const before = cached();
    let now = applyIntent(before, { kind: 'labels', labels: ['x'] }, at);
    now = applyIntent(now, { kind: 'priority', priority: 'high' }, at);
    const back = restoreFields(now, before, 'labels');
    expect([back.row!.labels, back.record!.labels, back.row!.priority]).toEqual([['billing'], ['billing'], 'high']);
  });
});

describe('withPending', () => {
  it('re-applies queued intents in order over a service record', () => {
    const entry = (seq: number, payload: Intent): OutboxEntry => ({ seq, clientId: `c${seq}`, conversationId: 5, kind: payload.kind, payload, state: 'queued', createdAt: at, attempts: 0, nextAttemptAt: 0 });
    const out = withPending(conv(5, { status: 'open' }), [entry(1, { kind: 'status', status: 'pending', snoozedUntil: null }), entry(2, { kind: 'status', status: 'resolved', snoozedUntil: null })]);
    expect([out.row.status, out.record.status]).toEqual(['resolved', 'resolved']);
  });
});

describe('local messages', () => {
  it('live above every service id', () => {
    expect(isLocalMessage({ id: localMessageId(1) })).toBe(true);
    expect(isLocalMessage({ id: 2_147_483_647 })).toBe(false);
    expect(normalizeLabels([' b', 'a', 'b', ''])).toEqual(['a', 'b']);
    expect(describeIntent({ kind: 'assignee', assignee: { id: 3, name: 'Jordan Lee' } })).toBe('assign Jordan Lee to');
  });
});

describe('retry policy', () => {
  it('reads refusals, unprocessed requests and unknown outcomes apart', () => {
    expect(['validation', 'not_found', 'forbidden', 'invalid_input', 'unauthorized'].map((k) => classify(k as never))).toEqual(Array(5).fill('refused'));
    expect(['rate_limited', 'session_expired', 'not_signed_in', 'unreachable'].map((k) => classify(k as never))).toEqual(Array(4).fill('not_processed'));
    expect(['network', 'timeout', 'server', 'bad_response', 'internal'].map((k) => classify(k as never))).toEqual(Array(5).fill('unknown'));
  });

  it('backs off with full jitter up to a cap, slower after 429', () => {
    const top = () => 0.999_999;
    expect(retryDelay(defaultBackoff, 1, 'network', top)).toBe(999);
    expect(retryDelay(defaultBackoff, 3, 'network', top)).toBe(3_999);
    expect(retryDelay(defaultBackoff, 30, 'network', top)).toBe(59_999);
    expect(retryDelay(defaultBackoff, 1, 'rate_limited', top)).toBe(4_999);
    expect(retryDelay(defaultBackoff, 5, 'network', () => 0)).toBe(0);
  });
});

describe('changeLabels', () => {
  it('sends each conversation its full set, nothing when unchanged, and the change itself for one not cached (its set is unknown)', async () => {
    const db = new InboxDb(uniqueDbName('labels'));
    await saveConversations(db, [conv(1, { labels: ['billing'] }), conv(2, { labels: ['vip'] })]);
    const ctx = { db, me: { id: 2, name: 'Sam' } };
    const done = await changeLabels(ctx, [1, 2, 3], { add: ['vip'] });
    expect(done.map((d) => d.conversationId)).toEqual([1, 3]);
    expect((await db.outbox.toArray()).map((e) => e.payload)).toEqual([
      { kind: 'labels', labels: ['billing', 'vip'] },
      { kind: 'labels', labels: ['vip'], change: { add: ['vip'], remove: [] } },
    ]);
    db.close();
  });

  it('applies a relative change to whatever set it meets', () => {
    const change = { add: ['vip'], remove: ['spam'] };
    const after = applyIntent({ row: toCachedConversation(conv(1, { labels: ['billing', 'spam'] })), record: conv(1, { labels: ['spam'] }) }, { kind: 'labels', labels: ['vip'], change }, at);
    expect(after.row!.labels).toEqual(['billing', 'vip']);
    expect(after.record!.labels).toEqual(['vip']);
    expect(combineLabelChanges({ add: ['a', 'b'], remove: ['c'] }, { add: ['c'], remove: ['a'] })).toEqual({ add: ['b', 'c'], remove: ['a'] });
  });
});

describe('actions in flight (applied in memory until the list has read them back)', () => {
  it('a resolved row leaves an Open view at once; other changes show on their rows', () => {
    const rows = [conv(1, { assignee: 2 }), conv(2, { assignee: 2 }), conv(3, { assignee: 2 })].map(toCachedConversation);
    const item = (n: number, ids: number[], intent: Intent): InFlight => ({ n, ids, intentFor: () => intent, at });
    const shown = withInFlight(rows, [item(1, [2], { kind: 'status', status: 'resolved', snoozedUntil: null }), item(2, [3], { kind: 'labels', labels: ['vip'] })], defaultView, 2);
    expect(shown.map((r) => r.id)).toEqual([1, 3]);
    expect(shown[1]!.labels).toEqual(['vip']);
    // Assigned away from me: leaves Mine.
    expect(withInFlight(rows, [item(3, [1], { kind: 'assignee', assignee: { id: 4, name: 'Priya' } })], defaultView, 2).map((r) => r.id)).toEqual([2, 3]);
    expect(withInFlight(rows, [], defaultView, 2)).toBe(rows);
  });

  it('changes only the rows named, wherever they are, keeping every other row as it was', () => {
    const rows = [1, 2, 3, 4, 5, 6, 7, 8].map((id) => toCachedConversation(conv(id, { assignee: 2 })));
    const item = (n: number, ids: number[], intent: Intent | undefined): InFlight => ({ n, ids, intentFor: () => intent, at });
    const resolve: Intent = { kind: 'status', status: 'resolved', snoozedUntil: null };
    const shown = withInFlight(rows, [item(1, [2, 5], resolve), item(2, [3, 8], { kind: 'labels', labels: ['vip'] }), item(3, [6], undefined)], defaultView, 2);
    expect(shown.map((r) => r.id)).toEqual([1, 3, 4, 6, 7, 8]);
    expect(shown.filter((r) => r.labels.includes('vip')).map((r) => r.id)).toEqual([3, 8]);
    // Untouched rows (named or not) are the same objects, and the rows given are not changed.
    for (const id of [1, 4, 6, 7]) expect(shown.find((r) => r.id === id)).toBe(rows[id - 1]);
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Named but nothing to change: the rows themselves.
    expect(withInFlight(rows, [item(4, [6, 7], undefined)], defaultView, 2)).toBe(rows);
    // The last row leaving, and the first.
    expect(withInFlight(rows, [item(5, [8, 1], resolve)], defaultView, 2).map((r) => r.id)).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('the cursor on a row an action takes out goes where the list\'s rule puts it: the row that then sits at its place', () => {
    const resolve: Intent = { kind: 'status', status: 'resolved', snoozedUntil: null };
    const label: Intent = { kind: 'labels', labels: ['vip'] };
    // The rule as use-list.ts's effect applies it once the rows have left.
    const plain = (rows: ReturnType<typeof toCachedConversation>[], cursor: number, item: InFlight) => {
      const after = withInFlight(rows, [item], defaultView, 2);
      if (after.some((r) => r.id === cursor)) return undefined;
      const was = rows.findIndex((r) => r.id === cursor);
      return was >= 0 && after.length ? after[Math.min(was, after.length - 1)]!.id : undefined;
    };
    let seed = 7;
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    let moved = 0;
    for (let n = 0; n < 2_000; n++) {
      const count = 1 + Math.floor(random() * 12);
      const rows = Array.from({ length: count }, (_, i) => toCachedConversation(conv(i + 1, { assignee: 2 })));
      const ids = rows.filter(() => random() < 0.3).map((r) => r.id);
      const cursor = 1 + Math.floor(random() * (count + 1));
      if (random() < 0.7) ids.push(cursor);
      // Each named row resolved or labelled (a label does not take it out of the view).
      const intents = new Map(ids.map((id) => [id, random() < 0.8 ? resolve : label]));
      const item: InFlight = { n: 1, ids, intentFor: (_c, id) => intents.get(id), at };
      const want = plain(rows, cursor, item);
      expect(cursorAfter(rows, cursor, item, defaultView, 2), `${count} rows, cursor ${cursor}, ids ${ids.join(',')}`).toBe(want);
      if (want !== undefined) moved++;
    }
    // Most cases move the cursor (so the cases above are not all "it stays").
    expect(moved).toBeGreaterThan(500);
    // Plain cases: the next row; the last row leaving: the one above it; a label change: it stays.
    const rows = [1, 2, 3, 4].map((id) => toCachedConversation(conv(id, { assignee: 2 })));
    const item = (ids: number[], intent: Intent): InFlight => ({ n: 1, ids, intentFor: () => intent, at });
    expect(cursorAfter(rows, 2, item([2], resolve), defaultView, 2)).toBe(3);
    expect(cursorAfter(rows, 4, item([4], resolve), defaultView, 2)).toBe(3);
    expect(cursorAfter(rows, 2, item([1, 2], resolve), defaultView, 2)).toBe(4);
    expect(cursorAfter(rows, 2, item([2], label), defaultView, 2)).toBeUndefined();
    expect(cursorAfter(rows, 2, item([3], resolve), defaultView, 2)).toBeUndefined();
    expect(cursorAfter(rows, 2, item([1, 2, 3, 4], resolve), defaultView, 2)).toBeUndefined();
  });

  it('go once a list query that started after their commit has read them', () => {
    const inFlight = new InFlightActions();
    const a = inFlight.begin([1], () => ({ kind: 'read' }), at);
    const b = inFlight.begin([2], () => ({ kind: 'read' }), at);
    inFlight.committed(a);
    const startedAfterA = performance.now();
    inFlight.settledBefore(startedAfterA - 1_000);
    expect(inFlight.items().map((i) => i.n)).toEqual([a, b]);
    inFlight.settledBefore(startedAfterA);
    expect(inFlight.items().map((i) => i.n)).toEqual([b]);
  });

  it('a change is shown from the key handler on, before its write commits, and taken back when the write fails', async () => {
    const db = new InboxDb(uniqueDbName());
    await db.conversations.put(toCachedConversation(conv(7, { assignee: 2 })));
    const inFlight = new InFlightActions();
    const renders: number[] = [];
    inFlight.subscribe(() => renders.push(inFlight.items().length));
    const ctx = { db, me: { id: 2, name: 'Me' }, inFlight };
    // Shown synchronously: the list reads it on the very next frame.
    const ok = setStatus(ctx, [7], 'resolved');
    expect(inFlight.items().map((i) => i.ids)).toEqual([[7]]);
    expect(inFlight.items()[0]!.committedAt).toBeUndefined();
    await ok;
    expect(inFlight.items()[0]!.committedAt).toBeDefined();
    expect((await db.outbox.toArray()).map((e) => e.conversationId)).toEqual([7]);
    inFlight.settledBefore(performance.now());
    // The cache refuses the write: what was shown goes, and nothing is queued.
    db.close();
    const refused = setStatus(ctx, [7], 'open');
    expect(inFlight.items()).toHaveLength(1);
    await expect(refused).rejects.toThrow();
    expect(inFlight.items()).toHaveLength(0);
    expect(renders).toEqual([1, 0, 1, 0]);
  });
});
