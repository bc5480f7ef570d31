// List views against the real demo service: the cache, read with each view's predicate and order,
// gives exactly the list the service gives (tabs, statuses, inbox/team/label filters, every sort),
// the tab counts are the service's, and a conversation that left a view does not linger in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../../shared/bridge/contract';
import { RECHECK_LIMIT, revalidateView, reconcileView } from '../../renderer/src/conversations/revalidate';
import { refreshConversation } from '../../renderer/src/sync/refresh';
import type { ListView } from '../../renderer/src/conversations/view';
import { countsKey, listInput, patchView, readFirstRows, readView, sortOptions } from '../../renderer/src/conversations/view';
import { InboxDb } from '../../renderer/src/db/schema';
import { saveConversations } from '../../renderer/src/db/save';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { conv, uniqueDbName } from './fixtures';
import { demoBridge } from './support/demo-bridge';

let svc: DemoService;
let bridge: Bridge;
let meId: number;

beforeAll(async () => {
  svc = await demoService();
  const demo = await demoBridge(svc);
  bridge = demo.bridge;
  meId = demo.session.user.id;
});
afterAll(() => svc.close());

/** The service's whole list for a view, page by page, in its order. */
async function serviceIds(view: ListView): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const r = await bridge.call('conversations.list', listInput(view, page));
    if (!r.ok) throw new Error(r.error.message);
    if (!r.value.data.payload.length) return ids;
    ids.push(...r.value.data.payload.map((c) => c.id));
  }
}

const ids = async (db: InboxDb, view: ListView) => (await readView(db, view, meId)).map((c) => c.id);
const inboxId = () => (svc.db.prepare("SELECT id FROM inboxes WHERE name = 'Email support'").get() as { id: number }).id;
const teamId = () => (svc.db.prepare("SELECT id FROM teams WHERE name = 'billing'").get() as { id: number }).id;

describe('cached views match the service', () => {
  it('for each tab and status, with filters, read from one shared cache', async () => {
    const db = new InboxDb(uniqueDbName());
    const views: ListView[] = [];
    for (const status of ['open', 'pending', 'snoozed', 'resolved', 'all'] as const) {
      for (const tab of ['me', 'unassigned', 'all'] as const) views.push({ tab, status, sortBy: 'last_activity_at_desc' });
    }
    views.push(
      { tab: 'all', status: 'all', inboxId: inboxId(), sortBy: 'last_activity_at_desc' },
      { tab: 'me', status: 'open', teamId: teamId(), sortBy: 'last_activity_at_desc' },
      { tab: 'all', status: 'all', label: 'vip', sortBy: 'last_activity_at_desc' },
      { tab: 'unassigned', status: 'all', label: 'bug', inboxId: inboxId(), sortBy: 'created_at_asc' },
    );
    // Fill the cache with every view first: each view's read must then pick exactly its own rows
    // out of rows that belong to the others.
    for (const v of views) expect((await revalidateView(bridge, db, v, meId)).complete).toBe(true);
    for (const v of views) expect(await ids(db, v), JSON.stringify(v)).toEqual(await serviceIds(v));
    // Sanity: the views are not trivially empty or identical.
    expect(new Set(await Promise.all(views.map(async (v) => (await ids(db, v)).length))).size).toBeGreaterThan(5);
  }, 30_000);

  it.each(sortOptions.map((s) => s.value))('sorts by %s in the service\'s order', async (sortBy) => {
    const db = new InboxDb(uniqueDbName());
    const view: ListView = { tab: 'all', status: 'all', sortBy };
    await revalidateView(bridge, db, view, meId);
    const cached = await ids(db, view);
    expect(cached.length).toBeGreaterThan(250); // the agent sees the inboxes they are a member of
    expect(cached).toEqual(await serviceIds(view));
  }, 30_000);

  it('stores the service\'s tab counts, computed before the assignee filter', async () => {
    const db = new InboxDb(uniqueDbName());
    const view: ListView = { tab: 'me', status: 'open', sortBy: 'last_activity_at_desc' };
    await revalidateView(bridge, db, view, meId);
    const stored = (await db.viewCounts.get(countsKey(view)))!.counts;
    const r = await bridge.call('conversations.list', { status: 'open', assigneeType: 'unassigned' });
    expect(r.ok && r.value.data.meta).toEqual(stored);
    // The counts are the service's, not the cache's: all_count covers every tab.
    expect(stored.all_count).toBe((await serviceIds({ ...view, tab: 'all' })).length);
    expect(stored.mine_count).toBe((await ids(db, view)).length);
  }, 30_000);
});

