// Assignment policies (assignment_policies) and the inbox that uses one (inbox_assignment_policies:
// at most one policy per inbox).
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { InboxRow } from './inboxes';

export interface PolicyRow {
  id: number;
  account_id: number;
  name: string;
  description: string;
  assignment_order: string;
  conversation_priority: string;
  fair_distribution_limit: number;
  fair_distribution_window: number;
  enabled: number;
  created_at: number;
  updated_at: number;
}

/** Every column a create or update sets. */
export type PolicyFields = Omit<PolicyRow, 'id' | 'account_id' | 'created_at' | 'updated_at'>;

export const policyById = (db: Db, accountId: number, id: number) => stmt(db, 'SELECT * FROM assignment_policies WHERE id = ? AND account_id = ?').get(id, accountId) as PolicyRow | undefined;

export const policiesOf = (db: Db, accountId: number) => stmt(db, 'SELECT * FROM assignment_policies WHERE account_id = ? ORDER BY id').all(accountId) as PolicyRow[];

/** The id of the account's policy with this name, if any. */
export const policyNamed = (db: Db, accountId: number, name: string) =>
  (stmt(db, 'SELECT id FROM assignment_policies WHERE account_id = ? AND name = ?').get(accountId, name) as { id: number } | undefined)?.id;

export function insertPolicy(db: Db, accountId: number, p: PolicyFields, now: number): PolicyRow {
  const id = Number(
    stmt(
      db,
      `INSERT INTO assignment_policies (account_id, name, description, assignment_order, conversation_priority, fair_distribution_limit, fair_distribution_window, enabled, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(accountId, p.name, p.description, p.assignment_order, p.conversation_priority, p.fair_distribution_limit, p.fair_distribution_window, p.enabled, now, now).lastInsertRowid,
  );
  return policyById(db, accountId, id)!;
}

export function updatePolicy(db: Db, row: PolicyRow, p: PolicyFields, now: number): PolicyRow {
  stmt(
    db,
    'UPDATE assignment_policies SET name = ?, description = ?, assignment_order = ?, conversation_priority = ?, fair_distribution_limit = ?, fair_distribution_window = ?, enabled = ?, updated_at = ? WHERE id = ?',
  ).run(p.name, p.description, p.assignment_order, p.conversation_priority, p.fair_distribution_limit, p.fair_distribution_window, p.enabled, now, row.id);
  return policyById(db, row.account_id, row.id)!;
}

/** Deletes the policy and unbinds it from its inboxes, in one transaction. */
export function deletePolicy(db: Db, id: number) {
  db.transaction(() => {
    stmt(db, 'DELETE FROM inbox_assignment_policies WHERE assignment_policy_id = ?').run(id);
    stmt(db, 'DELETE FROM assignment_policies WHERE id = ?').run(id);
  })();
}

export const inboxesOfPolicy = (db: Db, policyId: number) =>
  stmt(db, 'SELECT i.* FROM inboxes i JOIN inbox_assignment_policies b ON b.inbox_id = i.id WHERE b.assignment_policy_id = ? ORDER BY i.id').all(policyId) as InboxRow[];

export const policyOfInbox = (db: Db, inboxId: number) =>
  stmt(db, 'SELECT p.* FROM assignment_policies p JOIN inbox_assignment_policies b ON b.assignment_policy_id = p.id WHERE b.inbox_id = ?').get(inboxId) as PolicyRow | undefined;

/** Binds (or re-binds) the inbox to the policy. */
export const bindPolicy = (db: Db, inboxId: number, policyId: number) =>
  stmt(db, 'INSERT INTO inbox_assignment_policies (inbox_id, assignment_policy_id) VALUES (?, ?) ON CONFLICT (inbox_id) DO UPDATE SET assignment_policy_id = excluded.assignment_policy_id').run(inboxId, policyId);

/** Unbinds the inbox's policy; false if it had none. */
export const unbindPolicy = (db: Db, inboxId: number) => stmt(db, 'DELETE FROM inbox_assignment_policies WHERE inbox_id = ?').run(inboxId).changes > 0;
