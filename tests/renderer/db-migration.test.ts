// The cache's upgrades, on real IndexedDB semantics (fake-indexeddb): from version 1 (the walking
// skeleton) to version 2 (the inbox), data written by version 1 survives and gains what version 2
// indexes; from version 2 to 3 (the sync engine's tables), 3 to 4 (settings) and 5 to 6 (contact
// notes) every row and the queue stay as they were; from 4 to 5 the rows gain nothing but the
// `[status+unreadCount]` index the unread badge reads; 6 to 7 adds the table of queued files' bytes;
// 7 to 8 the table of files attached to drafts.
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { V1_STORES, V2_STORES, V3_STORES, V4_STORES, V5_STORES, V6_STORES, V7_STORES, V8_STORES } from '../../renderer/src/db/migrations';
import { InboxDb } from '../../renderer/src/db/schema';
import { conv, msg, uniqueDbName } from './fixtures';

async function writeVersion1(name: string) {
  const v1 = new Dexie(name);
  v1.version(1).stores(V1_STORES);
  const record = conv(7, { status: 'pending', priority: 'high', assignee: 3, team: 2, labels: ['vip', 'bug'], contact: { id: 55, name: 'Ava' } });
  // Version 1 rows, exactly as its normalize wrote them (no contactId, no priorityRank).
  await v1.table('conversations').bulkPut([
    { id: 7, status: 'pending', inboxId: 1, assigneeId: 3, teamId: 2, labels: ['vip', 'bug'], priority: 'high', lastActivityAt: 500, createdAt: 7, waitingSince: 0, unreadCount: 2, contactName: 'Ava', preview: 'hi', record },
    { id: 8, status: 'open', inboxId: 2, assigneeId: 0, teamId: 0, labels: [], priority: null, lastActivityAt: 600, createdAt: 8, waitingSince: 0, unreadCount: 0, contactName: 'Bo', preview: '', record: conv(8) },
  ]);
  await v1.table('messages').bulkPut([msg(70, 7), msg(71, 7)]);
  await v1.table('cursors').bulkPut([
    { conversationId: 7, oldestId: 70, newestId: 71, hasOlder: false },
    // Version 1 wrote Infinity for an empty history.
    { conversationId: 8, oldestId: Infinity, newestId: 0, hasOlder: false },
  ]);
  expect(v1.verno).toBe(1);
  v1.close();
}

