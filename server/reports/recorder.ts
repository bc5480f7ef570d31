// Reporting events, recorded from the domain events as the reference's ReportingEventListener does:
//   first_response         seconds from a conversation's creation to its first agent reply
//   reply_time             seconds a contact waited (waiting_since) until an agent replied
//   conversation_resolved  seconds from creation to resolution
// Reports (reports/metrics.ts) average and count these.
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { EventBus } from '../events/bus';
import type { ConversationRow } from '../store/conversations';

export function installReportingRecorder(db: Db, bus: EventBus, clock: () => number) {
  const record = (c: ConversationRow, name: 'first_response' | 'reply_time' | 'conversation_resolved', seconds: number, at: number) =>
    stmt(db, 'INSERT INTO reporting_events (account_id, name, value, inbox_id, user_id, conversation_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      c.account_id,
      name,
      Math.max(0, seconds),
      c.inbox_id,
      c.assignee_id,
      c.id,
      at,
    );

  return bus.on((e) => {
    if (e.name !== 'conversation.updated' || !e.changes) return;
    const c = stmt(db, 'SELECT * FROM conversations WHERE id = ?').get(e.conversationId) as ConversationRow | undefined;
    if (!c) return;
    const now = clock();
    const firstReply = e.changes.first_reply_created_at;
    if (firstReply && firstReply[0] == null && typeof firstReply[1] === 'number') record(c, 'first_response', (firstReply[1] - c.created_at) / 1000, firstReply[1]);
    const waiting = e.changes.waiting_since;
    if (waiting && typeof waiting[0] === 'number' && waiting[1] == null) record(c, 'reply_time', (now - waiting[0]) / 1000, now);
    const status = e.changes.status;
    if (status && status[1] === 'resolved') record(c, 'conversation_resolved', (now - c.created_at) / 1000, now);
  });
}
