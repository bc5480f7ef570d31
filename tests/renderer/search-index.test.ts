// The local full-text index follows the cache's own writes (Dexie hooks, applied on commit): new,
// changed and deleted conversations, messages and contacts show up in results without a rebuild.
// Each behaviour holds with the index on the page and in its worker (the worker's side of the
// protocol run here behind structured-clone copies and a turn of delay each way, as postMessage).
import { describe, expect, it, vi } from 'vitest';
import { InboxDb } from '../../renderer/src/db/schema';
import { saveConversations } from '../../renderer/src/db/save';
import type { FromIndexWorker, ToIndexWorker } from '../../renderer/src/search/index-protocol';
import { IndexCore } from '../../renderer/src/search/index-core';
import { serveIndex } from '../../renderer/src/search/index-protocol';
import type { WorkerLike } from '../../renderer/src/search/index-runner';
import { SEARCH_INDEX_BUILT } from '../../renderer/src/search/built-mark';
import { LocalSearchIndex } from '../../renderer/src/search/local-index';
import { conv, msg, uniqueDbName } from './fixtures';

const keys = async (index: LocalSearchIndex, q: string) => (await index.search(q)).map((h) => h.key);

/** A worker as the page sees one: messages copied and delivered a turn later, in order, both ways. */
export function fakeWorker(opened: InboxDb[] = []): WorkerLike & { terminated: boolean } {
  const worker = {
    terminated: false,
    onmessage: null as WorkerLike['onmessage'],
    onerror: null as WorkerLike['onerror'],
    postMessage(message: ToIndexWorker) {
      const copy = structuredClone(message);
      setTimeout(() => !worker.terminated && handle(copy), 0);
    },
    terminate() {
      worker.terminated = true;
    },
  };
  const handle = serveIndex(
    (message: FromIndexWorker) => {
      const copy = structuredClone(message);
      setTimeout(() => !worker.terminated && worker.onmessage?.({ data: copy } as MessageEvent<FromIndexWorker>), 0);
    },
    (name) => {
      const db = new InboxDb(name);
      opened.push(db);
      return db;
    },
  );
  return worker;
}

const modes = [
  { where: 'on the page', worker: undefined },
  { where: 'in its worker', worker: fakeWorker },
] as const;

