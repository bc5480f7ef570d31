// Contacts: reads that list them.
import type { Db } from '../db/open';
import type { ContactRow } from '../presenters/people';
import type { Condition } from './filters';

/** A page of the account's contacts matching an advanced filter, and how many match in all. */
export function filterContacts(db: Db, accountId: number, condition: Condition, page: number, pageSize: number) {
  const base = `FROM contacts c WHERE c.account_id = ? AND ${condition.sql}`;
  const count = (db.prepare(`SELECT COUNT(*) AS n ${base}`).get(accountId, ...condition.args) as { n: number }).n;
  const rows = db.prepare(`SELECT c.* ${base} ORDER BY c.id LIMIT ? OFFSET ?`).all(accountId, ...condition.args, pageSize, (page - 1) * pageSize) as ContactRow[];
  return { count, rows };
}