describe('cache migration 1 → 2 → 3 → 4 → 8', () => {
  it('keeps every row and derives the new indexed fields', async () => {
    const name = uniqueDbName('migrate');
    await writeVersion1(name);

    const db = new InboxDb(name);
    await db.open();
    expect(db.verno).toBe(8);

    const c7 = await db.conversations.get(7);
    expect(c7).toMatchObject({ id: 7, contactId: 55, assigneeName: 'Agent 3', priorityRank: 2, labels: ['vip', 'bug'], preview: 'hi' });
    expect(c7).not.toHaveProperty('record');
    expect((await db.conversations.get(8))).toMatchObject({ contactId: 1008, assigneeName: '', priorityRank: -1 });
    // The full record moved beside the row, intact.
    expect((await db.conversationRecords.get(7))?.record).toMatchObject({ id: 7, status: 'pending', meta: { sender: { id: 55, name: 'Ava' } } });
    expect(await db.conversationRecords.count()).toBe(2);
    expect(await db.messages.where('[conversation_id+id]').between([7, 0], [7, Infinity]).primaryKeys()).toEqual([70, 71]);
    expect(await db.cursors.get(7)).toEqual({ conversationId: 7, oldestId: 70, newestId: 71, hasOlder: false, gaps: [] });
    expect(await db.cursors.get(8)).toEqual({ conversationId: 8, oldestId: 0, newestId: 0, hasOlder: false, gaps: [] });

    // The version 2 indexes answer queries over migrated rows.
    expect(await db.conversations.where('contactId').equals(55).primaryKeys()).toEqual([7]);
    expect(await db.conversations.where('[assigneeId+status+lastActivityAt]').between([3, 'pending', 0], [3, 'pending', Infinity]).primaryKeys()).toEqual([7]);
    expect(await db.conversations.where('[status+lastActivityAt]').between(['open', Dexie.minKey], ['open', Dexie.maxKey]).primaryKeys()).toEqual([8]);
    expect(await db.conversations.where('labels').equals('bug').primaryKeys()).toEqual([7]);

    // And the new tables exist and work.
    await db.drafts.put({ conversationId: 7, text: 'draft', mode: 'note', updatedAt: 1 });
    await db.outbox.add({ clientId: 'c1', conversationId: 7, kind: 'read', payload: { kind: 'read' }, state: 'queued', createdAt: 1, attempts: 0, nextAttemptAt: 0 });
    expect(await db.drafts.get(7)).toMatchObject({ text: 'draft' });
    expect(await db.outbox.where('state').equals('queued').count()).toBe(1);
    db.close();
  });

  it('opens a fresh database straight at version 8', async () => {
    const db = new InboxDb(uniqueDbName('fresh'));
    await db.open();
    expect(db.verno).toBe(8);
    expect(db.tables.map((t) => t.name).sort()).toEqual(
      ['agents', 'cannedResponses', 'contactNotes', 'contacts', 'conversationRecords', 'conversations', 'cursors', 'draftFiles', 'drafts', 'inboxes', 'labels', 'messages', 'outbox', 'outboxFiles', 'quiet', 'settings', 'sync', 'teams', 'viewCounts'],
    );
    db.close();
  });

  it('installs the same tables, keys and indexes from every shipped version as a fresh database (only versions with an upgrade are declared)', async () => {
    // What IndexedDB itself holds (not Dexie's declared view): every store's key path and indexes.
    const installed = (name: string) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const req = indexedDB.open(name);
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const idb = req.result;
          const out: Record<string, unknown> = { version: idb.version };
          const tx = idb.transaction([...idb.objectStoreNames], 'readonly');
          for (const store of [...idb.objectStoreNames]) {
            const os = tx.objectStore(store);
            out[store] = { key: os.keyPath, auto: os.autoIncrement, indexes: [...os.indexNames].map((i) => { const ix = os.index(i); return `${i}:${JSON.stringify(ix.keyPath)}:${ix.unique}:${ix.multiEntry}`; }).sort() };
          }
          idb.close();
          resolve(out);
        };
      });
    const fresh = uniqueDbName('fresh-schema');
    const db = new InboxDb(fresh);
    await db.open();
    db.close();
    const expected = await installed(fresh);
    const shipped = [V1_STORES, V2_STORES, V3_STORES, V4_STORES, V5_STORES, V6_STORES, V7_STORES, V8_STORES];
    for (const [i, stores] of shipped.entries()) {
      const name = uniqueDbName(`from-v${i + 1}`);
      const old = new Dexie(name);
      old.version(i + 1).stores(stores);
      await old.open();
      old.close();
      const upgraded = new InboxDb(name);
      await upgraded.open();
      upgraded.close();
      expect(await installed(name), `from version ${i + 1}`).toEqual(expected);
    }
  });

  it('2 → 3 keeps the queue as it was (a queued change and a refused message still there) and adds the sync tables', async () => {
    const name = uniqueDbName('v2');
    const v2 = new Dexie(name);
    v2.version(2).stores(V2_STORES);
    await v2.table('outbox').bulkAdd([
      { clientId: 'c1', conversationId: 7, kind: 'status', payload: { kind: 'status', status: 'resolved', snoozedUntil: null }, state: 'queued', createdAt: 1, attempts: 0, nextAttemptAt: 0 },
      { clientId: 'c2', conversationId: 7, kind: 'message', payload: { kind: 'message', content: 'hi', private: false, sender: { id: 1, name: 'Sam' } }, state: 'failed', createdAt: 2, attempts: 1, nextAttemptAt: 0, lastError: 'no' },
    ]);
    await v2.table('conversations').put({ id: 7, status: 'resolved', inboxId: 1, assigneeId: 0, teamId: 0, contactId: 1, labels: [], priority: null, priorityRank: -1, lastActivityAt: 1, createdAt: 1, waitingSince: 0, unreadCount: 0, contactName: 'A', contactEmail: '', assigneeName: '', preview: '' });
    v2.close();
    const db = new InboxDb(name);
    await db.open();
    expect(db.verno).toBe(8);
    expect((await db.outbox.orderBy('seq').toArray()).map((e) => [e.clientId, e.state])).toEqual([['c1', 'queued'], ['c2', 'failed']]);
    expect(await db.conversations.get(7)).toMatchObject({ status: 'resolved' });
    await db.quiet.put({ conversationId: 7, until: 5 });
    await db.sync.put({ key: 'cursor', value: 'abc' });
    expect(await db.quiet.get(7)).toEqual({ conversationId: 7, until: 5 });
    db.close();
  });

  it('3 → 4 keeps the queue and the sync state, and adds the settings table', async () => {
    const name = uniqueDbName('v3');
    const v3 = new Dexie(name);
    v3.version(3).stores(V3_STORES);
    await v3.table('outbox').add({ clientId: 'c3', conversationId: 9, kind: 'read', payload: { kind: 'read' }, state: 'queued', createdAt: 1, attempts: 0, nextAttemptAt: 0 });
    await v3.table('sync').put({ key: 'watermark', value: 42 });
    v3.close();
    const db = new InboxDb(name);
    await db.open();
    expect(db.verno).toBe(8);
    expect((await db.outbox.toArray()).map((e) => [e.clientId, e.state])).toEqual([['c3', 'queued']]);
    expect(await db.sync.get('watermark')).toEqual({ key: 'watermark', value: 42 });
    await db.settings.put({ key: 'notifications', value: { enabled: false } });
    expect(await db.settings.get('notifications')).toEqual({ key: 'notifications', value: { enabled: false } });
    db.close();
  });

  it('4 → 5 keeps every row and answers the unread badge from the new index', async () => {
    const name = uniqueDbName('v4');
    const v4 = new Dexie(name);
    v4.version(4).stores(V4_STORES);
    const row = (id: number, status: string, unreadCount: number) => ({ id, status, inboxId: 1, assigneeId: 0, teamId: 0, contactId: id, labels: [], priority: null, priorityRank: -1, lastActivityAt: id, createdAt: 1, waitingSince: 0, unreadCount, contactName: 'A', contactEmail: '', assigneeName: '', preview: '' });
    await v4.table('conversations').bulkPut([row(1, 'open', 3), row(2, 'open', 0), row(3, 'resolved', 5), row(4, 'open', 10)]);
    v4.close();
    const db = new InboxDb(name);
    await db.open();
    expect(db.verno).toBe(8);
    expect(await db.conversations.count()).toBe(4);
    const keys = await db.conversations.where('[status+unreadCount]').between(['open', 1], ['open', Infinity]).keys();
    expect(keys).toEqual([['open', 3], ['open', 10]]);
    db.close();
  });

  it('5 → 6 keeps the queue, the settings and the contacts, and adds the contact notes (by contact)', async () => {
    const name = uniqueDbName('v5');
    const v5 = new Dexie(name);
    v5.version(5).stores(V5_STORES);
    await v5.table('outbox').add({ clientId: 'c4', conversationId: 9, kind: 'read', payload: { kind: 'read' }, state: 'queued', createdAt: 1, attempts: 0, nextAttemptAt: 0 });
    await v5.table('settings').put({ key: 'waiting', value: { warnMinutes: 5, alertMinutes: 10 } });
    await v5.table('contacts').put({ id: 3, name: 'Dana', labels: ['vip'] });
    v5.close();
    const db = new InboxDb(name);
    await db.open();
    expect(db.verno).toBe(8);
    expect((await db.outbox.toArray()).map((e) => [e.clientId, e.state])).toEqual([['c4', 'queued']]);
    expect(await db.settings.get('waiting')).toEqual({ key: 'waiting', value: { warnMinutes: 5, alertMinutes: 10 } });
    expect(await db.contacts.get(3)).toMatchObject({ name: 'Dana', labels: ['vip'] });
    await db.contactNotes.bulkPut([
      { id: 1, contactId: 3, content: 'a', user: null, created_at: 1, updated_at: 1 },
      { id: 2, contactId: 4, content: 'b', user: null, created_at: 1, updated_at: 1 },
    ]);
    expect((await db.contactNotes.where('contactId').equals(3).toArray()).map((n) => n.id)).toEqual([1]);
    db.close();
  });

  it('6 → 7 keeps the queue, its message and the settings, and adds the table of queued files', async () => {
    const name = uniqueDbName('v6');
    const v6 = new Dexie(name);
    v6.version(6).stores(V6_STORES);
    const payload = { kind: 'message', content: 'Hello', private: false, sender: { id: 1, name: 'Sam' } };
    await v6.table('outbox').add({ clientId: 'c4', conversationId: 9, kind: 'message', payload, state: 'failed', createdAt: 1, attempts: 1, nextAttemptAt: 0 });
    await v6.table('settings').put({ key: 'notifications', value: { enabled: false } });
    v6.close();
    const db = new InboxDb(name);
    await db.open();
    expect(db.verno).toBe(8);
    expect((await db.outbox.toArray()).map((e) => [e.clientId, e.state, e.payload])).toEqual([['c4', 'failed', payload]]);
    expect(await db.settings.get('notifications')).toEqual({ key: 'notifications', value: { enabled: false } });
    const bytes = new Uint8Array([1, 2, 3]).buffer;
    await db.outboxFiles.put({ clientId: 'c4', files: [{ name: 'a.bin', type: 'application/octet-stream', size: 3, data: bytes }] });
    expect(new Uint8Array((await db.outboxFiles.get('c4'))!.files[0]!.data)).toEqual(new Uint8Array([1, 2, 3]));
    db.close();
  });

  it('7 → 8 keeps the drafts, the queue and its files, and adds the table of files attached to drafts', async () => {
    const name = uniqueDbName('v7');
    const v7 = new Dexie(name);
    v7.version(7).stores(V7_STORES);
    const payload = { kind: 'message', content: 'Hello', private: false, sender: { id: 1, name: 'Sam' }, files: [{ name: 'a.bin', type: 'application/octet-stream', size: 3 }] };
    await v7.table('outbox').add({ clientId: 'c5', conversationId: 9, kind: 'message', payload, state: 'queued', createdAt: 1, attempts: 0, nextAttemptAt: 0 });
    await v7.table('outboxFiles').put({ clientId: 'c5', files: [{ name: 'a.bin', type: 'application/octet-stream', size: 3, data: new Uint8Array([1, 2, 3]).buffer }] });
    await v7.table('drafts').put({ conversationId: 9, text: 'half', mode: 'reply', updatedAt: 1 });
    v7.close();
    const db = new InboxDb(name);
    await db.open();
    expect(db.verno).toBe(8);
    expect((await db.outbox.toArray()).map((e) => [e.clientId, e.state, e.payload])).toEqual([['c5', 'queued', payload]]);
    expect(new Uint8Array((await db.outboxFiles.get('c5'))!.files[0]!.data)).toEqual(new Uint8Array([1, 2, 3]));
    expect(await db.drafts.get(9)).toMatchObject({ text: 'half' });
    await db.draftFiles.put({ conversationId: 9, files: [{ name: 'b.png', type: 'image/png', size: 2, data: new Uint8Array([4, 5]).buffer }] });
    expect(new Uint8Array((await db.draftFiles.get(9))!.files[0]!.data)).toEqual(new Uint8Array([4, 5]));
    db.close();
  });
});