describe('the first rows of a view, for the first paint', () => {
  it('are exactly the first rows of the whole view, for every view an index holds in order, and nothing for the others', async () => {
    const db = new InboxDb(uniqueDbName());
    await revalidateView(bridge, db, { tab: 'all', status: 'all', sortBy: 'last_activity_at_desc' }, meId);
    // Ties on last activity must break by id as the service's order does.
    const tied = (await db.conversations.toArray()).slice(0, 6);
    await db.conversations.bulkPut(tied.map((c) => ({ ...c, lastActivityAt: tied[0]!.lastActivityAt })));
    let served = 0;
    for (const status of ['open', 'pending', 'snoozed', 'resolved', 'all'] as const) {
      for (const tab of ['me', 'unassigned', 'all'] as const) {
        for (const sortBy of sortOptions.map((o) => o.value)) {
          for (const filter of [{}, { inboxId: inboxId() }, { teamId: teamId() }, { label: 'vip' }]) {
            const view: ListView = { tab, status, sortBy, ...filter };
            const whole = await readView(db, view, meId);
            for (const limit of [1, 5, 60]) {
              const first = await readFirstRows(db, view, meId, limit);
              const ordered = (sortBy === 'last_activity_at_desc' || sortBy === 'last_activity_at_asc') && status !== 'all';
              if (!ordered) {
                expect(first, JSON.stringify(view)).toBeUndefined();
                continue;
              }
              served++;
              expect(first?.map((c) => c.id), `${JSON.stringify(view)} limit ${limit}`).toEqual(whole.slice(0, limit).map((c) => c.id));
            }
          }
        }
      }
    }
    expect(served).toBe(4 * 3 * 2 * 4 * 3);
    // Sanity: the cache holds more than a first screen of some served view.
    expect((await readView(db, { tab: 'all', status: 'open', sortBy: 'last_activity_at_desc' }, meId)).length).toBeGreaterThan(60);
  }, 60_000);
});

describe('a view kept current by the rows a write names', () => {
  it('patching the changed rows into the view as read gives what reading the whole view again gives, for every view', async () => {
    const db = new InboxDb(uniqueDbName());
    await revalidateView(bridge, db, { tab: 'all', status: 'all', sortBy: 'last_activity_at_desc' }, meId);
    const all = await db.conversations.toArray();
    expect(all.length).toBeGreaterThan(10);
    const views: ListView[] = [];
    for (const status of ['open', 'resolved', 'all'] as const) {
      for (const tab of ['me', 'unassigned', 'all'] as const) {
        for (const sortBy of sortOptions.map((o) => o.value)) views.push({ tab, status, sortBy }, { tab, status, sortBy, label: 'vip' });
      }
    }
    const before = new Map<string, Awaited<ReturnType<typeof readView>>>();
    for (const view of views) before.set(JSON.stringify(view), await readView(db, view, meId));
    // A resolve, a reopen, a label, an assignment to me and away, a move to the top, a deletion, a new row.
    const [a, b, c, d, e, f] = all;
    const changed = [
      { ...a!, status: 'resolved' as const },
      { ...b!, status: 'open' as const, lastActivityAt: b!.lastActivityAt + 5_000 },
      { ...c!, labels: [...c!.labels, 'vip'].sort() },
      { ...d!, assigneeId: meId },
      { ...e!, assigneeId: 0, priorityRank: 3, priority: 'urgent' as const },
      { ...a!, id: 999_999, lastActivityAt: 1 },
    ];
    await db.conversations.bulkPut(changed);
    await db.conversations.delete(f!.id);
    const ids = [...changed.map((x) => x.id), f!.id];
    const fresh = await db.conversations.bulkGet(ids);
    let moved = 0;
    for (const view of views) {
      const held = before.get(JSON.stringify(view))!;
      const patched = patchView(held, ids, fresh, view, meId);
      const read = await readView(db, view, meId);
      if (read.map((r) => r.id).join() !== held.map((r) => r.id).join()) moved++;
      expect(patched.map((r) => r.id), JSON.stringify(view)).toEqual(read.map((r) => r.id));
      expect(patched, JSON.stringify(view)).toEqual(read);
    }
    // The changes did move rows in and out of most views (the comparison above is not vacuous).
    expect(moved).toBeGreaterThan(views.length / 2);
  }, 60_000);
});

