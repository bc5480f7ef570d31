// The outbox against the real bridge (main core signed in to the in-process demo service): one
// conversation's actions go strictly in order, the queue survives a new database handle (a reload)
// and drains on start, transient failures stay queued and go again, refusals roll back, and the
// cache ends equal to what the service has.
import { waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { perform } from '../../renderer/src/actions/perform';
import { assign, assignTeam, changeLabels, markRead, markUnread, setPriority, setStatus } from '../../renderer/src/actions/agent-actions';
import { saveConversations } from '../../renderer/src/db/save';
import { InboxDb } from '../../renderer/src/db/schema';
import { defaultView, readView } from '../../renderer/src/conversations/view';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { demoBridge } from './support/demo-bridge';
import type { DemoBridge } from './support/demo-bridge';
import { actionContext, agentConversations, isWriteCall, seededDb, serviceConversation, startSender, steer } from './support/outbox-harness';
import { uniqueDbName } from './fixtures';

let svc: DemoService;
let demo: DemoBridge;
beforeAll(async () => {
  svc = await demoService();
  demo = await demoBridge(svc);
});
afterAll(() => svc.close());

/** The fields triage changes, as the cache and as the service hold them. */
async function cachedTriage(db: InboxDb, id: number) {
  const row = (await db.conversations.get(id))!;
  const record = (await db.conversationRecords.get(id))!.record;
  return { status: row.status, priority: row.priority, labels: row.labels, assigneeId: row.assigneeId, teamId: row.teamId, recordStatus: record.status, recordLabels: record.labels };
}
async function serviceTriage(id: number) {
  const c = await serviceConversation(demo, id);
  return { status: c.status, priority: c.priority, labels: c.labels, assigneeId: c.meta.assignee?.id ?? 0, teamId: c.meta.team?.id ?? 0, recordStatus: c.status, recordLabels: c.labels };
}
const outboxStates = async (db: InboxDb) => (await db.outbox.orderBy('seq').toArray()).map((e) => e.state);

describe('ordering', () => {
  it('sends one conversation\'s actions in queue order, one at a time, while other conversations go alongside', async () => {
    const [a, b] = agentConversations(svc, "c.status = 'open'", 2) as [number, number];
    const db = await seededDb(demo, [a, b]);
    const ctx = actionContext(db, demo);
    await changeLabels(ctx, [a], { add: ['ordering-1'] });
    await setStatus(ctx, [a], 'pending');
    await setPriority(ctx, [a, b], 'high');
    await changeLabels(ctx, [a], { add: ['ordering-2'], remove: ['ordering-1'] });
    await setStatus(ctx, [b], 'resolved');

    const steering = steer(demo);
    // Every write takes a moment, so overlapping sends would show in the log; `a`'s first write is
    // held until `b`'s first one starts (a sender that made `b` wait for `a` never finishes), so
    // the order does not rest on timing. Writes, not any call: holding a read of `a` (the record a
    // change is decided against) until a read of `b` left the two writes racing.
    let bStarted: () => void = () => undefined;
    const bHasStarted = new Promise<void>((r) => (bStarted = r));
    let heldA = false;
    steering.intercept((name, i, through) => {
      const conversationId = (i as { conversationId?: number }).conversationId;
      const write = isWriteCall(name);
      if (conversationId === b && write) bStarted();
      const hold = conversationId === a && write && !heldA ? ((heldA = true), bHasStarted) : Promise.resolve();
      return hold.then(() => new Promise((r) => setTimeout(r, 5))).then(through);
    });
    const sender = startSender(db, steering.bridge);
    await waitFor(async () => expect(await outboxStates(db)).toEqual(['confirmed', 'confirmed', 'confirmed', 'confirmed', 'confirmed', 'confirmed']));
    sender.stop();

    const ofA = steering.log.filter((l) => l.conversationId === a);
    expect(ofA.filter((l) => l.phase === 'start').map((l) => l.name)).toEqual(['conversations.setLabels', 'conversations.toggleStatus', 'conversations.togglePriority', 'conversations.setLabels']);
    // Strictly one at a time: every start of `a` follows the end of the one before.
    expect(ofA.map((l) => l.phase)).toEqual(['start', 'end', 'start', 'end', 'start', 'end', 'start', 'end']);
    // `b` did not wait for `a` to finish.
    const firstEndOfA = steering.log.findIndex((l) => l.conversationId === a && l.phase === 'end');
    expect(steering.log.findIndex((l) => l.conversationId === b && l.phase === 'start')).toBeLessThan(firstEndOfA);

    expect(await serviceTriage(a)).toMatchObject({ status: 'pending', priority: 'high' });
    expect((await serviceTriage(a)).labels).toContain('ordering-2');
    expect((await serviceTriage(a)).labels).not.toContain('ordering-1');
    for (const id of [a, b]) expect(await cachedTriage(db, id)).toEqual(await serviceTriage(id));
  });
});

describe('each action', () => {
  it('shows in the cache before the service has it, then the service has it and the cache equals the service', async () => {
    const id = agentConversations(svc, "c.status = 'open' AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.message_type = 0)", 1)[0]!;
    const db = await seededDb(demo, [id]);
    const ctx = actionContext(db, demo);
    const jordan = { id: (svc.db.prepare("SELECT id FROM users WHERE email = 'jordan@acme.example'").get() as { id: number }).id, name: 'Jordan Lee' };
    const techSupport = { id: (svc.db.prepare("SELECT id FROM teams WHERE name = 'technical support'").get() as { id: number }).id, name: 'technical support' };
    const steering = steer(demo);
    let open: () => void = () => undefined;
    // Writes wait at the gate; reads (the read-back after a write) go straight through.
    steering.intercept((name, _i, through) => (!isWriteCall(name) ? undefined : new Promise<void>((r) => (open = r)).then(through)));
    const sender = startSender(db, steering.bridge);
    const cases: { name: string; act: () => Promise<unknown>; cached: () => Promise<unknown>; service: () => Promise<unknown>; want: unknown }[] = [
      { name: 'status', act: () => setStatus(ctx, [id], 'pending'), cached: async () => (await db.conversations.get(id))!.status, service: async () => (await serviceConversation(demo, id)).status, want: 'pending' },
      { name: 'snooze', act: () => setStatus(ctx, [id], 'snoozed', 2_000_000_000), cached: async () => (await db.conversationRecords.get(id))!.record.snoozed_until, service: async () => (await serviceConversation(demo, id)).snoozed_until, want: new Date(2_000_000_000_000).toISOString() },
      { name: 'priority', act: () => setPriority(ctx, [id], 'urgent'), cached: async () => (await db.conversations.get(id))!.priority, service: async () => (await serviceConversation(demo, id)).priority, want: 'urgent' },
      { name: 'assignee', act: () => assign(ctx, [id], jordan), cached: async () => (await db.conversations.get(id))!.assigneeId, service: async () => (await serviceConversation(demo, id)).meta.assignee?.id, want: jordan.id },
      { name: 'team', act: () => assignTeam(ctx, [id], techSupport), cached: async () => (await db.conversations.get(id))!.teamId, service: async () => (await serviceConversation(demo, id)).meta.team?.id, want: techSupport.id },
      { name: 'labels', act: () => changeLabels(ctx, [id], { add: ['each-action'] }), cached: async () => (await db.conversations.get(id))!.labels.includes('each-action'), service: async () => (await serviceConversation(demo, id)).labels.includes('each-action'), want: true },
      { name: 'unread', act: () => markUnread(ctx, [id]), cached: async () => (await db.conversations.get(id))!.unreadCount > 0, service: async () => (await serviceConversation(demo, id)).unread_count > 0, want: true },
      { name: 'read', act: () => markRead(ctx, [id]), cached: async () => (await db.conversations.get(id))!.unreadCount, service: async () => (await serviceConversation(demo, id)).unread_count, want: 0 },
    ];
    for (const c of cases) {
      expect(await c.service(), `${c.name}: the service before`).not.toEqual(c.want);
      await c.act();
      expect(await c.cached(), `${c.name}: the cache at once`).toEqual(c.want);
      // The sender has it on its way, held in front of the service.
      await waitFor(() => expect(steering.log.filter((l) => l.phase === 'start').length).toBeGreaterThan(0));
      expect(await c.service(), `${c.name}: the service while held`).not.toEqual(c.want);
      open();
      await waitFor(async () => expect(await outboxStates(db)).not.toContain('queued'));
      await waitFor(async () => expect((await db.outbox.toArray()).every((e) => e.state === 'confirmed')).toBe(true));
      expect(await c.service(), `${c.name}: the service after`).toEqual(c.want);
      expect(await c.cached(), `${c.name}: the cache after`).toEqual(await c.service());
      steering.log.length = 0;
    }
    sender.stop();
    expect(await cachedTriage(db, id)).toEqual(await serviceTriage(id));
  }, 30_000);
});

describe('a reload', () => {
  it('keeps the queue (a new handle on the same database) and drains it on start; what was on its way goes again', async () => {
    const [a] = agentConversations(svc, "c.status = 'open'", 1) as [number];
    const first = await seededDb(demo, [a]);
    await setStatus(actionContext(first, demo), [a], 'resolved');
    await setPriority(actionContext(first, demo), [a], 'urgent');
    // The page went while the first action was on its way.
    await first.outbox.where('seq').above(0).first((e) => first.outbox.update(e!.seq!, { state: 'sending' }));
    const name = first.name;
    first.close();

    const again = new InboxDb(name);
    expect((await again.outbox.toArray()).map((e) => [e.kind, e.state])).toEqual([['status', 'sending'], ['priority', 'queued']]);
    expect((await again.conversations.get(a))?.status).toBe('resolved');
    expect(await serviceTriage(a)).toMatchObject({ status: 'open' });
    const sender = startSender(again, demo.bridge);
    await waitFor(async () => expect(await outboxStates(again)).toEqual(['confirmed', 'confirmed']));
    sender.stop();
    expect(await serviceTriage(a)).toMatchObject({ status: 'resolved', priority: 'urgent' });
    expect(await cachedTriage(again, a)).toEqual(await serviceTriage(a));
  });
});

describe('two windows on one cache', () => {
  it('with Web Locks only one sender drains; the other takes over when the first stops', async () => {
    // A minimal exclusive lock manager, as the browser's navigator.locks behaves for one name.
    const held = new Map<string, Promise<unknown>>();
    const locks = {
      request: (name: string, cb: () => Promise<unknown> | undefined) => {
        const run = (held.get(name) ?? Promise.resolve()).then(() => cb());
        held.set(name, run.catch(() => undefined));
        return run;
      },
    };
    Object.defineProperty(navigator, 'locks', { configurable: true, value: locks });
    try {
      const [a] = agentConversations(svc, "c.status = 'open'", 1) as [number];
      const db = await seededDb(demo, [a]);
      const first = steer(demo);
      const second = steer(demo);
      // The first window's sender is stuck on a slow service; the second must not send beside it.
      let release: () => void = () => undefined;
      first.intercept((name, _i, through) => (name === 'conversations.togglePriority' ? new Promise<void>((r) => (release = r)).then(through) : undefined));
      const one = startSender(db, first.bridge);
      const two = startSender(db, second.bridge);
      await setPriority(actionContext(db, demo), [a], 'high');
      await waitFor(() => expect(first.log.filter((l) => l.phase === 'start')).toHaveLength(1));
      await setPriority(actionContext(db, demo), [a], 'low');
      expect(second.log).toEqual([]);
      // The first window goes (its call answered); the second takes up the rest.
      one.stop();
      release();
      await waitFor(async () => expect(await outboxStates(db)).toEqual(['confirmed', 'confirmed']));
      two.stop();
      expect((await serviceConversation(demo, a)).priority).toBe('low');
      expect(first.log.filter((l) => l.phase === 'start')).toHaveLength(1);
      expect(second.log.filter((l) => l.phase === 'start').map((l) => l.name)).toEqual(['conversations.togglePriority']);
    } finally {
      Reflect.deleteProperty(navigator, 'locks');
    }
  });
});

describe('failures', () => {
  it('a transient failure keeps the action queued (and shown) and sends it again after a backoff', async () => {
    const [a] = agentConversations(svc, "c.status = 'open'", 1) as [number];
    const db = await seededDb(demo, [a]);
    const steering = steer(demo);
    let failures = 2;
    steering.intercept((name) => (name === 'conversations.toggleStatus' && failures-- > 0 ? Promise.resolve({ ok: false, error: { kind: 'network', message: 'The service could not be reached.' } }) : undefined));
    await setStatus(actionContext(db, demo), [a], 'resolved');
    const sender = startSender(db, steering.bridge);
    await waitFor(async () => expect((await db.outbox.toArray())[0]).toMatchObject({ state: 'confirmed', attempts: 3 }));
    sender.stop();
    expect(steering.log.filter((l) => l.name === 'conversations.toggleStatus' && l.phase === 'start')).toHaveLength(3);
    expect(await cachedTriage(db, a)).toEqual(await serviceTriage(a));
    expect((await serviceTriage(a)).status).toBe('resolved');
  });

  it('while queued, the change holds against a stale answer, and the row stays out of a view it left', async () => {
    const [a] = agentConversations(svc, "c.status = 'open' AND c.assignee_id = (SELECT id FROM users WHERE email = 'sam@acme.example')", 1) as [number];
    const db = await seededDb(demo, [a]);
    const me = demo.session.user.id;
    expect((await readView(db, defaultView, me)).map((c) => c.id)).toContain(a);
    await setStatus(actionContext(db, demo), [a], 'resolved');
    expect((await readView(db, defaultView, me)).map((c) => c.id)).not.toContain(a);
    // A list page fetched before the action went out says "open": the cache still shows it resolved.
    await saveConversations(db, [await serviceConversation(demo, a)]);
    expect((await db.conversations.get(a))?.status).toBe('resolved');
    expect((await readView(db, defaultView, me)).map((c) => c.id)).not.toContain(a);
  });

  it('an answer fetched before the action landed cannot undo it afterwards', async () => {
    const [a] = agentConversations(svc, "c.status = 'open'", 1) as [number];
    const db = await seededDb(demo, [a]);
    const staleAt = Date.now();
    const stale = await serviceConversation(demo, a);
    await setStatus(actionContext(db, demo), [a], 'pending');
    const sender = startSender(db, demo.bridge);
    await waitFor(async () => expect(await outboxStates(db)).toEqual(['confirmed']));
    sender.stop();
    await saveConversations(db, [stale], staleAt);
    expect((await db.conversations.get(a))?.status).toBe('pending');
    // A fresh answer is taken as it is.
    await saveConversations(db, [{ ...(await serviceConversation(demo, a)), status: 'open' }], Date.now() + 1);
    expect((await db.conversations.get(a))?.status).toBe('open');
  });

  it('a validation refusal rolls back to the service\'s state and tells the agent; later actions still go', async () => {
    const [a] = agentConversations(svc, "c.status = 'open'", 1) as [number];
    const db = await seededDb(demo, [a]);
    const before = await serviceTriage(a);
    const steering = steer(demo);
    steering.intercept((name) => (name === 'conversations.setLabels' ? Promise.resolve({ ok: false, error: { kind: 'validation', message: 'Labels are invalid', status: 422, attributes: ['labels'] } }) : undefined));
    const ctx = actionContext(db, demo);
    await changeLabels(ctx, [a], { add: ['refused-label'] });
    await setPriority(ctx, [a], 'low');
    expect((await db.conversations.get(a))?.labels).toContain('refused-label');
    const notices: string[] = [];
    const sender = startSender(db, steering.bridge, notices);
    await waitFor(async () => expect(await outboxStates(db)).toEqual(['confirmed']));
    sender.stop();
    expect(notices).toEqual([`Could not set the labels of #${a}: Labels are invalid`]);
    expect((await db.conversations.get(a))?.labels).toEqual(before.labels);
    expect(await cachedTriage(db, a)).toEqual(await serviceTriage(a));
    expect((await serviceTriage(a)).priority).toBe('low');
  });

  it('not_found (deleted on the service) rolls back by forgetting the conversation', async () => {
    const [a] = agentConversations(svc, "c.status = 'open'", 1) as [number];
    const db = await seededDb(demo, [a]);
    await setStatus(actionContext(db, demo), [a], 'resolved');
    expect((await svc.request({ method: 'DELETE', url: `/api/v1/accounts/${svc.creds.accountId}/conversations/${a}`, token: svc.creds.adminToken })).status).toBe(200);
    const notices: string[] = [];
    const sender = startSender(db, demo.bridge, notices);
    await waitFor(async () => expect(await db.outbox.count()).toBe(0));
    sender.stop();
    expect(notices[0]).toMatch(new RegExp(`^Could not resolve #${a}: `));
    expect(await db.conversations.get(a)).toBeUndefined();
  });

  it('a refusal where the service cannot be read back puts the changed fields back, under later queued changes', async () => {
    // A conversation in an inbox the agent is not a member of: the service refuses every call on it.
    const hidden = (svc.db.prepare("SELECT display_id FROM conversations WHERE account_id = ? AND inbox_id NOT IN (SELECT inbox_id FROM inbox_members WHERE user_id = (SELECT id FROM users WHERE email = 'sam@acme.example')) LIMIT 1").get(svc.creds.accountId) as { display_id: number }).display_id;
    const asAdmin = await demoBridge(svc, svc.creds.adminToken);
    const record = await serviceConversation(asAdmin, hidden);
    const db = new InboxDb(`${(await seededDb(demo, [])).name}-hidden`);
    await saveConversations(db, [record]);
    const original = (await db.conversations.get(hidden))!;
    expect(original.priority).not.toBe('low');
    await perform(db, [hidden], () => ({ kind: 'priority', priority: 'urgent' }));
    await perform(db, [hidden], () => ({ kind: 'labels', labels: ['x-first'] }));
    await perform(db, [hidden], () => ({ kind: 'priority', priority: 'low' }));
    // Only the first goes now; the rollback of the first must not undo the two queued after it.
    await db.outbox.filter((e) => e.seq !== undefined).modify((e) => {
      if (e.payload.kind !== 'priority' || e.payload.priority !== 'urgent') e.nextAttemptAt = Date.now() + 60_000;
    });
    const notices: string[] = [];
    const sender = startSender(db, demo.bridge, notices);
    await waitFor(() => expect(notices).toHaveLength(1));
    sender.stop();
    expect(notices[0]).toMatch(/Could not set the priority of/);
    const row = (await db.conversations.get(hidden))!;
    expect(row.priority).toBe('low');
    expect(row.labels).toEqual(['x-first']);
    expect((await db.outbox.toArray()).map((e) => e.kind)).toEqual(['labels', 'priority']);

    // With nothing queued after it, the field goes back to what it was.
    await db.outbox.clear();
    await saveConversations(db, [record]);
    await perform(db, [hidden], () => ({ kind: 'priority', priority: original.priority === 'high' ? 'medium' : 'high' }));
    const again = startSender(db, demo.bridge, notices);
    await waitFor(() => expect(notices).toHaveLength(2));
    again.stop();
    expect((await db.conversations.get(hidden))!.priority).toBe(original.priority);
  });
});

describe('a conversation not cached yet', () => {
  // Found by the chaos suite: opened from the palette, its record still on its way through a
  // faulty network, "Add label billing" queued nothing (its current set was unknown, and a partial
  // set would wipe the rest), silently; a later label change then sent a set without billing.
  it('keeps a label change as the change it is, lands it on top of the service\'s set, and a later one builds on it', async () => {
    const [a] = agentConversations(svc, "c.status = 'open'", 1) as [number];
    const service = await serviceConversation(demo, a);
    const db = new InboxDb(uniqueDbName('uncached-labels'));
    const ctx = actionContext(db, demo);
    const done = await changeLabels(ctx, [a], { add: ['uncached-1'] });
    expect(done).toHaveLength(1);
    // The record arrives (the view's read) before the sender goes: the queued change shows on it.
    await saveConversations(db, [service]);
    expect((await db.conversations.get(a))!.labels).toEqual([...service.labels, 'uncached-1'].sort());
    await changeLabels(ctx, [a], { add: ['uncached-2'] });
    const sender = startSender(db, demo.bridge);
    // Every change answered (not only sent: one still 'sending' has not reached the service yet).
    await waitFor(async () => expect((await outboxStates(db)).every((state) => state === 'confirmed')).toBe(true));
    sender.stop();
    expect((await serviceConversation(demo, a)).labels).toEqual([...service.labels, 'uncached-1', 'uncached-2'].sort());
  });

  it('adds and removes on top of whatever the service has when nothing was read before it went', async () => {
    const [a] = agentConversations(svc, "c.status = 'open' AND EXISTS (SELECT 1 FROM conversation_labels l WHERE l.conversation_id = c.id)", 1) as [number];
    const service = await serviceConversation(demo, a);
    const drop = service.labels[0]!;
    const db = new InboxDb(uniqueDbName('uncached-labels'));
    const ctx = actionContext(db, demo);
    await changeLabels(ctx, [a], { add: ['uncached-3'], remove: [drop] });
    await changeLabels(ctx, [a], { add: ['uncached-4'] });
    const sender = startSender(db, demo.bridge);
    // Every change answered (not only sent: one still 'sending' has not reached the service yet).
    await waitFor(async () => expect((await outboxStates(db)).every((state) => state === 'confirmed')).toBe(true));
    sender.stop();
    expect((await serviceConversation(demo, a)).labels).toEqual([...service.labels.filter((l) => l !== drop), 'uncached-3', 'uncached-4'].sort());
  });
});
