// Opens the SQLite database (a file in WAL mode, or :memory: for tests) and brings its schema up to date.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkpointInBackground } from './checkpointer';
import { migrations } from './migrations';

export type Db = Database.Database;

/** Pages SQLite keeps in memory for this connection (negative: KiB): the hot tables and indexes stay read. */
const CACHE_KIB = 32_768;

export function openDatabase(file: string): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma(`cache_size = -${CACHE_KIB}`);
  migrate(db);
  if (file !== ':memory:') {
    // Checkpoints in a worker thread (checkpointer.ts); it stops when the database closes.
    const checkpoints = checkpointInBackground(db, file);
    const close = db.close.bind(db);
    // This connection first, then the worker's: SQLite removes the WAL and its index only when the
    // last connection closes, and two closing at once could each see the other still open and both
    // leave them (1 of 80 closes, 2026-12-07; CI's database-close test).
    // The worker is told to stop even if this connection's close throws.
    db.close = () => {
      try {
        return close();
      } finally {
        released.set(db, checkpoints.stop());
      }
    };
  }
  return db;
}

const released = new WeakMap<Db, Promise<void>>();
/**
 * Resolves once a closed database's file is no longer open anywhere in this process: its
 * checkpointer's own connection closes a moment after `db.close()` (a test that removed the folder
 * right after the service closed saw the worker's WAL appear in it).
 */
export function databaseReleased(db: Db): Promise<void> {
  return released.get(db) ?? Promise.resolve();
}

export function migrate(db: Db): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(`The database is at schema version ${current}, newer than this service (${migrations.length}).`);
  }
  for (let version = current; version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return migrations.length;
}

/** Prepared statements cached per database: SQLite compiles each query once. */
const cache = new WeakMap<Db, Map<string, Database.Statement>>();
export function stmt(db: Db, sql: string): Database.Statement {
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  let statement = perDb.get(sql);
  if (!statement) perDb.set(sql, (statement = db.prepare(sql)));
  return statement;
}

const transactions = new WeakMap<Db, (work: () => unknown) => unknown>();
/**
 * Runs `work` in a transaction (a savepoint inside one). better-sqlite3's `db.transaction(fn)`
 * builds four wrapper functions for every `fn`; the hot writes call this instead, which reuses one
 * per database.
 */
export function inTransaction<T>(db: Db, work: () => T): T {
  let run = transactions.get(db);
  if (!run) transactions.set(db, (run = db.transaction((w: () => unknown) => w())));
  return run(work) as T;
}

export const json = {
  parse(text: string | null | undefined): Record<string, unknown> {
    if (!text) return {};
    try {
      const value: unknown = JSON.parse(text);
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  },
};