describe.each(modes)('LocalSearchIndex $where', (mode) => {
  /** Every connection the index reads through (the page's, and the worker's own). */
  let dbs: InboxDb[] = [];
  const indexOf = (db: InboxDb) => {
    dbs = [db];
    return new LocalSearchIndex(db, undefined, mode.worker && (() => mode.worker(dbs)));
  };

  async function started() {
    const db = new InboxDb(uniqueDbName());
    await saveConversations(db, [conv(1, { contact: { id: 10, name: 'Ava Nguyen' }, preview: 'charged twice', labels: ['billing'] })]);
    await db.messages.bulkPut([msg(100, 1, { content: 'My invoice shows the wrong VAT number' }), msg(101, 1, { content: 'Assigned to Sam', message_type: 2 })]);
    const index = indexOf(db);
    await index.start();
    return { db, index };
  }

  it('indexes what the cache already holds (but not activity messages)', async () => {
    const { index } = await started();
    expect(await keys(index, 'ava')).toEqual(['c:1']);
    expect(await keys(index, 'invoice vat')).toEqual(['m:100']);
    expect(await keys(index, 'billing')).toEqual(['c:1']);
    expect(await keys(index, 'assigned')).toEqual([]);
    expect(index.size).toBe(2);
  });

  it('follows inserts, updates and deletes without reading the tables again', async () => {
    const { db, index } = await started();
    expect(dbs[0]).toBe(db);
    expect(dbs).toHaveLength(mode.worker ? 2 : 1);
    const scans = dbs.flatMap((d) => [vi.spyOn(d.messages, 'toCollection'), vi.spyOn(d.conversations, 'toCollection'), vi.spyOn(d.contacts, 'toCollection')]);

    await db.messages.put(msg(102, 1, { content: 'The export button crashes the reports tab' }));
    expect(await keys(index, 'export crashes')).toEqual(['m:102']);

    await db.messages.put(msg(102, 1, { content: 'Fixed now, the reports load' }));
    expect(await keys(index, 'crashes')).toEqual([]);
    expect(await keys(index, 'fixed reports')).toEqual(['m:102']);

    await db.messages.delete(102);
    expect(await keys(index, 'reports')).toEqual([]);

    await saveConversations(db, [conv(1, { contact: { id: 10, name: 'Ava Okafor' }, preview: 'charged twice', labels: ['refund'] })]);
    expect(await keys(index, 'nguyen')).toEqual([]);
    expect(await keys(index, 'okafor refund')).toEqual(['c:1']);

    await db.contacts.put({ id: 55, name: 'Kenji Tanaka', email: 'kenji@pixelforge.example', phone_number: null, identifier: null, blocked: false, additional_attributes: { company_name: 'Pixel Forge' }, custom_attributes: {}, created_at: 1 });
    expect(await keys(index, 'pixel forge')).toEqual(['p:55']);

    // A write rolled back never reaches the index.
    await db
      .transaction('rw', db.messages, async () => {
        await db.messages.put(msg(103, 1, { content: 'phantom words here' }));
        throw new Error('abort');
      })
      .catch(() => undefined);
    expect(await keys(index, 'phantom')).toEqual([]);

    for (const s of scans) expect(s).not.toHaveBeenCalled();
  });

  it('keeps writes that land while it is still building', async () => {
    const db = new InboxDb(uniqueDbName());
    await db.messages.bulkPut(Array.from({ length: 3_000 }, (_, i) => msg(i + 1, 1, { content: `filler message ${i}` })));
    const index = indexOf(db);
    const building = index.start();
    await db.messages.put(msg(1, 1, { content: 'rewritten during the build' }));
    await db.messages.delete(2);
    await building;
    expect(await keys(index, 'rewritten')).toEqual(['m:1']);
    expect(await keys(index, 'filler 0')).not.toContain('m:1');
    expect((await index.search('filler', 5_000)).map((h) => h.key)).not.toContain('m:2');
    expect(index.size).toBe(2_999);
  });

  it('completes the word being typed (whole words before it must all match, a one-letter last word waits)', async () => {
    const { index } = await started();
    expect(await keys(index, 'invo')).toEqual(['m:100']);
    expect(await keys(index, 'wrong inv')).toEqual(['m:100']);
    expect(await keys(index, 'invoice v')).toEqual(['m:100']);
    expect(await keys(index, 'invoice charged')).toEqual([]);
    expect(await keys(index, 'nguyen charg')).toEqual(['c:1']);
  });

  it('each hit comes with its snippet, read from the cache where the index runs, and a changed text is read again', async () => {
    const { db, index } = await started();
    const [hit] = await index.search('invoice');
    expect(hit).toMatchObject({ key: 'm:100', snippet: 'My invoice shows the wrong VAT number', nameOnly: false });
    expect((await index.search('ava'))[0]).toMatchObject({ key: 'c:1', snippet: 'charged twice' });
    // The text was kept for the next keystroke; a change to the message must not leave the old one shown.
    await db.messages.update(100, { content: 'My invoice was corrected, thank you' });
    await vi.waitFor(async () => expect((await index.search('invoice'))[0]?.snippet).toBe('My invoice was corrected, thank you'));
  });

  it('answers without the texts the cache is slow to give, then whole; a quick read answers once', async () => {
    const { index } = await started();
    // The connection the index reads through (the worker's own, in the worker).
    const reader = dbs.at(-1)!;
    const bulkGet = reader.messages.bulkGet.bind(reader.messages) as (keys: number[]) => Promise<unknown[]>;
    const slow = vi.spyOn(reader.messages, 'bulkGet').mockImplementation((async (keys: number[]) => {
      await new Promise((r) => setTimeout(r, 100));
      return bulkGet(keys);
    }) as unknown as typeof reader.messages.bulkGet);
    const early: string[][] = [];
    const hits = await index.search('invoice', 50, (h) => early.push(h.map((x) => `${x.key}=${x.snippet}`)));
    expect(early).toEqual([['m:100=']]);
    expect(hits.map((x) => `${x.key}=${x.snippet}`)).toEqual(['m:100=My invoice shows the wrong VAT number']);
    slow.mockRestore();
    early.length = 0;
    expect((await index.search('wrong', 50, (h) => early.push(h.map((x) => x.key)))).map((x) => x.snippet)).toEqual(['My invoice shows the wrong VAT number']);
    expect(early).toEqual([]);
  });

  it('says it is building until the build is done, and tells its listeners when it is', async () => {
    // An empty cache: the build indexes nothing, so no change of documents tells of its end.
    const index = indexOf(new InboxDb(uniqueDbName()));
    const heard = vi.fn();
    index.onChange(heard);
    expect(index.building).toBe(true);
    const started = index.start();
    expect(index.building).toBe(true);
    await started;
    expect(index.building).toBe(false);
    expect(heard).toHaveBeenCalled();
    index.stop();
  });

  it('marks the performance timeline when the build is done, not before (the benchmark reads the mark)', async () => {
    performance.clearMarks(SEARCH_INDEX_BUILT);
    const index = indexOf(new InboxDb(uniqueDbName()));
    const started = index.start();
    expect(performance.getEntriesByName(SEARCH_INDEX_BUILT)).toHaveLength(0);
    const before = performance.now();
    await started;
    const marks = performance.getEntriesByName(SEARCH_INDEX_BUILT);
    expect(marks).toHaveLength(1);
    expect(marks[0]!.startTime).toBeGreaterThanOrEqual(before);
    index.stop();
  });

  it('stops following the cache when stopped', async () => {
    const { db, index } = await started();
    index.stop();
    await db.messages.put(msg(104, 1, { content: 'unseen words' }));
    expect(await keys(index, 'unseen')).toEqual([]);
  });
});