describe('reconciliation', () => {
  const displayToDb = (displayId: number) => (svc.db.prepare('SELECT id FROM conversations WHERE display_id = ? AND account_id = ?').get(displayId, svc.creds.accountId) as { id: number }).id;

  it('moves a conversation resolved elsewhere out of Open, into Resolved', async () => {
    const db = new InboxDb(uniqueDbName());
    const open: ListView = { tab: 'all', status: 'open', sortBy: 'last_activity_at_desc' };
    await revalidateView(bridge, db, open, meId);
    const victim = (await ids(db, open))[3]!;
    svc.db.prepare("UPDATE conversations SET status = 'resolved' WHERE id = ?").run(displayToDb(victim));
    try {
      const result = await revalidateView(bridge, db, open, meId);
      expect(result.left).toBe(1);
      expect(await ids(db, open)).not.toContain(victim);
      expect(await ids(db, open)).toEqual(await serviceIds(open));
      // Re-read, not dropped: it now shows under Resolved straight from the cache.
      expect((await db.conversations.get(victim))?.status).toBe('resolved');
      expect(await ids(db, { ...open, status: 'resolved' })).toContain(victim);
    } finally {
      svc.db.prepare("UPDATE conversations SET status = 'open' WHERE id = ?").run(displayToDb(victim));
    }
  }, 30_000);

  it('moves a conversation reassigned elsewhere out of Mine', async () => {
    const db = new InboxDb(uniqueDbName());
    const mine: ListView = { tab: 'me', status: 'all', sortBy: 'last_activity_at_desc' };
    await revalidateView(bridge, db, mine, meId);
    const victim = (await ids(db, mine))[0]!;
    svc.db.prepare('UPDATE conversations SET assignee_id = NULL WHERE id = ?').run(displayToDb(victim));
    try {
      await revalidateView(bridge, db, mine, meId);
      expect(await ids(db, mine)).not.toContain(victim);
      expect(await ids(db, { ...mine, tab: 'unassigned' })).toContain(victim);
    } finally {
      svc.db.prepare('UPDATE conversations SET assignee_id = ? WHERE id = ?').run(meId, displayToDb(victim));
    }
  }, 30_000);

  it('forgets a conversation the service no longer shows (404), with its messages', async () => {
    const db = new InboxDb(uniqueDbName());
    const all: ListView = { tab: 'all', status: 'all', sortBy: 'last_activity_at_desc' };
    // A conversation only the cache knows, as if deleted on the service since the last sync.
    await saveConversations(db, [conv(99_999, { status: 'open' })]);
    await db.messages.put({ id: 1, conversation_id: 99_999, content: 'x', message_type: 0, content_type: 'text', content_attributes: {}, created_at: 1, private: false });
    await revalidateView(bridge, db, all, meId);
    expect(await db.conversations.get(99_999)).toBeUndefined();
    expect(await db.messages.where('conversation_id').equals(99_999).count()).toBe(0);
  }, 30_000);

  it('drops many leavers at once without re-reading each (they return with their own view)', async () => {
    const db = new InboxDb(uniqueDbName());
    const open: ListView = { tab: 'all', status: 'open', sortBy: 'last_activity_at_desc' };
    await saveConversations(db, Array.from({ length: RECHECK_LIMIT + 5 }, (_, i) => conv(50_000 + i, { status: 'open' })));
    const demo = await demoBridge(svc);
    const result = await revalidateView(demo.bridge, db, open, meId);
    expect(result.left).toBe(RECHECK_LIMIT + 5);
    expect(demo.calls.filter((c) => c.name === 'conversations.get' || c.name === 'conversations.read')).toEqual([]);
    expect(await db.conversations.where('id').between(50_000, 60_000).count()).toBe(0);
    expect(await ids(db, open)).toEqual(await serviceIds(open));
  }, 30_000);

  it('reconciles nothing after an interrupted fetch: absence is only proven by an empty last page', async () => {
    const db = new InboxDb(uniqueDbName());
    const open: ListView = { tab: 'all', status: 'open', sortBy: 'last_activity_at_desc' };
    await saveConversations(db, [conv(88_888, { status: 'open' })]);
    let calls = 0;
    const flaky = {
      ...bridge,
      call: (name: string, input: unknown) => {
        if (name === 'conversations.list' && ++calls === 2) return Promise.resolve({ ok: false, error: { kind: 'network', message: 'gone' } });
        return bridge.call(name as 'conversations.list', input as never);
      },
    } as Bridge;
    await expect(revalidateView(flaky, db, open, meId)).rejects.toThrow('gone');
    expect(await db.conversations.get(88_888)).toBeDefined();
  }, 30_000);

  it('keeps a leaver that merely moved pages during the fetch', async () => {
    const db = new InboxDb(uniqueDbName());
    const open: ListView = { tab: 'all', status: 'open', sortBy: 'last_activity_at_desc' };
    await revalidateView(bridge, db, open, meId);
    const stay = (await ids(db, open))[0]!;
    // The service did return it, but pretend this fetch missed it (pages shift under writes).
    const seen = new Set((await serviceIds(open)).filter((id) => id !== stay));
    expect(await reconcileView(db, open, meId, seen, Infinity, (id) => refreshConversation(bridge, db, id))).toBe(1);
    expect(await ids(db, open)).toContain(stay);
  }, 30_000);
});
