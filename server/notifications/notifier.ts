// Makes notifications the way the reference service's NotificationListener does, from domain
// events (so a message from any API family counts the same):
//   conversation_creation            every agent of the inbox, unless the conversation starts pending
//   conversation_assignment          the new assignee, unless they assigned themselves, or it is pending
//   conversation_mention             users named as [@Name](mention://user/<id>/<name>) (or a team) in a private note
//   assigned_conversation_new_message the assignee, for a message they did not send (and were not mentioned in)
// Each notification is written in its own transaction and announced with notification.created.
// The reference also filters by per-user notification settings; this service has none, so all are made.
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { DomainEvent, EventBus } from '../events/bus';
import type { ConversationRow } from '../store/conversations';
import { messageWithAssignee } from '../store/conversations';

export type NotificationType = 'conversation_creation' | 'conversation_assignment' | 'assigned_conversation_new_message' | 'conversation_mention';

interface NewNotification {
  accountId: number;
  userId: number;
  type: NotificationType;
  conversation: ConversationRow;
  secondary?: { type: 'Message' | 'User' | 'AgentBot'; id: number } | null;
}

/** Users a mention may reach: administrators of the account and agents of the conversation's inbox. */
function mentionable(db: Db, c: ConversationRow): Set<number> {
  const rows = stmt(
    db,
    `SELECT user_id AS id FROM account_users WHERE account_id = ? AND role = 'administrator'
     UNION SELECT m.user_id FROM inbox_members m JOIN account_users au ON au.user_id = m.user_id AND au.account_id = ? WHERE m.inbox_id = ?`,
  ).all(c.account_id, c.account_id, c.inbox_id) as { id: number }[];
  return new Set(rows.map((r) => r.id));
}

/** User ids named in `[@Name](mention://user/<id>/<name>)` or `mention://team/<id>/<name>` links. */
function mentionedUserIds(db: Db, accountId: number, content: string | null): number[] {
  const ids = new Set<number>();
  for (const match of (content ?? '').matchAll(/\(mention:\/\/(user|team)\/(\d{1,15})\/[^)]*\)/g)) {
    const id = Number(match[2]);
    if (match[1] === 'user') ids.add(id);
    else {
      const members = stmt(db, 'SELECT tm.user_id AS id FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE t.id = ? AND t.account_id = ?').all(id, accountId) as { id: number }[];
      for (const m of members) ids.add(m.id);
    }
  }
  return [...ids];
}

export function installNotifier(db: Db, bus: EventBus, clock: () => number) {
  const conversationOf = (id: number) => stmt(db, 'SELECT * FROM conversations WHERE id = ?').get(id) as ConversationRow | undefined;

  function notify(n: NewNotification): void {
    const now = clock();
    const id = Number(
      stmt(
        db,
        `INSERT INTO notifications (account_id, user_id, notification_type, primary_actor_type, primary_actor_id, secondary_actor_type, secondary_actor_id, last_activity_at, created_at, updated_at)
         VALUES (?, ?, ?, 'Conversation', ?, ?, ?, ?, ?, ?)`,
      ).run(n.accountId, n.userId, n.type, n.conversation.id, n.secondary?.type ?? null, n.secondary?.id ?? null, now, now, now).lastInsertRowid,
    );
    bus.emit({ name: 'notification.created', accountId: n.accountId, userId: n.userId, notificationId: id });
  }

  const handlers: Partial<Record<DomainEvent['name'], (e: DomainEvent) => void>> = {
    'conversation.created': (e) => {
      const c = 'conversationId' in e ? conversationOf(e.conversationId) : undefined;
      if (!c || c.status === 'pending') return;
      const agents = stmt(db, 'SELECT m.user_id AS id FROM inbox_members m JOIN account_users au ON au.user_id = m.user_id AND au.account_id = ? WHERE m.inbox_id = ?').all(c.account_id, c.inbox_id) as { id: number }[];
      for (const a of agents) notify({ accountId: c.account_id, userId: a.id, type: 'conversation_creation', conversation: c });
    },
    'assignee.changed': (e) => {
      if (e.name !== 'assignee.changed') return;
      const c = conversationOf(e.conversationId);
      const assignee = c?.assignee_id;
      if (!c || assignee == null || c.status === 'pending' || !e.changes?.assignee_id) return;
      if (e.performer?.type === 'user' && e.performer.id === assignee) return;
      const secondary = e.performer && e.performer.type !== 'contact' ? { type: e.performer.type === 'user' ? ('User' as const) : ('AgentBot' as const), id: e.performer.id } : null;
      notify({ accountId: c.account_id, userId: assignee, type: 'conversation_assignment', conversation: c, secondary });
    },
    'message.created': (e) => {
      if (e.name !== 'message.created') return;
      const m = messageWithAssignee(db, e.messageId, e.conversationId);
      if (!m || (m.message_type !== 0 && m.message_type !== 1)) return;
      // Most messages notify no one (a public message in an unassigned conversation): the whole
      // conversation row is read only when someone may be.
      if (m.private !== 1 && m.assignee_id == null) return;
      const c = conversationOf(e.conversationId);
      if (!c) return;
      const notified = new Set<number>();
      if (m.private === 1) {
        const allowed = mentionable(db, c);
        for (const userId of mentionedUserIds(db, c.account_id, m.content).filter((id) => allowed.has(id))) {
          notified.add(userId);
          bus.emit({ name: 'conversation.mentioned', accountId: c.account_id, conversationId: c.id, userId, ...(e.performer ? { performer: e.performer } : {}) });
          notify({ accountId: c.account_id, userId, type: 'conversation_mention', conversation: c, secondary: { type: 'Message', id: m.id } });
        }
      }
      const sentByAssignee = m.sender_type === 'User' && m.sender_id === c.assignee_id;
      if (c.assignee_id != null && !sentByAssignee && !notified.has(c.assignee_id)) {
        notify({ accountId: c.account_id, userId: c.assignee_id, type: 'assigned_conversation_new_message', conversation: c, secondary: { type: 'Message', id: m.id } });
      }
    },
  };

  return bus.on((event) => handlers[event.name]?.(event));
}