describe('the index where its worker fails', () => {
  async function cached() {
    const db = new InboxDb(uniqueDbName());
    await db.messages.bulkPut([msg(100, 1, { content: 'My invoice shows the wrong VAT number' })]);
    return db;
  }

  it('builds on the page when the worker cannot be started', async () => {
    const index = new LocalSearchIndex(await cached(), undefined, () => {
      throw new Error('blocked by policy');
    });
    await index.start();
    expect(await keys(index, 'invoice')).toEqual(['m:100']);
  });

  it('builds on the page when the worker fails after starting, and answers what was asked meanwhile (from what is built so far)', async () => {
    const worker = fakeWorker();
    const index = new LocalSearchIndex(await cached(), undefined, () => worker);
    void index.start();
    worker.postMessage = () => undefined; // the worker never answers…
    const asked = index.search('invoice');
    worker.onerror?.(new Event('error')); // …and fails
    expect(Array.isArray(await asked)).toBe(true);
    expect(worker.terminated).toBe(true);
    await index.start();
    expect(await keys(index, 'vat')).toEqual(['m:100']);
  });

  it('builds on the page when the worker cannot open the cache', async () => {
    const worker = fakeWorker();
    const index = new LocalSearchIndex(await cached(), undefined, () => worker);
    const started = index.start();
    worker.onmessage?.({ data: { type: 'failed', reason: 'DatabaseClosedError' } } as MessageEvent<FromIndexWorker>);
    await started;
    expect(await keys(index, 'invoice')).toEqual(['m:100']);
  });
});

