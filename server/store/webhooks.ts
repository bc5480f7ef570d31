// Account webhooks (chatwoot-compat §1.14, §5.1): what routes/webhooks/ reads and writes.
import type { Db } from '../db/open';
import { stmt } from '../db/open';

export interface WebhookRow {
  id: number;
  account_id: number;
  inbox_id: number | null;
  name: string | null;
  url: string;
  subscriptions: string;
}

export const webhooksOf = (db: Db, accountId: number) => stmt(db, 'SELECT * FROM webhooks WHERE account_id = ? ORDER BY id').all(accountId) as WebhookRow[];

export const webhookById = (db: Db, accountId: number, id: number) => stmt(db, 'SELECT * FROM webhooks WHERE id = ? AND account_id = ?').get(id, accountId) as WebhookRow | undefined;

export const accountHasWebhooks = (db: Db, accountId: number) => Boolean(stmt(db, 'SELECT 1 FROM webhooks WHERE account_id = ?').get(accountId));

/** Whether another webhook of the account already posts to the URL. */
export const webhookUrlTaken = (db: Db, accountId: number, url: string, selfId = 0) => Boolean(stmt(db, 'SELECT 1 FROM webhooks WHERE account_id = ? AND url = ? AND id != ?').get(accountId, url, selfId));

export interface WebhookFields {
  url: string;
  subscriptions: string[];
  inbox_id: number | null;
  name: string | null;
}

export function insertWebhook(db: Db, accountId: number, w: WebhookFields, now: number): WebhookRow {
  const id = Number(
    stmt(db, 'INSERT INTO webhooks (account_id, inbox_id, name, url, subscriptions, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      accountId,
      w.inbox_id,
      w.name,
      w.url,
      JSON.stringify([...new Set(w.subscriptions)]),
      now,
      now,
    ).lastInsertRowid,
  );
  return webhookById(db, accountId, id)!;
}

export function updateWebhook(db: Db, row: WebhookRow, w: WebhookFields, now: number): WebhookRow {
  stmt(db, 'UPDATE webhooks SET url = ?, subscriptions = ?, inbox_id = ?, name = ?, updated_at = ? WHERE id = ?').run(w.url, JSON.stringify([...new Set(w.subscriptions)]), w.inbox_id, w.name, now, row.id);
  return webhookById(db, row.account_id, row.id)!;
}

export const deleteWebhook = (db: Db, id: number) => stmt(db, 'DELETE FROM webhooks WHERE id = ?').run(id);
