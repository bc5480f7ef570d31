// What reports read besides the metrics (reports/metrics.ts): the record a report is about, and
// the live conversation counts (chatwoot-compat §1.13 `reports/conversations`).
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { ReportScope } from '../reports/metrics';
import type { UserRow } from './users';

/** The record a per-agent/inbox/team/label report names, in the account; undefined if it is not there. */
export function reportTarget(db: Db, accountId: number, type: 'agent' | 'inbox' | 'team' | 'label', id: number): ReportScope | undefined {
  if (type === 'label') {
    const label = stmt(db, 'SELECT title FROM labels WHERE account_id = ? AND id = ?').get(accountId, id) as { title: string } | undefined;
    return label && { type, title: label.title };
  }
  const sql = {
    agent: 'SELECT 1 FROM account_users WHERE account_id = ? AND user_id = ?',
    inbox: 'SELECT 1 FROM inboxes WHERE account_id = ? AND id = ?',
    team: 'SELECT 1 FROM teams WHERE account_id = ? AND id = ?',
  }[type];
  return stmt(db, sql).get(accountId, id) ? { type, id } : undefined;
}

/**
 * Open conversations now: how many, how many still wait for a first reply (unattended), how many
 * have no assignee; narrowed to one assignee when given.
 */
export function openConversationCounts(db: Db, accountId: number, assigneeId?: number) {
  const row = stmt(
    db,
    `SELECT COUNT(*) AS open, COALESCE(SUM(first_reply_created_at IS NULL), 0) AS unattended, COALESCE(SUM(assignee_id IS NULL), 0) AS unassigned
     FROM conversations WHERE account_id = ? AND status = 'open' AND (? IS NULL OR assignee_id = ?)`,
  ).get(accountId, assigneeId ?? null, assigneeId ?? null) as { open: number; unattended: number; unassigned: number };
  const pending = (stmt(db, "SELECT COUNT(*) AS n FROM conversations WHERE account_id = ? AND status = 'pending' AND (? IS NULL OR assignee_id = ?)").get(accountId, assigneeId ?? null, assigneeId ?? null) as { n: number }).n;
  return { ...row, pending };
}

/** The account's agents (users), by name, optionally one. */
export function accountAgents(db: Db, accountId: number, userId?: number): (UserRow & { availability: string })[] {
  return stmt(
    db,
    `SELECT u.*, au.availability FROM users u JOIN account_users au ON au.user_id = u.id
     WHERE au.account_id = ? AND (? IS NULL OR u.id = ?) ORDER BY lower(u.name), u.id`,
  ).all(accountId, userId ?? null, userId ?? null) as (UserRow & { availability: string })[];
}