describe('the index build rests while the agent acts', () => {
  it('gives way to the agent: the build waits until their input has been quiet for a moment', async () => {
    const db = new InboxDb(uniqueDbName());
    await db.messages.bulkPut(Array.from({ length: 50 }, (_, i) => msg(i + 1, 1, { content: `filler message ${i}` })));
    let busy = true;
    let asked!: () => void;
    const askedWhileBusy = new Promise<void>((done) => (asked = done));
    const index = new LocalSearchIndex(db, {
      sinceLast: () => {
        if (busy) asked();
        return busy ? 0 : Infinity;
      },
      pending: () => false,
    });
    const building = index.start();
    await askedWhileBusy;
    // The agent is still busy: nothing indexed yet.
    expect(index.size).toBe(0);
    busy = false;
    await building;
    expect(index.size).toBe(50);
  });

  it('ends a slice of the build as soon as input is waiting for the page', async () => {
    const db = new InboxDb(uniqueDbName());
    await db.messages.bulkPut(Array.from({ length: 50 }, (_, i) => msg(i + 1, 1, { content: `filler message ${i}` })));
    // Input waits when the first slice starts (and only then); the index's size each time it is asked.
    const sizeWhenAsked: number[] = [];
    const index = new LocalSearchIndex(db, {
      sinceLast: () => Infinity,
      pending: () => {
        sizeWhenAsked.push(index.size);
        return sizeWhenAsked.length === 1;
      },
    });
    await index.start();
    // The first slice ended before indexing anything; the next began from the same place.
    expect(sizeWhenAsked.slice(0, 2)).toEqual([0, 0]);
    expect(index.size).toBe(50);
  });

  it('builds newest first: while the agent keeps working, the newest messages are found, not the oldest', async () => {
    const db = new InboxDb(uniqueDbName());
    // Three of the build's reads (500 rows each); the oldest and the newest hold a word of their own.
    const count = 1_200;
    await db.messages.bulkPut(Array.from({ length: count }, (_, i) => msg(i + 1, 1, { content: i === 0 ? 'aardvark in the oldest' : i === count - 1 ? 'zeppelin in the newest' : `filler message ${i}` })));
    // The agent is quiet until a few dozen messages are in, then keeps acting: the build holds.
    let busy = false;
    const index = new LocalSearchIndex(db, {
      sinceLast: () => (busy ? 0 : Infinity),
      pending: (): boolean => (busy ||= index.size >= 32),
    });
    void index.start();
    await vi.waitFor(() => expect(busy).toBe(true));
    expect(index.size).toBeLessThan(count);
    expect(await keys(index, 'zeppelin')).toEqual([`m:${count}`]);
    expect(await keys(index, 'aardvark')).toEqual([]);
    index.stop();
  });

  it('in the worker, the build waits while the page tells of input, and answers searches and changes meanwhile', async () => {
    const db = new InboxDb(uniqueDbName());
    await db.messages.bulkPut(Array.from({ length: 600 }, (_, i) => msg(i + 1, 1, { content: `filler message ${i}` })));
    const heard: FromIndexWorker[] = [];
    const send = serveIndex((m) => heard.push(m), (name) => new InboxDb(name));
    send({ type: 'input' });
    send({ type: 'open', dbName: db.name });
    // The agent keeps acting (told more often than the quiet the build waits for) while an unheld
    // build over the same cache indexes.
    const telling = setInterval(() => send({ type: 'input' }), 50);
    try {
      await new Promise<void>((indexed) => void new IndexCore(db, 8, indexed).build());
      await new Promise((r) => setTimeout(r, 0));
      expect(heard.filter((m) => m.type === 'changed')).toEqual([]);
      send({ type: 'changes', changes: [{ upsert: { key: 'm:9000', kind: 'message', refId: 9000, conversationId: 1, title: 'Ava', text: 'urgent refund', snippet: 'urgent refund', at: 1 } }] });
      send({ type: 'search', id: 1, query: 'urgent', limit: 5 });
      // Answered once its texts are read (m:9000 is not in the cache: no text), the build still waiting.
      await vi.waitFor(() => expect(heard.some((m) => m.type === 'hits')).toBe(true));
      const hits = heard.find((m) => m.type === 'hits');
      expect(hits?.type === 'hits' && hits.hits.map((h) => h.key)).toEqual(['m:9000']);
      expect(heard.some((m) => m.type === 'built')).toBe(false);
    } finally {
      clearInterval(telling);
    }
    // Once the agent is quiet, it builds.
    await vi.waitFor(() => expect(heard.some((m) => m.type === 'built')).toBe(true), { timeout: 20_000 });
  });

  it('the page tells the worker of keys, clicks and scrolls, at most once per 100 ms', async () => {
    const told: string[] = [];
    const worker = fakeWorker();
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message) => {
      told.push(message.type);
      post(message);
    };
    const index = new LocalSearchIndex(new InboxDb(uniqueDbName()), { sinceLast: () => Infinity, pending: () => false }, () => worker);
    void index.start();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'e' }));
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'e' }));
    expect(told.filter((t) => t === 'input')).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 120));
    window.dispatchEvent(new Event('pointerdown'));
    expect(told.filter((t) => t === 'input')).toHaveLength(2);
    index.stop();
    await new Promise((r) => setTimeout(r, 120));
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'e' }));
    expect(told.filter((t) => t === 'input')).toHaveLength(2);
  });
});

describe('the index worker and a deleted cache', () => {
  it('lets go of the cache when it is deleted (sign-out) and never opens it again', async () => {
    const db = new InboxDb(uniqueDbName());
    await db.messages.bulkPut(Array.from({ length: 3_000 }, (_, i) => msg(i + 1, 1, { content: `filler message ${i}` })));
    const heard: FromIndexWorker[] = [];
    let workerDb!: InboxDb;
    const send = serveIndex(
      (m) => heard.push(m),
      (name) => (workerDb = new InboxDb(name)),
    );
    send({ type: 'open', dbName: db.name });
    await vi.waitFor(() => expect(heard.some((m) => m.type === 'changed')).toBe(true));
    // Deleted mid-build, as sign-out does.
    await new InboxDb(db.name).delete();
    await new Promise((r) => setTimeout(r, 200));
    expect(workerDb.isOpen()).toBe(false);
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(db.name);
    expect(heard.some((m) => m.type === 'failed')).toBe(false);
  });
});
