// The texts a search's hits show, read from the cache by key where the index runs (issue 14: the
// page used to read them itself, then render the results a second time). Kept for the next
// keystroke; a change forgets one; a read that a change overtook is used once, not kept.
import { describe, expect, it, vi } from 'vitest';
import { InboxDb } from '../../renderer/src/db/schema';
import { saveConversations } from '../../renderer/src/db/save';
import { HitTexts } from '../../renderer/src/search/hit-texts';
import { conv, msg, uniqueDbName } from './fixtures';

async function cache() {
  const db = new InboxDb(uniqueDbName());
  await saveConversations(db, [conv(1, { preview: 'charged twice' })]);
  await db.messages.bulkPut([msg(100, 1, { content: 'My invoice is wrong' }), msg(101, 1, { content: 'Assigned to Sam', message_type: 2 })]);
  return db;
}

describe('HitTexts', () => {
  it('reads each kind by key; a key the cache does not hold (or an activity message) has no text', async () => {
    const texts = new HitTexts(await cache());
    const read = await texts.read(['m:100', 'c:1', 'm:999', 'm:101', 'x:1']);
    expect(Object.fromEntries(read)).toEqual({ 'm:100': 'My invoice is wrong', 'c:1': 'charged twice' });
  });

  it('keeps what it read for the next keystroke, and reads a forgotten one again', async () => {
    const db = await cache();
    const texts = new HitTexts(db);
    await texts.read(['m:100']);
    const bulkGet = vi.spyOn(db.messages, 'bulkGet');
    await db.messages.update(100, { content: 'Corrected invoice' });
    expect((await texts.read(['m:100'])).get('m:100')).toBe('My invoice is wrong');
    expect(bulkGet).not.toHaveBeenCalled();
    texts.forget('m:100');
    expect((await texts.read(['m:100'])).get('m:100')).toBe('Corrected invoice');
    expect(bulkGet).toHaveBeenCalledTimes(1);
  });

  it('a read that a change overtook answers once but is not kept', async () => {
    const db = await cache();
    const texts = new HitTexts(db);
    const reading = texts.read(['m:100']);
    texts.forget('c:1');
    expect((await reading).get('m:100')).toBe('My invoice is wrong');
    const bulkGet = vi.spyOn(db.messages, 'bulkGet');
    await texts.read(['m:100']);
    expect(bulkGet).toHaveBeenCalledTimes(1);
  });

  it('keeps at most 500 texts, the least recently shown going first', async () => {
    const db = await cache();
    await db.messages.bulkPut(Array.from({ length: 600 }, (_, i) => msg(1000 + i, 1, { content: `text ${i}` })));
    const texts = new HitTexts(db);
    await texts.read(['m:100']);
    await texts.read(Array.from({ length: 499 }, (_, i) => `m:${1000 + i}`));
    await texts.read(['m:100']); // shown again: now the most recent
    await texts.read(['m:1499', 'm:1500']);
    const bulkGet = vi.spyOn(db.messages, 'bulkGet');
    await texts.read(['m:100']);
    expect(bulkGet).not.toHaveBeenCalled();
    await texts.read(['m:1000']);
    expect(bulkGet).toHaveBeenCalledTimes(1);
  });

  it('a closed cache gives hits without texts, not an error', async () => {
    const db = await cache();
    const texts = new HitTexts(db);
    db.close({ disableAutoOpen: true });
    expect((await texts.read(['m:100', 'c:1'])).size).toBe(0);
  });
});
