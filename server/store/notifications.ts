// A user's notifications in an account (notifications; written by notifications/notifier.ts).
import type { Db } from '../db/open';
import { stmt } from '../db/open';

export interface NotificationRow {
  id: number;
  account_id: number;
  user_id: number;
  notification_type: string;
  primary_actor_type: string;
  primary_actor_id: number;
  secondary_actor_type: string | null;
  secondary_actor_id: number | null;
  read_at: number | null;
  snoozed_until: number | null;
  meta: string;
  last_activity_at: number;
  created_at: number;
  updated_at: number;
}

/** Whose notifications: a user's in one account. */
export interface NotificationOwner {
  accountId: number;
  userId: number;
}

export const notificationById = (db: Db, id: number) => stmt(db, 'SELECT * FROM notifications WHERE id = ?').get(id) as NotificationRow | undefined;

/** The owner's notification; undefined if it is someone else's. */
export const ownNotification = (db: Db, o: NotificationOwner, id: number) =>
  stmt(db, 'SELECT * FROM notifications WHERE id = ? AND account_id = ? AND user_id = ?').get(id, o.accountId, o.userId) as NotificationRow | undefined;

export const unreadNotificationCount = (db: Db, o: NotificationOwner) =>
  (stmt(db, 'SELECT COUNT(*) AS n FROM notifications WHERE account_id = ? AND user_id = ? AND read_at IS NULL').get(o.accountId, o.userId) as { n: number }).n;

/** All of the owner's notifications and the unread ones, counted. */
export const notificationCounts = (db: Db, o: NotificationOwner) =>
  stmt(db, 'SELECT COUNT(*) AS count, COALESCE(SUM(read_at IS NULL), 0) AS unread_count FROM notifications WHERE account_id = ? AND user_id = ?').get(o.accountId, o.userId) as {
    count: number;
    unread_count: number;
  };

/**
 * A page of the list, newest (or, `asc`, oldest) activity first, and how many there are. Read ones
 * only with `includeRead`; snoozed ones (snoozed until after `now`) only with `includeSnoozed`.
 */
export function notificationPage(db: Db, o: NotificationOwner, q: { includeRead: boolean; includeSnoozed: boolean; now: number; order: 'ASC' | 'DESC'; limit: number; offset: number }) {
  const where = ['account_id = ?', 'user_id = ?'];
  if (!q.includeRead) where.push('read_at IS NULL');
  // Snoozed until a time that has not come yet; once it passes, the notification is back.
  if (!q.includeSnoozed) where.push(`(snoozed_until IS NULL OR snoozed_until <= ${Number(q.now)})`);
  const base = `FROM notifications WHERE ${where.join(' AND ')}`;
  const count = (db.prepare(`SELECT COUNT(*) AS n ${base}`).get(o.accountId, o.userId) as { n: number }).n;
  const rows = db.prepare(`SELECT * ${base} ORDER BY last_activity_at ${q.order}, id ${q.order} LIMIT ? OFFSET ?`).all(o.accountId, o.userId, q.limit, q.offset) as NotificationRow[];
  return { count, rows };
}

/** Ids of the owner's unread notifications, all or those about one conversation. */
export function unreadNotificationIds(db: Db, o: NotificationOwner, conversationId?: number): number[] {
  const rows =
    conversationId === undefined
      ? stmt(db, 'SELECT id FROM notifications WHERE account_id = ? AND user_id = ? AND read_at IS NULL').all(o.accountId, o.userId)
      : stmt(db, "SELECT id FROM notifications WHERE account_id = ? AND user_id = ? AND read_at IS NULL AND primary_actor_type = 'Conversation' AND primary_actor_id = ?").all(
          o.accountId,
          o.userId,
          conversationId,
        );
  return (rows as { id: number }[]).map((r) => r.id);
}

/** Ids of the owner's notifications, all or only the read ones. */
export const notificationIdsOf = (db: Db, o: NotificationOwner, onlyRead: boolean) =>
  (stmt(db, `SELECT id FROM notifications WHERE account_id = ? AND user_id = ? ${onlyRead ? 'AND read_at IS NOT NULL' : ''}`).all(o.accountId, o.userId) as { id: number }[]).map((r) => r.id);

export const markNotificationRead = (db: Db, id: number, now: number) => stmt(db, 'UPDATE notifications SET read_at = ?, updated_at = ? WHERE id = ?').run(now, now, id);

/** Marks these read, in one transaction. */
export function markNotificationsRead(db: Db, ids: number[], now: number) {
  db.transaction(() => {
    for (const id of ids) markNotificationRead(db, id, now);
  })();
}

export const markNotificationUnread = (db: Db, id: number, now: number) => stmt(db, 'UPDATE notifications SET read_at = NULL, updated_at = ? WHERE id = ?').run(now, id);

export const snoozeNotification = (db: Db, id: number, until: number, now: number) => stmt(db, 'UPDATE notifications SET snoozed_until = ?, updated_at = ? WHERE id = ?').run(until, now, id);

export const deleteNotification = (db: Db, id: number) => stmt(db, 'DELETE FROM notifications WHERE id = ?').run(id);

/** Deletes these, in one transaction. */
export function deleteNotifications(db: Db, ids: number[]) {
  db.transaction(() => {
    for (const id of ids) deleteNotification(db, id);
  })();
}
