// Saved filters (custom_filters): each user's own, per account and filter type.
import type { Db } from '../db/open';
import { stmt } from '../db/open';

export interface CustomFilterRow {
  id: number;
  account_id: number;
  user_id: number;
  name: string;
  filter_type: string;
  query: string;
  created_at: number;
  updated_at: number;
}

export interface CustomFilterFields {
  name: string;
  filter_type: string;
  query: Record<string, unknown>;
}

/** The user's own filter in the account; undefined if it is not theirs. */
export const ownCustomFilter = (db: Db, accountId: number, userId: number, id: number) =>
  stmt(db, 'SELECT * FROM custom_filters WHERE id = ? AND account_id = ? AND user_id = ?').get(id, accountId, userId) as CustomFilterRow | undefined;

export const customFiltersOf = (db: Db, accountId: number, userId: number, filterType: string) =>
  stmt(db, 'SELECT * FROM custom_filters WHERE account_id = ? AND user_id = ? AND filter_type = ? ORDER BY id').all(accountId, userId, filterType) as CustomFilterRow[];

export const customFilterCount = (db: Db, accountId: number, userId: number) =>
  (stmt(db, 'SELECT COUNT(*) AS n FROM custom_filters WHERE account_id = ? AND user_id = ?').get(accountId, userId) as { n: number }).n;

const byId = (db: Db, id: number) => stmt(db, 'SELECT * FROM custom_filters WHERE id = ?').get(id) as CustomFilterRow;

export function insertCustomFilter(db: Db, accountId: number, userId: number, f: CustomFilterFields, now: number): CustomFilterRow {
  const id = Number(
    stmt(db, 'INSERT INTO custom_filters (account_id, user_id, name, filter_type, query, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      accountId,
      userId,
      f.name,
      f.filter_type,
      JSON.stringify(f.query),
      now,
      now,
    ).lastInsertRowid,
  );
  return byId(db, id);
}

export function updateCustomFilter(db: Db, id: number, f: CustomFilterFields, now: number): CustomFilterRow {
  stmt(db, 'UPDATE custom_filters SET name = ?, filter_type = ?, query = ?, updated_at = ? WHERE id = ?').run(f.name, f.filter_type, JSON.stringify(f.query), now, id);
  return byId(db, id);
}

export const deleteCustomFilter = (db: Db, id: number) => stmt(db, 'DELETE FROM custom_filters WHERE id = ?').run(id);
