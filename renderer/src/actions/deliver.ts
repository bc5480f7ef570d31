// One outbox entry → the bridge call that carries it, and what the service's answer means for the
// cache: confirmed (store the service's own state), refused (put back what the service has), or
// unknown (the sender tries again).
import type { Conversation, Message } from '../../../shared/api/records';
import type { Bridge } from '../../../shared/bridge/contract';
import type { BridgeError, Result } from '../../../shared/bridge/result';
import type { InboxDb, OutboxEntry } from '../db/schema';
import { forgetConversation, saveConversations } from '../db/save';
import type { Cached } from '../model/intent';
import { applyIntent, localMessageId, restoreFields } from '../model/intent';
import { isPending } from '../model/overlay';

/** The answer of a confirmed send: a conversation (read markers), a message, or nothing to keep. */
export type Answer = { conversation?: Conversation; message?: Message };

/** Sends `entry` once. Never throws: a failure is a `BridgeError` the sender classifies. */
export async function deliver(bridge: Bridge, entry: OutboxEntry): Promise<Result<Answer>> {
  const conversationId = entry.conversationId;
  const intent = entry.payload;
  const wrap = async <T>(r: Promise<Result<T>>, answer: (v: T) => Answer): Promise<Result<Answer>> => {
    const res = await r;
    return res.ok ? { ok: true, value: answer(res.value) } : res;
  };
  const none = () => ({});
  switch (intent.kind) {
    case 'status':
      return wrap(
        bridge.call('conversations.toggleStatus', {
          conversationId,
          status: intent.status,
          ...(intent.status === 'snoozed' && intent.snoozedUntil !== null ? { snoozedUntil: intent.snoozedUntil } : {}),
        }),
        none,
      );
    case 'priority':
      return wrap(bridge.call('conversations.togglePriority', { conversationId, priority: intent.priority }), none);
    case 'assignee':
      return wrap(bridge.call('conversations.assign', { conversationId, assigneeId: intent.assignee?.id ?? null }), none);
    case 'team':
      return wrap(bridge.call('conversations.assignTeam', { conversationId, teamId: intent.team?.id ?? null }), none);
    case 'labels':
      return wrap(bridge.call('conversations.setLabels', { conversationId, labels: intent.labels }), none);
    case 'read':
      return wrap(bridge.call('conversations.updateLastSeen', { conversationId }), (conversation) => ({ conversation }));
    case 'unread':
      return wrap(bridge.call('conversations.markUnread', { conversationId }), (conversation) => ({ conversation }));
    case 'message':
      return wrap(bridge.call('messages.create', { conversationId, content: intent.content, private: intent.private, clientId: entry.clientId }), (message) => ({ message }));
  }
}

/**
 * The service confirmed `entry`. The entry stays a while as `confirmed` (answers fetched before
 * now may not show it yet); a sent message replaces its optimistic copy. Then the conversation is
 * read back, so the cache holds the service's own state (which may differ from the intent: an
 * agent who reopens is self-assigned, a new team may clear the assignee).
 */
export async function confirm(bridge: Bridge, db: InboxDb, entry: OutboxEntry, answer: Answer, now: () => number): Promise<void> {
  await db.transaction('rw', [db.outbox, db.messages], async () => {
    await db.outbox.update(entry.seq!, { state: 'confirmed', confirmedAt: now(), lastError: undefined, lastErrorKind: undefined });
    if (entry.payload.kind === 'message') {
      await db.messages.delete(localMessageId(entry.seq!));
      if (answer.message && answer.message.conversation_id === entry.conversationId) await db.messages.put(answer.message);
    }
  });
  if (answer.conversation) {
    await saveConversations(db, [answer.conversation], now());
    return;
  }
  await readBack(bridge, db, entry.conversationId, now);
}

/** Stores the conversation as the service has it now. False when it could not be read, 'gone' on 404. */
export async function readBack(bridge: Bridge, db: InboxDb, conversationId: number, now: () => number): Promise<boolean | 'gone'> {
  const askedAt = now();
  const fresh = await bridge.call('conversations.get', { conversationId });
  if (fresh.ok) {
    await saveConversations(db, [fresh.value], askedAt);
    return true;
  }
  if (fresh.error.kind === 'not_found') return 'gone';
  return false;
}

/**
 * The service refused a state change: drop it and show what the service has. If the service
 * cannot be read just now, put back the fields this action changed, under whatever the agent
 * queued after it. A conversation the service no longer shows is forgotten.
 */
export async function rollBack(bridge: Bridge, db: InboxDb, entry: OutboxEntry, now: () => number): Promise<void> {
  await db.outbox.delete(entry.seq!);
  const read = await readBack(bridge, db, entry.conversationId, now);
  if (read === true) return;
  if (read === 'gone') {
    await forgetConversation(db, entry.conversationId);
    return;
  }
  if (!entry.before) return;
  await db.transaction('rw', [db.conversations, db.conversationRecords, db.outbox], async () => {
    const id = entry.conversationId;
    let cached: Cached = { row: await db.conversations.get(id), record: (await db.conversationRecords.get(id))?.record };
    cached = restoreFields(cached, entry.before!, entry.kind);
    const later = (await db.outbox.where('conversationId').equals(id).toArray()).filter((e) => isPending(e) && e.seq! > entry.seq! && e.kind === entry.kind).sort((a, b) => a.seq! - b.seq!);
    for (const e of later) cached = applyIntent(cached, e.payload, e.createdAt);
    if (cached.row) await db.conversations.put(cached.row);
    if (cached.record) await db.conversationRecords.put({ id, record: cached.record });
  });
}

/**
 * A message the service refused stays on screen, marked failed, until the agent retries or
 * discards it. (The sender then reads the conversation back, so its preview no longer shows the
 * unsent text.)
 */
export async function park(db: InboxDb, entry: OutboxEntry, error: BridgeError): Promise<void> {
  await db.outbox.update(entry.seq!, { state: 'failed', lastError: error.message, lastErrorKind: error.kind, uncertain: false });
}
