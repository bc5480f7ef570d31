// Contact changes through the outbox (issue 11, contacts), against the real bridge (main core) and
// the demo service, with and without the service's extensions: each change shows at once and lands
// once; a contact's changes go strictly one at a time in order, beside other lanes; a note is
// created exactly once when its answer is lost or the page reloads; a contact update delivered
// late never reverts a later one; a refusal waits for the agent with the field it names; offline
// changes wait and land; and neither a live push nor a conversation read puts an old name back.
import { waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '../../shared/bridge/result';
import { addContactNote, changeContactLabels, deleteContactNote, editContact, removeContactAttributes } from '../../renderer/src/actions/contact-actions';
import { setPriority } from '../../renderer/src/actions/agent-actions';
import type { BackoffPolicy } from '../../renderer/src/actions/retry-policy';
import { saveContact, saveConversations } from '../../renderer/src/db/save';
import { InboxDb } from '../../renderer/src/db/schema';
import { applyContactEvent } from '../../renderer/src/live/apply';
import { contactLane } from '../../renderer/src/model/contact-intent';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { demoBridge } from './support/demo-bridge';
import type { DemoBridge } from './support/demo-bridge';
import { actionContext, agentConversations, fastBackoff, seededDb, startSender, steer } from './support/outbox-harness';

const LATE_MS = 300;
const backoff: BackoffPolicy = { ...fastBackoff, landingWindowMs: 2 * LATE_MS };
const timeout: Result<never> = { ok: false, error: { kind: 'timeout', message: 'The service did not answer in time.' } };
const offline: Result<never> = { ok: false, error: { kind: 'network', message: 'The service could not be reached.' } };
const unreachable: Result<never> = { ok: false, error: { kind: 'unreachable', message: 'The service could not be reached.' } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let n = 0;
const unique = (what: string) => `${what} ${Date.now()}-${n++}`;

let svc: DemoService;
beforeAll(async () => {
  svc = await demoService();
});
afterAll(() => svc.close());

/** A contact of a conversation the demo agent sees, not used by an earlier test (the service's state moves as tests run). */
const used = new Set<number>();
function nextContact(): { contactId: number; conversationId: number } {
  const ids = agentConversations(svc, "c.status = 'open'", 500);
  for (const id of ids) {
    const { contact_id } = svc.db.prepare('SELECT contact_id FROM conversations WHERE account_id = ? AND display_id = ?').get(svc.creds.accountId, id) as { contact_id: number };
    if (used.has(contact_id)) continue;
    used.add(contact_id);
    return { contactId: contact_id, conversationId: id };
  }
  throw new Error('no contact left');
}

/** The contact as the service has it. */
function serviceContact(id: number) {
  const row = svc.db.prepare('SELECT name, email, phone_number, custom_attributes FROM contacts WHERE id = ?').get(id) as { name: string; email: string | null; phone_number: string | null; custom_attributes: string };
  const labels = (svc.db.prepare('SELECT title FROM contact_labels WHERE contact_id = ? ORDER BY title').all(id) as { title: string }[]).map((r) => r.title);
  return { name: row.name, email: row.email, phone_number: row.phone_number, custom_attributes: JSON.parse(row.custom_attributes) as Record<string, unknown>, labels };
}
const serviceNotes = (id: number, content: string) => svc.db.prepare('SELECT id FROM contact_notes WHERE contact_id = ? AND content = ?').all(id, content) as { id: number }[];

/** The contact as the cache shows it, in the service's terms. */
async function cachedContact(db: InboxDb, id: number) {
  const c = (await db.contacts.get(id))!;
  return { name: c.name, email: c.email ?? null, phone_number: c.phone_number ?? null, custom_attributes: c.custom_attributes, labels: c.labels ?? [] };
}

async function seedContact(db: InboxDb, demo: DemoBridge, id: number): Promise<void> {
  const [c, labels] = await Promise.all([demo.bridge.call('contacts.get', { contactId: id }), demo.bridge.call('contacts.labels', { contactId: id })]);
  if (!c.ok || !labels.ok) throw new Error('contact read failed');
  await saveContact(db, { ...c.value.payload, labels: labels.value.payload });
}

const allDone = (db: InboxDb) => waitFor(async () => expect((await db.outbox.toArray()).every((e) => e.state === 'confirmed')).toBe(true), { timeout: 10_000 });

for (const extensions of [true, false]) {
  // Against the real service on a shared, loaded machine: a generous time limit (nothing here is timed).
  describe(extensions ? "with the service's extensions" : 'against a service without extensions', { timeout: 30_000 }, () => {
    let demo: DemoBridge;
    beforeAll(async () => {
      demo = await demoBridge(svc, svc.creds.agentToken, { extensions });
    });

    it('each change shows at once, reaches the service only when sent, and the cache then equals the service', async () => {
      const { contactId, conversationId } = nextContact();
      const db = await seededDb(demo, [conversationId]);
      await seedContact(db, demo, contactId);
      const ctx = actionContext(db, demo);
      const steering = steer(demo);
      let open: () => void = () => undefined;
      steering.intercept((name, _i, through) => (name.startsWith('contacts.') && !['contacts.get', 'contacts.labels', 'contacts.notes'].includes(name) ? new Promise<void>((r) => (open = r)).then(through) : undefined));
      const sender = startSender(db, steering.bridge);
      const note = unique('Prefers email');
      const cases: { name: string; act: () => Promise<unknown>; cached: () => Promise<unknown>; service: () => unknown; want: unknown }[] = [
        { name: 'name', act: () => editContact(ctx, contactId, { name: 'Dana Quinn' }), cached: async () => (await cachedContact(db, contactId)).name, service: () => serviceContact(contactId).name, want: 'Dana Quinn' },
        { name: 'email', act: () => editContact(ctx, contactId, { email: `dana.${n}@example.com` }), cached: async () => (await cachedContact(db, contactId)).email, service: () => serviceContact(contactId).email, want: `dana.${n}@example.com` },
        { name: 'phone', act: () => editContact(ctx, contactId, { phone_number: '+15550142' }), cached: async () => (await cachedContact(db, contactId)).phone_number, service: () => serviceContact(contactId).phone_number, want: '+15550142' },
        { name: 'attribute', act: () => editContact(ctx, contactId, { custom_attributes: { plan: 'enterprise' } }), cached: async () => (await cachedContact(db, contactId)).custom_attributes.plan, service: () => serviceContact(contactId).custom_attributes.plan, want: 'enterprise' },
        { name: 'attribute removed', act: () => removeContactAttributes(ctx, contactId, ['plan']), cached: async () => 'plan' in (await cachedContact(db, contactId)).custom_attributes, service: () => 'plan' in serviceContact(contactId).custom_attributes, want: false },
        { name: 'label', act: () => changeContactLabels(ctx, contactId, { add: ['key-account'] }), cached: async () => (await cachedContact(db, contactId)).labels.includes('key-account'), service: () => serviceContact(contactId).labels.includes('key-account'), want: true },
        { name: 'note', act: () => addContactNote(ctx, contactId, note), cached: async () => (await db.outbox.where('conversationId').equals(contactLane(contactId)).toArray()).some((e) => e.payload.kind === 'contact' && e.payload.op === 'noteCreate'), service: () => serviceNotes(contactId, note).length > 0, want: true },
      ];
      for (const c of cases) {
        expect(c.service(), `${c.name}: the service before`).not.toEqual(c.want);
        await c.act();
        expect(await c.cached(), `${c.name}: the cache at once`).toEqual(c.want);
        await waitFor(() => expect(steering.log.filter((l) => l.phase === 'start').length).toBeGreaterThan(0));
        expect(c.service(), `${c.name}: the service while held`).not.toEqual(c.want);
        open();
        await allDone(db);
        expect(c.service(), `${c.name}: the service after`).toEqual(c.want);
        steering.log.length = 0;
      }
      // And the note goes away again.
      const noteId = serviceNotes(contactId, note)[0]!.id;
      await deleteContactNote(ctx, contactId, noteId);
      await waitFor(() => expect(steering.log.some((l) => l.name === 'contacts.deleteNote')).toBe(true));
      open();
      await allDone(db);
      sender.stop();
      expect(serviceNotes(contactId, note)).toEqual([]);
      expect(await cachedContact(db, contactId)).toEqual(serviceContact(contactId));
      // The conversation's row shows the new name.
      expect((await db.conversations.get(conversationId))?.contactName).toBe('Dana Quinn');
    }, 30_000);

    it("a contact's changes go one at a time in queue order, while another contact's and a conversation's go alongside", async () => {
      const a = nextContact();
      const b = nextContact();
      const db = await seededDb(demo, [a.conversationId]);
      await seedContact(db, demo, a.contactId);
      await seedContact(db, demo, b.contactId);
      const ctx = actionContext(db, demo);
      await editContact(ctx, a.contactId, { name: 'First' });
      await changeContactLabels(ctx, a.contactId, { add: ['ordered'] });
      await editContact(ctx, a.contactId, { name: 'Second' });
      await editContact(ctx, b.contactId, { name: 'Other' });
      // A priority the conversation does not have yet (the same one again would queue nothing).
      await setPriority(ctx, [a.conversationId], (await db.conversations.get(a.conversationId))?.priority === 'high' ? 'low' : 'high');
      const steering = steer(demo);
      // A's first change is held until the other lanes' first writes have gone out beside it: a
      // sender that made them wait behind A would never release it (and the test would time out).
      let releaseA: () => void = () => undefined;
      const aHeld = new Promise<void>((r) => (releaseA = r));
      let holdA = true;
      steering.intercept((_n, input, through) => (holdA && Number(input.contactId) === a.contactId ? ((holdA = false), aHeld.then(through)) : undefined));
      const sender = startSender(db, steering.bridge);
      const started = (lane: number) => steering.log.some((l) => l.conversationId === lane && l.phase === 'start');
      await waitFor(() => expect(started(contactLane(b.contactId)) && started(a.conversationId)).toBe(true));
      releaseA();
      await allDone(db);
      sender.stop();
      const ofA = steering.log.filter((l) => l.conversationId === contactLane(a.contactId));
      expect(ofA.filter((l) => l.phase === 'start').map((l) => l.name)).toEqual(['contacts.update', 'contacts.setLabels', 'contacts.update']);
      expect(ofA.map((l) => l.phase)).toEqual(['start', 'end', 'start', 'end', 'start', 'end']);
      expect(serviceContact(a.contactId)).toMatchObject({ name: 'Second', labels: expect.arrayContaining(['ordered']) });
      expect(serviceContact(b.contactId).name).toBe('Other');
    });

    it('a contact update delivered late (after the client gave up) never reverts a later one; the screen equals the service', async () => {
      const { contactId, conversationId } = nextContact();
      const db = await seededDb(demo, [conversationId]);
      await seedContact(db, demo, contactId);
      const ctx = actionContext(db, demo);
      const steering = steer(demo);
      let held = true;
      // The first update times out at once; the request reaches the service LATE_MS later.
      steering.intercept((name, _i, through) => {
        if (name !== 'contacts.update' || !held) return undefined;
        held = false;
        void sleep(LATE_MS).then(through);
        return Promise.resolve(timeout);
      });
      const sender = startSender(db, steering.bridge, [], backoff);
      await editContact(ctx, contactId, { name: 'Late Name', custom_attributes: { tier: 'gold' } });
      await waitFor(() => expect(steering.log.some((l) => l.name === 'contacts.update' && l.phase === 'end')).toBe(true));
      // The agent goes on while the first is still held.
      await editContact(ctx, contactId, { name: 'Final Name', custom_attributes: { tier: 'platinum' } });
      await allDone(db);
      await sleep(2 * LATE_MS);
      sender.stop();
      expect(serviceContact(contactId)).toMatchObject({ name: 'Final Name', custom_attributes: expect.objectContaining({ tier: 'platinum' }) });
      expect(await cachedContact(db, contactId)).toEqual(serviceContact(contactId));
      expect((await db.conversations.get(conversationId))?.contactName).toBe('Final Name');
    });

    it('a note whose answer is lost is created exactly once, also across a reload', async () => {
      const { contactId } = nextContact();
      const db = await seededDb(demo, []);
      await seedContact(db, demo, contactId);
      const text = unique('Called back, no answer');
      const seq = (await addContactNote(actionContext(db, demo), contactId, text))!;
      const steering = steer(demo);
      let lose = true;
      let reload: () => void = () => undefined;
      const reloaded = new Promise<void>((r) => (reload = r));
      // The note is created, but its answer never arrives; a second attempt before the reload is
      // still on its way (main delivers it) when the page goes.
      steering.intercept((name, _i, through) => {
        if (name !== 'contacts.createNote') return undefined;
        if (lose) return ((lose = false), through().then(() => timeout));
        return reloaded.then(through);
      });
      const first = startSender(db, steering.bridge, [], backoff);
      // The outcome is unknown (or, looking first, the next attempt already found it).
      await waitFor(async () => {
        const e = await db.outbox.get(seq);
        expect(e?.uncertain || e?.state === 'confirmed').toBe(true);
      });
      // The page reloads meanwhile: the same database, a new sender.
      first.stop();
      const name = db.name;
      db.close();
      reload();
      const again = new InboxDb(name);
      const second = startSender(again, steering.bridge, [], backoff);
      await waitFor(async () => expect((await again.outbox.get(seq))?.state).toBe('confirmed'), { timeout: 5_000 });
      // Whatever was still on its way has arrived by now.
      await sleep(2 * LATE_MS);
      second.stop();
      expect(serviceNotes(contactId, text)).toHaveLength(1);
    }, 15_000);

    it('a refused change waits for the agent with the field the service named, showing the service\'s value; a later valid change still goes', async () => {
      const { contactId } = nextContact();
      const db = await seededDb(demo, []);
      await seedContact(db, demo, contactId);
      const before = serviceContact(contactId);
      const notices: string[] = [];
      const sender = startSender(db, demo.bridge, notices);
      const ctx = actionContext(db, demo);
      const seq = (await editContact(ctx, contactId, { email: 'not-an-email' }))!;
      await waitFor(async () => expect((await db.outbox.get(seq))?.state).toBe('failed'));
      const parked = (await db.outbox.get(seq))!;
      expect(parked.lastErrorAttributes).toEqual(['email']);
      expect(parked.lastError).toMatch(/email/i);
      expect(notices.join('\n')).toMatch(/Could not save the email of/);
      await waitFor(async () => expect((await cachedContact(db, contactId)).email).toBe(before.email));
      await editContact(ctx, contactId, { phone_number: '+15550199' });
      await waitFor(() => expect(serviceContact(contactId).phone_number).toBe('+15550199'));
      sender.stop();
      expect(serviceContact(contactId).email).toBe(before.email);
    });

    it('offline, changes wait in the cache; back online, they land once and in order', async () => {
      const { contactId } = nextContact();
      const db = await seededDb(demo, []);
      await seedContact(db, demo, contactId);
      const ctx = actionContext(db, demo);
      const steering = steer(demo);
      let down = true;
      steering.intercept(() => (down ? Promise.resolve(offline) : undefined));
      const sender = startSender(db, steering.bridge, [], backoff);
      const text = unique('Left a voicemail');
      await editContact(ctx, contactId, { name: 'Offline Edit' });
      await addContactNote(ctx, contactId, text);
      await changeContactLabels(ctx, contactId, { add: ['offline-label'] });
      await waitFor(async () => expect((await db.outbox.toArray()).some((e) => e.lastErrorKind === 'network')).toBe(true));
      expect(serviceContact(contactId).name).not.toBe('Offline Edit');
      expect((await cachedContact(db, contactId)).name).toBe('Offline Edit');
      down = false;
      await sender.retryNow();
      await allDone(db);
      sender.stop();
      expect(serviceContact(contactId)).toMatchObject({ name: 'Offline Edit', labels: expect.arrayContaining(['offline-label']) });
      expect(serviceNotes(contactId, text)).toHaveLength(1);
    });

    it('a change that never left (no connection could be made) goes as soon as the service is back, with no landing window to wait out', async () => {
      const { contactId } = nextContact();
      const db = await seededDb(demo, []);
      await seedContact(db, demo, contactId);
      const steering = steer(demo);
      let down = true;
      steering.intercept(() => (down ? Promise.resolve(unreachable) : undefined));
      const sender = startSender(db, steering.bridge, [], { ...backoff, landingWindowMs: 60 * 60_000 });
      await editContact(actionContext(db, demo), contactId, { name: 'Never Left' });
      await waitFor(async () => expect((await db.outbox.toArray()).some((e) => e.lastErrorKind === 'unreachable')).toBe(true));
      expect(await db.quiet.count()).toBe(0);
      down = false;
      await sender.retryNow();
      await allDone(db);
      sender.stop();
      expect(serviceContact(contactId).name).toBe('Never Left');
    });

    it('neither a live push nor a conversation read puts the old name back while the edit waits', async () => {
      const { contactId, conversationId } = nextContact();
      const db = await seededDb(demo, [conversationId]);
      await seedContact(db, demo, contactId);
      const old = (await db.contacts.get(contactId))!;
      const record = (await db.conversationRecords.get(conversationId))!.record;
      await editContact(actionContext(db, demo), contactId, { name: 'Waiting Name' });
      // Nothing sends: the answers below were asked for before the edit could land.
      await applyContactEvent(db, { type: 'contact.updated', accountId: svc.creds.accountId, contact: old });
      await saveConversations(db, [{ ...record, updated_at: (record.updated_at ?? 0) + 1 }]);
      expect((await db.contacts.get(contactId))?.name).toBe('Waiting Name');
      expect((await db.conversations.get(conversationId))?.contactName).toBe('Waiting Name');
      expect((await db.conversationRecords.get(conversationId))?.record.meta.sender?.name).toBe('Waiting Name');
    });
  });
}
