// One outbox entry → the bridge call that carries it, and what the service's answer means for the
// cache: confirmed (the service's own state is read back), refused (put back what the service
// has), parked (a refused message, a conflict). The sender decides when; this module only does.
import type { Conversation, Message } from '../../../shared/api/records';
import type { Bridge } from '../../../shared/bridge/contract';
import type { BridgeError, Result } from '../../../shared/bridge/result';
import type { OutgoingFile } from '../../../shared/bridge/calls/messages';
import { toCachedConversation } from '../model/normalize';
import type { InboxDb, OutboxEntry } from '../db/schema';
import type { Cached, Intent, IntentKind } from '../model/intent';
import { applyIntent, localMessageId, restoreFields } from '../model/intent';
import { isPending } from '../model/overlay';
import type { ConflictInfo } from '../model/conflicts';
import type { RefreshOutcome } from '../sync/refresh';

/**
 * The answer of a confirmed send: a conversation (read markers), a message, or nothing to keep.
 * `picked`: what an assignment answered (the agent or team, or null when the service took none).
 */
export type Answer = { conversation?: Conversation; message?: Message; picked?: unknown };

/**
 * Sends `intent` for `entry` once (`intent` may differ from the entry's payload: a label set
 * merged with someone else's changes). `ifMatch`: the revision it was decided on, where the
 * service checks one. Never throws: a failure is a `BridgeError` the sender classifies.
 */
export async function deliver(bridge: Bridge, entry: OutboxEntry, intent: Intent = entry.payload, ifMatch?: string, attachments?: OutgoingFile[]): Promise<Result<Answer>> {
  const conversationId = entry.conversationId;
  const guard = ifMatch === undefined ? {} : { ifMatch };
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
          ...guard,
          status: intent.status,
          ...(intent.status === 'snoozed' && intent.snoozedUntil !== null ? { snoozedUntil: intent.snoozedUntil } : {}),
        }),
        none,
      );
    case 'priority':
      return wrap(bridge.call('conversations.togglePriority', { conversationId, ...guard, priority: intent.priority }), none);
    case 'assignee':
      return wrap(bridge.call('conversations.assign', { conversationId, ...guard, assigneeId: intent.assignee?.id ?? null }), (picked) => ({ picked }));
    case 'team':
      return wrap(bridge.call('conversations.assignTeam', { conversationId, ...guard, teamId: intent.team?.id ?? null }), (picked) => ({ picked }));
    case 'labels':
      return wrap(bridge.call('conversations.setLabels', { conversationId, ...guard, labels: intent.labels }), none);
    case 'read':
      return wrap(bridge.call('conversations.updateLastSeen', { conversationId, ...guard }), (conversation) => ({ conversation }));
    case 'unread':
      return wrap(bridge.call('conversations.markUnread', { conversationId, ...guard }), (conversation) => ({ conversation }));
    case 'message':
      // The client id goes as echo_id, as the marker in content_attributes, and as the idempotency key (main).
      // With files it goes as one multipart create (main builds it); the same client id keys it.
      return wrap(
        bridge.call('messages.create', { conversationId, content: intent.content, private: intent.private, clientId: entry.clientId, ...(attachments?.length ? { attachments } : {}) }),
        (message) => ({ message }),
      );
    case 'contact':
      // A contact's lane goes through send-contact.ts, never here.
      return { ok: false, error: { kind: 'internal', message: 'A contact change reached the conversation sender.' } };
  }
}

/**
 * The service confirmed `entry` (or already had what it asks for). The entry stays a while as
 * `confirmed` (answers asked for before now may not show it yet); a sent message replaces its
 * optimistic copy. Then the conversation is read back, so the cache holds the service's own state
 * (which may differ from the intent: an agent who reopens is self-assigned, a new team may clear
 * the assignee), and later queued changes that such side effects touch are rebased on it.
 */
