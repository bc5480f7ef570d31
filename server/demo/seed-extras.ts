// The demo's Application-API extras, seeded with the rest: an agent bot with a token (on the
// Partner API inbox), an assignment policy bound to the website inbox, contact notes and labels,
// saved filters, notifications for the demo agent, and reporting events for the conversations the
// demo already resolved or answered (so reports show numbers from the first run).
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import { attachAgentBot, createAgentBot } from '../store/provision';

const DAY = 86_400_000;

export function seedExtras(db: Db, accountId: number, now: number) {
  const userId = (email: string) => (stmt(db, 'SELECT id FROM users WHERE email = ?').get(email) as { id: number }).id;
  const inboxId = (name: string) => (stmt(db, 'SELECT id FROM inboxes WHERE account_id = ? AND name = ?').get(accountId, name) as { id: number }).id;
  const admin = userId('alex@acme.example');
  const sam = userId('sam@acme.example');

  const bot = createAgentBot(db, accountId, { name: 'Triage Bot', description: 'Answers partner questions first, then hands over' }, now - 90 * DAY);
  attachAgentBot(db, inboxId('Partner API'), bot.id);

  const policy = Number(
    stmt(
      db,
      `INSERT INTO assignment_policies (account_id, name, description, assignment_order, conversation_priority, fair_distribution_limit, fair_distribution_window, enabled, created_at, updated_at)
       VALUES (?, 'Website round robin', 'Spread website chats evenly', 'round_robin', 'longest_waiting', 10, 3600, 1, ?, ?)`,
    ).run(accountId, now - 60 * DAY, now - 60 * DAY).lastInsertRowid,
  );
  stmt(db, 'INSERT INTO inbox_assignment_policies (inbox_id, assignment_policy_id) VALUES (?, ?)').run(inboxId('Website chat'), policy);

  const contacts = stmt(db, 'SELECT id FROM contacts WHERE account_id = ? ORDER BY id LIMIT 6').all(accountId) as { id: number }[];
  const notes = ['Prefers email over chat.', 'Renewal due next quarter; decision maker is the CTO.', 'Reported the CSV export bug twice.'];
  contacts.slice(0, 3).forEach((c, i) => {
    stmt(db, 'INSERT INTO contact_notes (account_id, contact_id, user_id, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(accountId, c.id, i % 2 ? admin : sam, notes[i], now - (i + 1) * DAY, now - (i + 1) * DAY);
  });
  for (const c of contacts.slice(0, 4)) stmt(db, "INSERT INTO contact_labels (contact_id, title) VALUES (?, 'vip')").run(c.id);

  const filter = (owner: number, name: string, type: string, query: unknown) =>
    stmt(db, 'INSERT INTO custom_filters (account_id, user_id, name, filter_type, query, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(accountId, owner, name, type, JSON.stringify(query), now - 30 * DAY, now - 30 * DAY);
  filter(sam, 'Urgent billing', 'conversation', { payload: [{ attribute_key: 'priority', filter_operator: 'equal_to', values: ['urgent'], query_operator: 'and' }, { attribute_key: 'labels', filter_operator: 'equal_to', values: ['billing'], query_operator: null }] });
  filter(sam, 'VIP contacts', 'contact', { payload: [{ attribute_key: 'labels', filter_operator: 'equal_to', values: ['vip'], query_operator: null }] });

  // Notifications for the demo agent: assignments of open conversations, and a mention.
  const assigned = stmt(db, "SELECT id, last_activity_at FROM conversations WHERE account_id = ? AND assignee_id = ? AND status = 'open' ORDER BY last_activity_at DESC LIMIT 4").all(accountId, sam) as {
    id: number;
    last_activity_at: number;
  }[];
  assigned.forEach((c, i) => {
    stmt(
      db,
      `INSERT INTO notifications (account_id, user_id, notification_type, primary_actor_type, primary_actor_id, secondary_actor_type, secondary_actor_id, read_at, last_activity_at, created_at, updated_at)
       VALUES (?, ?, ?, 'Conversation', ?, 'User', ?, ?, ?, ?, ?)`,
    ).run(accountId, sam, i === 0 ? 'conversation_mention' : 'conversation_assignment', c.id, admin, i === 3 ? c.last_activity_at : null, c.last_activity_at, c.last_activity_at, c.last_activity_at);
  });

  // Reporting events for what the demo history already contains.
  db.exec(`
    INSERT INTO reporting_events (account_id, name, value, inbox_id, user_id, conversation_id, created_at)
      SELECT account_id, 'first_response', (first_reply_created_at - created_at) / 1000.0, inbox_id, assignee_id, id, first_reply_created_at
      FROM conversations WHERE account_id = ${accountId} AND first_reply_created_at IS NOT NULL;
    INSERT INTO reporting_events (account_id, name, value, inbox_id, user_id, conversation_id, created_at)
      SELECT account_id, 'conversation_resolved', (last_activity_at - created_at) / 1000.0, inbox_id, assignee_id, id, last_activity_at
      FROM conversations WHERE account_id = ${accountId} AND status = 'resolved';
  `);
  return { botId: bot.id, botToken: bot.token };
}
