// db/rows.ts builds rows from raw arrays; they must be exactly what better-sqlite3's own rows are
// (same keys in the same order, same values), on the demo database's real tables.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, splitRows, tupleRows } from '../../server/db/rows';
import { DEMO_NOW, demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { createMessage } from '../../server/store/writes';
import { conversationById } from '../../server/store/conversations';
import { apiInboxByIdentifier, clientConversationScope, contactInboxWithContact, visibleConversation } from '../../server/store/contact-inboxes';
import { clientPath, createClientContact } from '../support/public-api';

let svc: DemoService;
beforeAll(async () => {
  svc = await demoService();
});
afterAll(() => svc.close());

/** better-sqlite3's own rows, and ours, of the same query. */
function both(sql: string, ...params: unknown[]) {
  return { native: svc.db.prepare(sql).all(...params), ours: rows(svc.db, sql).all(...params) };
}

describe('rows()', () => {
  it('answers every row of the tables a message create reads exactly as better-sqlite3 does, keys in the same order', () => {
    // A message with null, text, integer and JSON columns, so every kind of value is compared.
    const conversation = conversationById(svc.db, (svc.db.prepare('SELECT MIN(id) AS id FROM conversations').get() as { id: number }).id)!;
    createMessage({ db: svc.db, bus: svc.bus, now: DEMO_NOW }, { conversation, messageType: 0, content: 'héllo 👋', sender: { type: 'Contact', id: conversation.contact_id }, contentAttributes: { a: [1, null] } });
    for (const table of ['inboxes', 'contacts', 'contact_inboxes', 'conversations', 'messages', 'attachments']) {
      const { native, ours } = both(`SELECT * FROM ${table} ORDER BY id`);
      expect(ours, table).toEqual(native);
      expect(ours.map((r) => Object.keys(r as object)), table).toEqual(native.map((r) => Object.keys(r as object)));
    }
    expect(both('SELECT * FROM messages ORDER BY id').ours.length).toBeGreaterThan(0);
  });

  it('answers get() as better-sqlite3 does, undefined when nothing matches', () => {
    const id = (svc.db.prepare('SELECT MAX(id) AS id FROM messages').get() as { id: number }).id;
    expect(rows(svc.db, 'SELECT * FROM messages WHERE id = ?').get(id)).toEqual(svc.db.prepare('SELECT * FROM messages WHERE id = ?').get(id));
    expect(rows(svc.db, 'SELECT * FROM messages WHERE id = ?').get(-1)).toBeUndefined();
  });

  it('keeps the last of two columns of the same name, as better-sqlite3 does', () => {
    const sql = 'SELECT 1 AS a, 2 AS b, 3 AS a';
    const ours = rows(svc.db, sql).get() as object;
    expect(ours).toEqual(svc.db.prepare(sql).get());
    expect(Object.keys(ours)).toEqual(Object.keys(svc.db.prepare(sql).get() as object));
  });

  it('splits a joined row at the given column', () => {
    const sql = 'SELECT ci.*, c.* FROM contact_inboxes ci JOIN contacts c ON c.id = ci.contact_id ORDER BY ci.id LIMIT 1';
    const split = (svc.db.prepare('SELECT * FROM contact_inboxes').columns()).length;
    const [contactInbox, contact] = splitRows(svc.db, sql, split).get()!;
    const first = svc.db.prepare('SELECT * FROM contact_inboxes ORDER BY id LIMIT 1').get() as { contact_id: number };
    expect(contactInbox).toEqual(first);
    expect(contact).toEqual(svc.db.prepare('SELECT * FROM contacts WHERE id = ?').get(first.contact_id));
    expect(splitRows(svc.db, `${sql.replace('LIMIT 1', '')} LIMIT 0`, split).get()).toBeUndefined();
  });

  it('splits a joined row into several records at the given columns', () => {
    const sql = 'SELECT i.*, ci.*, c.* FROM contact_inboxes ci JOIN inboxes i ON i.id = ci.inbox_id JOIN contacts c ON c.id = ci.contact_id ORDER BY ci.id LIMIT 1';
    const count = (table: string) => svc.db.prepare(`SELECT * FROM ${table}`).columns().length;
    const splits = [count('inboxes'), count('inboxes') + count('contact_inboxes')];
    const [inbox, contactInbox, contact] = tupleRows<[{ id: number }, { inbox_id: number; contact_id: number }, object]>(svc.db, sql, splits).get()!;
    const first = svc.db.prepare('SELECT * FROM contact_inboxes ORDER BY id LIMIT 1').get() as { inbox_id: number; contact_id: number };
    expect(contactInbox).toEqual(first);
    expect(inbox).toEqual(svc.db.prepare('SELECT * FROM inboxes WHERE id = ?').get(first.inbox_id));
    expect(contact).toEqual(svc.db.prepare('SELECT * FROM contacts WHERE id = ?').get(first.contact_id));
  });

  it('reads the Client conversation scope in one statement as the three lookups read it, or not at all', async () => {
    const api = svc.creds.apiInboxIdentifier;
    const c = await createClientContact(svc, api, { name: 'Scoped' });
    const conv = (await svc.request({ method: 'POST', url: clientPath(api, `/contacts/${c.source_id}/conversations`), payload: {} })).body as { id: number };
    const inbox = apiInboxByIdentifier(svc.db, api)!;
    const { contactInbox, contact } = contactInboxWithContact(svc.db, inbox.id, c.source_id)!;
    const conversation = visibleConversation(svc.db, contactInbox, 'client', inbox.account_id, conv.id)!;
    const whole = clientConversationScope(svc.db, api, c.source_id, conv.id)!;
    expect(whole).toEqual({ inbox, contactInbox, contact, conversation });
    for (const [part, alone] of [[whole.inbox, inbox], [whole.contactInbox, contactInbox], [whole.contact, contact], [whole.conversation, conversation]] as const) expect(Object.keys(part)).toEqual(Object.keys(alone));
    // Another contact's conversation (not visible to this unverified contact inbox), an unknown one, another inbox.
    const other = await createClientContact(svc, api, { name: 'Other' });
    expect(clientConversationScope(svc.db, api, other.source_id, conv.id)).toBeUndefined();
    expect(clientConversationScope(svc.db, api, c.source_id, 999_999)).toBeUndefined();
    expect(clientConversationScope(svc.db, svc.creds.hmacMandatoryInboxIdentifier, c.source_id, conv.id)).toBeUndefined();
  });

  it('refuses a column named __proto__ (a literal would set the prototype)', () => {
    const db = new Database(':memory:');
    try {
      expect(() => rows(db, 'SELECT 1 AS "__proto__"')).toThrow(/__proto__/);
    } finally {
      db.close();
    }
  });
});
