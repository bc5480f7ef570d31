// Contacts: the row, and reads that find and list them.
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import { rows } from '../db/rows';
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

export const contactById = (db: Db, id: number) => rows<ContactRow>(db, 'SELECT * FROM contacts WHERE id = ?').get(id);

/** A page of the account's contacts matching an advanced filter, and how many match in all. */
export function filterContacts(db: Db, accountId: number, condition: Condition, page: number, pageSize: number) {
  const base = `FROM contacts c WHERE c.account_id = ? AND ${condition.sql}`;
  const count = (db.prepare(`SELECT COUNT(*) AS n ${base}`).get(accountId, ...condition.args) as { n: number }).n;
  const rows = db.prepare(`SELECT c.* ${base} ORDER BY c.id LIMIT ? OFFSET ?`).all(accountId, ...condition.args, pageSize, (page - 1) * pageSize) as ContactRow[];
  return { count, rows };
}

export const contactOfAccount = (db: Db, accountId: number, id: number) => stmt(db, 'SELECT * FROM contacts WHERE id = ? AND account_id = ?').get(id, accountId) as ContactRow | undefined;

export const blockContact = (db: Db, id: number) => stmt(db, 'UPDATE contacts SET blocked = 1 WHERE id = ?').run(id);

// procore-sift style: `name` ascending, `-name` descending; unknown attributes are ignored. A Map,
// not an object literal: `sort=constructor` must not find Object.prototype's members.
const SORTABLE = new Map<string, string>([
  ['email', 'c.email'],
  ['name', 'c.name'],
  ['phone_number', 'c.phone_number'],
  ['last_activity_at', 'c.last_activity_at'],
  ['created_at', 'c.created_at'],
  ['company', "json_extract(c.additional_attributes, '$.company_name')"],
  ['city', "json_extract(c.additional_attributes, '$.city')"],
  ['country', "json_extract(c.additional_attributes, '$.country')"],
]);

/**
 * A page of the account's "resolved" contacts (an email, phone number or identifier), as the
 * reference lists them: with every label given, matching a search if given, in `sort` order; and
 * how many match in all.
 */
export function listContacts(db: Db, accountId: number, q: { labels: string[]; search?: string | undefined; sort?: string | undefined; page: number; pageSize: number }) {
  const where = ["c.account_id = ?", "(COALESCE(c.email, '') != '' OR COALESCE(c.phone_number, '') != '' OR COALESCE(c.identifier, '') != '')"];
  const args: unknown[] = [accountId];
  for (const label of q.labels) {
    where.push('EXISTS (SELECT 1 FROM contact_labels l WHERE l.contact_id = c.id AND l.title = ?)');
    args.push(label);
  }
  if (q.search !== undefined) {
    const like = `%${q.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    where.push(
      `(c.name LIKE ?1 ESCAPE '\\' OR c.email LIKE ?1 ESCAPE '\\' OR c.phone_number LIKE ?1 ESCAPE '\\' OR c.identifier LIKE ?1 ESCAPE '\\'
        OR json_extract(c.additional_attributes, '$.company_name') LIKE ?1 ESCAPE '\\')`.replaceAll('?1', '?'),
    );
    args.push(like, like, like, like, like);
  }
  const sortKey = q.sort?.replace(/^-/, '') ?? '';
  const column = SORTABLE.get(sortKey);
  const order = column ? `${column} ${q.sort!.startsWith('-') ? 'DESC' : 'ASC'} NULLS LAST, c.id` : 'c.id';
  const base = `FROM contacts c WHERE ${where.join(' AND ')}`;
  const count = (db.prepare(`SELECT COUNT(*) AS n ${base}`).get(...args) as { n: number }).n;
  const rows = db.prepare(`SELECT c.* ${base} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...args, q.pageSize, (q.page - 1) * q.pageSize) as ContactRow[];
  return { count, rows };
}
