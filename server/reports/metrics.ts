// Report metrics over a time range for the account, one agent, inbox, team or label
// (chatwoot-compat §1.13). Counts come from conversations and messages; averages from the
// reporting events the recorder writes. Times in, out: epoch milliseconds; averages in seconds.
import type { Db } from '../db/open';

export const METRICS = ['conversations_count', 'incoming_messages_count', 'outgoing_messages_count', 'avg_first_response_time', 'avg_resolution_time', 'resolutions_count', 'reply_time'] as const;
export type Metric = (typeof METRICS)[number];
export type ReportScope = { type: 'account' } | { type: 'agent' | 'inbox' | 'team'; id: number } | { type: 'label'; title: string };

/** SQL condition on a conversation aliased `c`, and its arguments. */
function conversationScope(scope: ReportScope): [string, unknown[]] {
  switch (scope.type) {
    case 'account':
      return ['1 = 1', []];
    case 'agent':
      return ['c.assignee_id = ?', [scope.id]];
    case 'inbox':
      return ['c.inbox_id = ?', [scope.id]];
    case 'team':
      return ['c.team_id = ?', [scope.id]];
    case 'label':
      return ['EXISTS (SELECT 1 FROM conversation_labels l WHERE l.conversation_id = c.id AND l.title = ?)', [scope.title]];
  }
}

function eventScope(scope: ReportScope): [string, unknown[]] {
  if (scope.type === 'agent') return ['r.user_id = ?', [scope.id]];
  if (scope.type === 'inbox') return ['r.inbox_id = ?', [scope.id]];
  return conversationScope(scope);
}

const EVENT_OF: Partial<Record<Metric, string>> = { avg_first_response_time: 'first_response', avg_resolution_time: 'conversation_resolved', resolutions_count: 'conversation_resolved', reply_time: 'reply_time' };

/** One metric's value over [since, until): a count, or an average in seconds (null when there is nothing to average). */
export function metricValue(db: Db, accountId: number, scope: ReportScope, metric: Metric, since: number, until: number): { value: number | null; count: number } {
  const event = EVENT_OF[metric];
  if (event) {
    const [where, args] = eventScope(scope);
    const row = db
      .prepare(`SELECT AVG(r.value) AS avg, COUNT(*) AS n FROM reporting_events r LEFT JOIN conversations c ON c.id = r.conversation_id WHERE r.account_id = ? AND r.name = ? AND r.created_at >= ? AND r.created_at < ? AND ${where}`)
      .get(accountId, event, since, until, ...args) as { avg: number | null; n: number };
    return metric === 'resolutions_count' ? { value: row.n, count: row.n } : { value: row.avg === null ? null : Math.round(row.avg * 100) / 100, count: row.n };
  }
  if (metric === 'conversations_count') {
    const [where, args] = conversationScope(scope);
    const n = (db.prepare(`SELECT COUNT(*) AS n FROM conversations c WHERE c.account_id = ? AND c.created_at >= ? AND c.created_at < ? AND ${where}`).get(accountId, since, until, ...args) as { n: number }).n;
    return { value: n, count: n };
  }
  const type = metric === 'incoming_messages_count' ? 0 : 1;
  // An agent's outgoing messages are the ones they sent; everything else is scoped by conversation.
  const [where, args] = metric === 'outgoing_messages_count' && scope.type === 'agent' ? ["m.sender_type = 'User' AND m.sender_id = ?", [scope.id]] : conversationScope(scope);
  const n = (
    db
      .prepare(`SELECT COUNT(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.account_id = ? AND m.message_type = ? AND m.created_at >= ? AND m.created_at < ? AND ${where}`)
      .get(accountId, type, since, until, ...args) as { n: number }
  ).n;
  return { value: n, count: n };
}

export function summary(db: Db, accountId: number, scope: ReportScope, since: number, until: number) {
  const values = (from: number, to: number) => ({
    conversations_count: metricValue(db, accountId, scope, 'conversations_count', from, to).value,
    incoming_messages_count: metricValue(db, accountId, scope, 'incoming_messages_count', from, to).value,
    outgoing_messages_count: metricValue(db, accountId, scope, 'outgoing_messages_count', from, to).value,
    avg_first_response_time: metricValue(db, accountId, scope, 'avg_first_response_time', from, to).value,
    avg_resolution_time: metricValue(db, accountId, scope, 'avg_resolution_time', from, to).value,
    resolutions_count: metricValue(db, accountId, scope, 'resolutions_count', from, to).value,
    reply_time: metricValue(db, accountId, scope, 'reply_time', from, to).value,
  });
  // `previous` is the period of the same length just before.
  return { ...values(since, until), previous: values(since - (until - since), since) };
}

export type GroupBy = 'hour' | 'day' | 'week' | 'month' | 'year';

/** Bucket starts (epoch ms) from the one containing `since` up to `until`, in the caller's UTC offset; weeks start on Sunday. Null beyond `max` buckets. */
export function buckets(since: number, until: number, groupBy: GroupBy, offsetHours: number, max = 1000): number[] | null {
  const shift = offsetHours * 3_600_000;
  const start = new Date(since + shift);
  start.setUTCMinutes(0, 0, 0);
  if (groupBy !== 'hour') start.setUTCHours(0);
  if (groupBy === 'week') start.setUTCDate(start.getUTCDate() - start.getUTCDay());
  if (groupBy === 'month' || groupBy === 'year') start.setUTCDate(1);
  if (groupBy === 'year') start.setUTCMonth(0);
  const out: number[] = [];
  for (const d = start; d.getTime() - shift < until; ) {
    if (out.length === max) return null;
    out.push(d.getTime() - shift);
    if (groupBy === 'hour') d.setUTCHours(d.getUTCHours() + 1);
    else if (groupBy === 'day') d.setUTCDate(d.getUTCDate() + 1);
    else if (groupBy === 'week') d.setUTCDate(d.getUTCDate() + 7);
    else if (groupBy === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
    else d.setUTCFullYear(d.getUTCFullYear() + 1);
  }
  return out;
}
