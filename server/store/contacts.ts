// Contacts: the row, and reads that find and list them.
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { Condition } from './filters';

export interface ContactRow {
  id: number;
  account_id: number;
  name: string;
  email: string | null;
  phone_number: string | null;
  identifier: string | null;
  contact_type: string;
  blocked: number;
  additional_attributes: string;
  custom_attributes: string;
  last_activity_at: number | null;
  created_at: number;
  updated_at: number;
  /** The avatar's uploads row and its absolute URL (migration 4); null without an avatar. */
  avatar_upload_id: number | null;
  thumbnail: string | null;
  /** An avatar_url as given: recorded, never fetched nor rendered. */
  avatar_external_url: string | null;
}

export const contactById = (db: Db, id: number) => stmt(db, 'SELECT * FROM contacts WHERE id = ?').get(id) as ContactRow | undefined;

/** A page of the account's contacts matching an advanced filter, and how many match in all. */
export function filterContacts(db: Db, accountId: number, condition: Condition, page: number, pageSize: number) {
  const base = `FROM contacts c WHERE c.account_id = ? AND ${condition.sql}`;
  const count = (db.prepare(`SELECT COUNT(*) AS n ${base}`).get(accountId, ...condition.args) as { n: number }).n;
  const rows = db.prepare(`SELECT c.* ${base} ORDER BY c.id LIMIT ? OFFSET ?`).all(accountId, ...condition.args, pageSize, (page - 1) * pageSize) as ContactRow[];
  return { count, rows };
}