export async function confirm(db: InboxDb, entry: OutboxEntry, answer: Answer, now: () => number, refresh: (id: number) => Promise<RefreshOutcome>, sent: Intent = entry.payload): Promise<void> {
  await db.transaction('rw', [db.outbox, db.messages, db.outboxFiles], async () => {
    // What landed is what was sent (a label set merged with another agent's): that, not the agent's
    // first intent, is what shows while the confirmation is unproven.
    await db.outbox.update(entry.seq!, { state: 'confirmed', confirmedAt: now(), payload: sent, uncertain: false, lastError: undefined, lastErrorKind: undefined });
    // A conflict the agent left waiting is moot once a later change of the same thing landed.
    await db.outbox
      .where('conversationId')
      .equals(entry.conversationId)
      .filter((e) => e.state === 'conflict' && e.kind === entry.kind && e.seq! < entry.seq!)
      .delete();
    await markSideEffects(db, entry);
    if (entry.payload.kind === 'message') {
      // The service has it: its files' bytes are no longer needed here.
      await db.outboxFiles.delete(entry.clientId);
      await db.messages.delete(localMessageId(entry.seq!));
      if (answer.message && answer.message.conversation_id === entry.conversationId) await db.messages.put(answer.message);
    }
  });
  const read = await refresh(entry.conversationId);
  if (read.kind === 'saved') await rebaseLater(db, entry, read.record, sideEffectsOf(entry.kind));
}

/**
 * `entry` landed: later queued changes of the fields its side effects move are told so at once (in
 * the caller's transaction), so what the service shows there is their base even if the read back
 * below fails, or never happens (an entry found already done, its answer lost).
 */
export async function markSideEffects(db: InboxDb, entry: OutboxEntry): Promise<void> {
  const kinds = sideEffectsOf(entry.kind);
  if (!kinds.length) return;
  await db.outbox
    .where('conversationId')
    .equals(entry.conversationId)
    .filter((e) => isPending(e) && e.seq! > entry.seq! && kinds.includes(e.kind))
    .modify({ baseMoved: true });
}

/** Kinds whose field a confirmed change of `kind` may have moved on the service besides its own. */
function sideEffectsOf(kind: IntentKind): readonly IntentKind[] {
  return kind === 'status' || kind === 'team' ? ['assignee'] : [];
}

/**
 * Later queued changes of `kinds` in the same conversation were decided on a state the service no
 * longer has for a reason that is not another agent's (our own side effect, our refused or
 * dropped change): their `before` becomes the service's record with the changes queued between
 * them applied, so the conflict check compares with what the agent would have seen.
 */
export async function rebaseLater(db: InboxDb, entry: OutboxEntry, service: Conversation, kinds: readonly IntentKind[]): Promise<void> {
  if (!kinds.length) return;
  await db.transaction('rw', db.outbox, async () => {
    const later = (await db.outbox.where('conversationId').equals(entry.conversationId).toArray()).filter((e) => isPending(e) && e.seq! > entry.seq!).sort((a, b) => a.seq! - b.seq!);
    let chain: Cached = { row: toCachedConversation(service), record: service };
    for (const e of later) {
      if (kinds.includes(e.kind)) await db.outbox.update(e.seq!, { before: chain });
      chain = applyIntent(chain, e.payload, e.createdAt);
    }
  });
}

/**
 * The service refused a state change (or the agent dropped it): forget it and show what the service
 * has. If the service cannot be read just now, put back the fields this action changed, under
 * whatever the agent queued after it. A conversation the service no longer shows is forgotten (refresh).
 */
export async function rollBack(db: InboxDb, entry: OutboxEntry, refresh: (id: number) => Promise<RefreshOutcome>): Promise<void> {
  await db.outbox.delete(entry.seq!);
  const read = await refresh(entry.conversationId);
  if (read.kind === 'saved') {
    await rebaseLater(db, entry, read.record, [entry.kind]);
    return;
  }
  if (read.kind === 'gone' || !entry.before) return;
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
 * discards it.
 */
export async function park(db: InboxDb, entry: OutboxEntry, error: BridgeError): Promise<void> {
  await db.outbox.update(entry.seq!, { state: 'failed', lastError: error.message, lastErrorKind: error.kind, uncertain: false });
}

/**
 * Someone else changed the same thing since the agent acted: the change waits for the agent (apply
 * anyway, or drop), and meanwhile the screen shows what the service has (`service`, stored again
 * now that this entry no longer counts as on its way).
 */
export async function parkConflict(db: InboxDb, entry: OutboxEntry, conflict: ConflictInfo, service: Conversation, askedAt: number, save: (c: Conversation, at: number) => Promise<void>): Promise<void> {
  await db.outbox.update(entry.seq!, { state: 'conflict', conflict, uncertain: false, lastError: undefined, lastErrorKind: undefined });
  await save(service, askedAt);
}
