// The local full-text index follows the cache's own writes (Dexie hooks, applied on commit): new,
// changed and deleted conversations, messages and contacts show up in results without a rebuild.
import { describe, expect, it, vi } from 'vitest';
import { InboxDb } from '../../renderer/src/db/schema';
import { saveConversations } from '../../renderer/src/db/save';
import { LocalSearchIndex } from '../../renderer/src/search/local-index';
import { conv, msg, uniqueDbName } from './fixtures';

const keys = (index: LocalSearchIndex, q: string) => index.search(q).map((h) => h.key);

async function started() {
  const db = new InboxDb(uniqueDbName());
  await saveConversations(db, [conv(1, { contact: { id: 10, name: 'Ava Nguyen' }, preview: 'charged twice', labels: ['billing'] })]);
  await db.messages.bulkPut([msg(100, 1, { content: 'My invoice shows the wrong VAT number' }), msg(101, 1, { content: 'Assigned to Sam', message_type: 2 })]);
  const index = new LocalSearchIndex(db);
  await index.start();
  return { db, index };
}

describe('LocalSearchIndex', () => {
  it('indexes what the cache already holds (but not activity messages)', async () => {
    const { index } = await started();
    expect(keys(index, 'ava')).toEqual(['c:1']);
    expect(keys(index, 'invoice vat')).toEqual(['m:100']);
    expect(keys(index, 'billing')).toEqual(['c:1']);
    expect(keys(index, 'assigned')).toEqual([]);
    expect(index.size).toBe(2);
  });

  it('follows inserts, updates and deletes without reading the tables again', async () => {
    const { db, index } = await started();
    const scans = [vi.spyOn(db.messages, 'toCollection'), vi.spyOn(db.conversations, 'toCollection'), vi.spyOn(db.contacts, 'toCollection')];

    await db.messages.put(msg(102, 1, { content: 'The export button crashes the reports tab' }));
    expect(keys(index, 'export crashes')).toEqual(['m:102']);

    await db.messages.put(msg(102, 1, { content: 'Fixed now, the reports load' }));
    expect(keys(index, 'crashes')).toEqual([]);
    expect(keys(index, 'fixed reports')).toEqual(['m:102']);

    await db.messages.delete(102);
    expect(keys(index, 'reports')).toEqual([]);

    await saveConversations(db, [conv(1, { contact: { id: 10, name: 'Ava Okafor' }, preview: 'charged twice', labels: ['refund'] })]);
    expect(keys(index, 'nguyen')).toEqual([]);
    expect(keys(index, 'okafor refund')).toEqual(['c:1']);

    await db.contacts.put({ id: 55, name: 'Kenji Tanaka', email: 'kenji@pixelforge.example', phone_number: null, identifier: null, blocked: false, additional_attributes: { company_name: 'Pixel Forge' }, custom_attributes: {}, created_at: 1 });
    expect(keys(index, 'pixel forge')).toEqual(['p:55']);

    // A write rolled back never reaches the index.
    await db
      .transaction('rw', db.messages, async () => {
        await db.messages.put(msg(103, 1, { content: 'phantom words here' }));
        throw new Error('abort');
      })
      .catch(() => undefined);
    expect(keys(index, 'phantom')).toEqual([]);

    for (const s of scans) expect(s).not.toHaveBeenCalled();
  });

  it('keeps writes that land while it is still building', async () => {
    const db = new InboxDb(uniqueDbName());
    await db.messages.bulkPut(Array.from({ length: 3_000 }, (_, i) => msg(i + 1, 1, { content: `filler message ${i}` })));
    const index = new LocalSearchIndex(db);
    const building = index.start();
    await db.messages.put(msg(1, 1, { content: 'rewritten during the build' }));
    await db.messages.delete(2);
    await building;
    expect(keys(index, 'rewritten')).toEqual(['m:1']);
    expect(keys(index, 'filler 0')).not.toContain('m:1');
    expect(index.search('filler', 5_000).map((h) => h.key)).not.toContain('m:2');
    expect(index.size).toBe(2_999);
  });

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

  it('completes the word being typed (whole words before it must all match, a one-letter last word waits)', async () => {
    const { index } = await started();
    expect(keys(index, 'invo')).toEqual(['m:100']);
    expect(keys(index, 'wrong inv')).toEqual(['m:100']);
    expect(keys(index, 'invoice v')).toEqual(['m:100']);
    expect(keys(index, 'invoice charged')).toEqual([]);
    expect(keys(index, 'nguyen charg')).toEqual(['c:1']);
  });

  it('reads the snippets of the hits shown from the cache, not from the index', async () => {
    const { index } = await started();
    expect(index.search('invoice')[0]!.snippet).toBe('');
    const read = await index.snippets(['m:100', 'c:1']);
    expect(read.get('m:100')).toBe('My invoice shows the wrong VAT number');
    expect(read.get('c:1')).toBe('charged twice');
    expect(index.search('invoice')[0]!.snippet).toBe('My invoice shows the wrong VAT number');
  });

  it('stops following the cache when stopped', async () => {
    const { db, index } = await started();
    index.stop();
    await db.messages.put(msg(104, 1, { content: 'unseen words' }));
    expect(keys(index, 'unseen')).toEqual([]);
  });
});
