// Account labels (labels) and canned responses (canned_responses).
import type { Db } from '../db/open';
import { stmt } from '../db/open';

export interface LabelRow {
  id: number;
  account_id: number;
  title: string;
  description: string;
  color: string;
  show_on_sidebar: number;
}
export interface CannedRow {
  id: number;
  account_id: number;
  short_code: string;
  content: string;
  created_at: number;
  updated_at: number;
}

export const labelById = (db: Db, accountId: number, id: number) => stmt(db, 'SELECT * FROM labels WHERE id = ? AND account_id = ?').get(id, accountId) as LabelRow | undefined;
export const labelsOfAccount = (db: Db, accountId: number) => stmt(db, 'SELECT * FROM labels WHERE account_id = ? ORDER BY title').all(accountId) as LabelRow[];
/** The account's label with this title, if any. */
export const labelTitled = (db: Db, accountId: number, title: string) => stmt(db, 'SELECT * FROM labels WHERE account_id = ? AND title = ?').get(accountId, title) as LabelRow | undefined;

export function insertLabel(db: Db, accountId: number, l: { title: string; description: string; color: string; showOnSidebar: boolean }): LabelRow {
  const id = Number(stmt(db, 'INSERT INTO labels (account_id, title, description, color, show_on_sidebar) VALUES (?, ?, ?, ?, ?)').run(accountId, l.title, l.description, l.color, l.showOnSidebar ? 1 : 0).lastInsertRowid);
  return labelById(db, accountId, id)!;
}

/** Title always; the other fields only when given. */
export function updateLabel(db: Db, row: LabelRow, l: { title: string; description?: string | undefined; color?: string | undefined; showOnSidebar?: boolean | undefined }): LabelRow {
  stmt(db, 'UPDATE labels SET title = ?, description = COALESCE(?, description), color = COALESCE(?, color), show_on_sidebar = COALESCE(?, show_on_sidebar) WHERE id = ?').run(
    l.title,
    l.description ?? null,
    l.color ?? null,
    l.showOnSidebar === undefined ? null : Number(l.showOnSidebar),
    row.id,
  );
  return labelById(db, row.account_id, row.id)!;
}

export const deleteLabel = (db: Db, id: number) => stmt(db, 'DELETE FROM labels WHERE id = ?').run(id);

export const cannedById = (db: Db, accountId: number, id: number) => stmt(db, 'SELECT * FROM canned_responses WHERE id = ? AND account_id = ?').get(id, accountId) as CannedRow | undefined;
export const cannedOfAccount = (db: Db, accountId: number) => stmt(db, 'SELECT * FROM canned_responses WHERE account_id = ? ORDER BY id').all(accountId) as CannedRow[];
export const cannedWithCode = (db: Db, accountId: number, shortCode: string) =>
  stmt(db, 'SELECT * FROM canned_responses WHERE account_id = ? AND short_code = ?').get(accountId, shortCode) as CannedRow | undefined;

export function saveCanned(db: Db, accountId: number, c: { short_code: string; content: string }, now: number, id?: number): CannedRow {
  if (id === undefined) {
    id = Number(stmt(db, 'INSERT INTO canned_responses (account_id, short_code, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(accountId, c.short_code, c.content, now, now).lastInsertRowid);
  } else {
    stmt(db, 'UPDATE canned_responses SET short_code = ?, content = ?, updated_at = ? WHERE id = ?').run(c.short_code, c.content, now, id);
  }
  return cannedById(db, accountId, id)!;
}

export const deleteCanned = (db: Db, id: number) => stmt(db, 'DELETE FROM canned_responses WHERE id = ?').run(id);
