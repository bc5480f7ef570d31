// What wakes the outbox's sender, and what it reads to do so. The outbox in memory (db/outbox-summary.ts)
// follows every write to the outbox, in this window and in others, and the sender looks at its queue
// from it; the sender kept a live query of its own over the queued entries beside it, which Dexie ran
// again after every write that queued or took an entry: a second read of the outbox per write. Now
// the summary alone wakes it, and what the app queues itself wakes it at once (`kick`), even before
// the summary has begun (it waits for the first rows on screen, client/first-rows-gate.ts).
import type { DBCore, DBCoreTable, Middleware } from 'dexie';
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setPriority } from '../../renderer/src/actions/agent-actions';
import { OutboxSender } from '../../renderer/src/actions/sender';
import { createFirstRowsGate } from '../../renderer/src/client/first-rows-gate';
import { OutboxSummary } from '../../renderer/src/db/outbox-summary';
import type { InboxDb } from '../../renderer/src/db/schema';
import { demoForFile } from './support/demo-bridge';
import { actionContext, agentConversations, fastBackoff, seededDb, serviceConversation } from './support/outbox-harness';

const started = demoForFile();

/** Each read of the outbox by an index (a query over a range of `state`, say), as `index` names. */
function countOutboxQueries(): { middleware: Middleware<DBCore>; byIndex: string[] } {
  const byIndex: string[] = [];
  const middleware: Middleware<DBCore> = {
    stack: 'dbcore',
    name: 'count-outbox-queries',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        if (name !== 'outbox') return table;
        const counted: DBCoreTable = {
          ...table,
          query: (req) => {
            byIndex.push(req.query.index.name ?? '(primary key)');
            return table.query(req);
          },
        };
        return counted;
      },
    }),
  };
  return { middleware, byIndex };
}

const states = async (db: InboxDb) => (await db.outbox.orderBy('seq').toArray()).map((e) => e.state);

describe('the sender wakes from the outbox in memory', () => {
  it('sends what another window queued (no kick) once the summary takes it in, without reading the queue by its state', async () => {
    const { svc, demo } = started;
    const [a] = agentConversations(svc, "c.status = 'open'", 1) as [number];
    const { middleware, byIndex } = countOutboxQueries();
    const db = await seededDb(demo, [a], middleware);
    const sender = new OutboxSender({ db, bridge: demo.bridge, notify: () => undefined, backoff: fastBackoff });
    await sender.start();
    // Starting takes up what a reload left on its way (a query by `state`, once); from here on, writes.
    byIndex.length = 0;
    // Queued as another window's action would be: written, with no kick to this sender.
    await setPriority(actionContext(db, demo), [a], 'urgent');
    await waitFor(async () => expect(await states(db)).toEqual(['confirmed']));
    await setPriority(actionContext(db, demo), [a], 'low');
    await waitFor(async () => expect(await states(db)).toEqual(['confirmed', 'confirmed']));
    sender.stop();
    expect((await serviceConversation(demo, a)).priority).toBe('low');
    // The summary reads the entries a write names (by key); nothing queries the outbox by its
    // `state` index after each write (the sender's own live query did, once per write).
    expect(byIndex.filter((index) => index === 'state')).toEqual([]);
    db.close();
  });

  it('before the first rows are on screen, what the app queues goes at once (kick), and a write from elsewhere once the gate opens', async () => {
    const { svc, demo } = started;
    const [a, b] = agentConversations(svc, "c.status = 'open'", 2) as [number, number];
    const db = await seededDb(demo, [a, b]);
    // The gate stays shut for the test's length unless opened (its fallback is an hour away).
    const gate = createFirstRowsGate(true, 3_600_000);
    const summary = new OutboxSummary(db, (run) => gate.whenOpen(run));
    const sender = new OutboxSender({ db, bridge: demo.bridge, notify: () => undefined, backoff: fastBackoff, summary });
    await sender.start();
    // The app's own action: its context kicks the sender once the entry is written.
    await setPriority({ ...actionContext(db, demo), kick: () => sender.kick() }, [a], 'high');
    await waitFor(async () => expect(await states(db)).toEqual(['confirmed']));
    // Another window's: written with no kick. The summary takes it in once the gate opens (at the
    // latest FIRST_ROWS_FALLBACK_MS after the session began, in the app).
    await setPriority(actionContext(db, demo), [b], 'high');
    gate.open();
    await waitFor(async () => expect(await states(db)).toEqual(['confirmed', 'confirmed']));
    sender.stop();
    gate.stop();
    expect((await serviceConversation(demo, b)).priority).toBe('high');
    db.close();
  });
});
