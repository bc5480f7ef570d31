// Schema migrations (server/db/migrations/): an empty database and one left at each older version
// reach the same schema, keeping their rows; shipped versions never change.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/open';
import { migrate } from '../../server/db/open';
import { migrations } from '../../server/db/migrations';
import type { ConversationRow } from '../../server/store/conversations';
import { unreadCount } from '../../server/store/conversations';
import { markUnread } from '../../server/store/read-markers';

/** sha256 (first 16 hex digits) of each shipped version, in order. A new version adds its line; a changed one fails. */
const SHIPPED = ['367159efce92e13b', '1e956edc0cd46614', '6bd1bc4a48c749be', '11540a339b78da85', 'b9223213b17851d8', '2297fb5f456226da', '49b2f862d107baec', '30451f3f3000c35f', '4ab28937192a5ea6', 'd3603380c7ff6b4c'];

const open: Db[] = [];
function database(): Db {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  open.push(db);
  return db;
}
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

const schemaOf = (db: Db) => db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();
const versionOf = (db: Db) => db.pragma('user_version', { simple: true }) as number;

/** A database as a service of `version` left it: the first `version` migrations run, as migrate() ran them. */
function atVersion(version: number): Db {
  const db = database();
  for (const sql of migrations.slice(0, version)) db.exec(sql);
  db.pragma(`user_version = ${version}`);
  return db;
}

/** A conversation with a message, in version 1's columns (every later version keeps them). */
function writeRows(db: Db) {
  db.prepare("INSERT INTO accounts (id, name, created_at) VALUES (1, 'Acme', 1)").run();
  db.prepare("INSERT INTO inboxes (id, account_id, name, channel_type, channel_id, hmac_token, created_at) VALUES (1, 1, 'API', 'Channel::Api', 1, 'h', 1)").run();
  db.prepare('INSERT INTO contacts (id, account_id, created_at, updated_at) VALUES (1, 1, 1, 1)').run();
  db.prepare("INSERT INTO contact_inboxes (id, contact_id, inbox_id, source_id, pubsub_token, created_at, updated_at) VALUES (1, 1, 1, 's', 'p', 1, 1)").run();
  db.prepare("INSERT INTO conversations (id, account_id, display_id, inbox_id, contact_id, contact_inbox_id, uuid, last_activity_at, created_at, updated_at) VALUES (1, 1, 1, 1, 1, 1, 'u', 1, 1, 1)").run();
  db.prepare("INSERT INTO messages (id, account_id, inbox_id, conversation_id, message_type, content, created_at, updated_at) VALUES (1, 1, 1, 1, 0, 'kept', 1, 1)").run();
}

describe('schema migrations', () => {
  it('has one module per shipped version, unchanged since it shipped', () => {
    expect(migrations.map((sql) => createHash('sha256').update(sql).digest('hex').slice(0, 16))).toEqual(SHIPPED);
  });

  it('brings an empty database to the latest version', () => {
    const db = database();
    expect(migrate(db)).toBe(migrations.length);
    expect(versionOf(db)).toBe(migrations.length);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(['accounts', 'webhooks', 'notifications', 'uploads', 'change_sequence', 'idempotency_keys', 'custom_attribute_definitions']));
    expect(migrate(db)).toBe(migrations.length);
  });

  it.each(migrations.slice(1).map((_, i) => i + 1))('brings a database at version %i to the same schema as a new one, keeping its rows', (version) => {
    const fresh = database();
    migrate(fresh);
    const old = atVersion(version);
    writeRows(old);
    expect(migrate(old)).toBe(migrations.length);
    expect(versionOf(old)).toBe(migrations.length);
    expect(schemaOf(old)).toEqual(schemaOf(fresh));
    expect(old.prepare('SELECT content FROM messages WHERE id = 1').get()).toEqual({ content: 'kept' });
    expect(old.prepare('SELECT uuid FROM conversations WHERE id = 1').get()).toEqual({ uuid: 'u' });
  });

  it("finds a contact's contact inboxes by an index (every live event of a conversation looks them up), not by scanning them all", () => {
    const db = database();
    migrate(db);
    const plan = (db.prepare('EXPLAIN QUERY PLAN SELECT id FROM contact_inboxes WHERE contact_id = ? AND hmac_verified = 1').all(1) as { detail: string }[]).map((p) => p.detail);
    expect(plan).toEqual([expect.stringContaining('USING INDEX contact_inboxes_contact')]);
  });

  it("answers a conversation's unread count and its newest incoming message from an index of type and time, not by reading all its messages", () => {
    const db = database();
    migrate(db);
    writeRows(db);
    // The statements the store itself prepares (each is prepared once per database, on first use).
    const asked: string[] = [];
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => (asked.push(sql), prepare(sql))) as typeof db.prepare;
    const conversation = db.prepare('SELECT * FROM conversations WHERE id = 1').get() as ConversationRow;
    expect(unreadCount(db, conversation)).toBe(1);
    expect(markUnread(db, conversation).agent_last_seen_at).toBe(1 - 1000);
    const reads = asked.filter((sql) => /FROM messages WHERE conversation_id = \? AND message_type = 0/.test(sql));
    expect(reads).toHaveLength(2);
    for (const sql of reads) {
      const plan = (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...sql.split('?').slice(1).map(() => 1)) as { detail: string }[]).map((p) => p.detail);
      expect(plan, sql).toContainEqual(expect.stringContaining('USING COVERING INDEX messages_unread'));
    }
  });

  it('refuses a database newer than the service', () => {
    const db = atVersion(migrations.length);
    db.pragma(`user_version = ${migrations.length + 1}`);
    expect(() => migrate(db)).toThrow(/newer than this service/);
  });
});
