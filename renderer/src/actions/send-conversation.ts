// How one claimed entry of a conversation's lane goes (SYNC-PROTOCOL.md, "The write path"): a
// state change is decided against the service's current record and sent with its revision where
// the service checks one; a message is looked for after an unknown outcome and sent with its
// idempotency key. The sender (sender.ts) owns the queue, claims the entry and hands it here.
import type { Conversation } from '../../../shared/api/records';
import type { Bridge } from '../../../shared/bridge/contract';
import type { ServiceFeatures } from '../../../shared/bridge/calls/session';
import type { BridgeError } from '../../../shared/bridge/result';
import type { InboxDb, OutboxEntry } from '../db/schema';
import { saveConversations } from '../db/save';
import { decide, recordValue } from '../model/conflicts';
import type { Intent } from '../model/intent';
import { describeIntent, isLocalMessage } from '../model/intent';
import type { RefreshOutcome } from '../sync/refresh';
import type { Answer } from './deliver';
import { confirm, deliver, markSideEffects, park, parkConflict, rollBack } from './deliver';
import { findSentMessage } from './find-sent';
import { outgoingFiles } from './outbox-files';

/** What the sender lends a lane's sending: the queue's bookkeeping and the service's reads. */
export interface SendCore {
  db: InboxDb;
  bridge: Bridge;
  now(): number;
  notify(text: string): void;
  features(): Promise<ServiceFeatures>;
  /** Records that a write is about to go (before it goes, so a reload knows it may have landed). */
  handOver(entry: OutboxEntry, guarded: boolean, intent?: Intent): Promise<OutboxEntry>;
  /** `wrote`: the failure is the write's own (it may have landed), not a read before it. */
  failed(entry: OutboxEntry, error: BridgeError, wrote: boolean): Promise<void>;
  /** The service said no: roll back or park, and tell the agent. */
  refused(entry: OutboxEntry, error: BridgeError): Promise<void>;
  /** The last record and revision read per conversation (only where the service gives revisions). */
  known: Map<number, { record: Conversation; etag: string; askedAt: number }>;
  /** Reads a conversation, stores it and remembers its revision. */
  readBack(conversationId: number): Promise<RefreshOutcome>;
  /** The service did not know a team or an agent the agent picked: the directory is out of date. */
  directoryStale(): void;
  /** When an attempt of unknown outcome that went at `sentAt` can no longer land (retry-policy.ts, landingWindowMs). */
  landedBy(sentAt: number): number;
  /** Puts the entry back and holds its lane until `until` (a quiet window), when it is decided again. */
  holdLane(entry: OutboxEntry, until: number): Promise<void>;
}

/** A service keeps idempotency keys 24 hours (SYNC-PROTOCOL.md); after this long the sender looks before resending. */
const KEY_TRUST_MS = 20 * 3_600_000;
/** Rounds of "changed since read" (412) in one go before backing off. */
const PRECONDITION_ROUNDS = 3;

/**
 * The service answered a pick of a team or an agent with "none": it did not know that one (it was
 * deleted, or left the account, since the directory was read). The reference service unassigns
 * then, rather than refusing, so the write "succeeds" while the agent's pick was not taken.
 */
const pickNotTaken = (intent: Intent, answer: Answer) =>
  (intent.kind === 'team' && intent.team !== null && answer.picked === null) || (intent.kind === 'assignee' && intent.assignee !== null && answer.picked === null);

export async function sendState(core: SendCore, entry: OutboxEntry): Promise<void> {
  const id = entry.conversationId;
  for (let round = 0; round < PRECONDITION_ROUNDS; round++) {
    let base = core.known.get(id);
    if (!base) {
      const read = await core.readBack(id);
      if (read.kind === 'gone') return core.refused(entry, { kind: 'not_found', message: 'It no longer exists, or you can no longer see it.' });
      if (read.kind === 'failed') return core.failed(entry, read.error, false);
      base = { record: read.record, etag: read.etag ?? '', askedAt: read.askedAt };
    }
    const features = await core.features();
    const reads = entry.kind === 'read' || entry.kind === 'unread';
    const decision = reads ? ({ kind: 'send', intent: entry.payload } as const) : decide(entry, base.record, entry.firstSentAt !== undefined);
    if (decision.kind === 'done') {
      const until = stillLanding(core, entry, base.record);
      if (until !== undefined) {
        // Decided again on a fresh read: the one here would not show that attempt landing.
        core.known.delete(id);
        return core.holdLane(entry, until);
      }
      await core.db.transaction('rw', core.db.outbox, async () => {
        await core.db.outbox.update(entry.seq!, { state: 'confirmed', confirmedAt: core.now(), provenAt: core.now(), uncertain: false, lastError: undefined, lastErrorKind: undefined });
        // Already there after an attempt of ours: that attempt landed, with its side effects.
        if (entry.firstSentAt !== undefined) await markSideEffects(core.db, entry);
      });
      if (decision.told) core.notify(`#${id} was already ${decision.told.theirs}${decision.told.activity ? ` (${decision.told.activity})` : ''}.`);
      return;
    }
    if (decision.kind === 'conflict') {
      core.known.delete(id);
      const { conflict } = decision;
      await parkConflict(core.db, entry, conflict, base.record, base.askedAt, (c, at) => saveConversations(core.db, [c], at));
      core.notify(`#${id}: ${conflict.activity ?? 'someone else changed it'}. It is ${conflict.theirs}; you wanted ${conflict.mine}. y applies yours anyway, d drops it.`);
      return;
    }
    const ifMatch = features.conversationEtag && base.etag ? base.etag : undefined;
    const sent = await core.handOver(entry, ifMatch !== undefined, decision.intent);
    // Whatever the answer, the revision moves on.
    core.known.delete(id);
    const result = await deliver(core.bridge, sent, decision.intent, ifMatch);
    if (result.ok && pickNotTaken(decision.intent, result.value)) return refusePick(core, sent, decision.intent);
    if (result.ok) return confirm(core.db, sent, result.value, core.now, (c) => core.readBack(c), decision.intent);
    // Changed since it was read (another agent, or our own earlier attempt landing): read and decide again.
    if (result.error.kind === 'conflict') continue;
    return core.failed(sent, result.error, true);
  }
  await core.failed(entry, { kind: 'conflict', message: 'It kept changing on the service. Trying again shortly.' }, false);
}

/**
 * "Done" writes nothing, so it does not move the service's revision: an earlier attempt of another
 * value, of unknown outcome and sent with that same revision as its precondition, still passes it
 * if it arrives now, and would undo what the agent last asked for (a reopen held by the network,
 * then a resolve that took its place found the service still resolved). Until that attempt can no
 * longer land, the entry waits; decided again then, it finds the service as that attempt left it.
 * Returns when it can stop waiting, or undefined when confirming now is safe.
 */
function stillLanding(core: SendCore, entry: OutboxEntry, service: Conversation): number | undefined {
  if (!entry.uncertain || entry.lastSentAt === undefined) return undefined;
  const has = recordValue(entry.kind, service)?.key;
  if (has === undefined || !(entry.sent ?? []).some((value) => value !== has)) return undefined;
  const until = core.landedBy(entry.lastSentAt);
  return until > core.now() ? until : undefined;
}

/**
 * The pick landed as "none" (see pickNotTaken): what the service has shows, the agent is told why,
 * and the directory is read again. An answer that only looked like "none" (a proxy's empty body)
 * is caught by the read: the service having the pick confirms it as usual.
 */
async function refusePick(core: SendCore, entry: OutboxEntry, intent: Intent): Promise<void> {
  const read = await core.readBack(entry.conversationId);
  const has = read.kind === 'saved' && (intent.kind === 'team' ? read.record.meta.team?.id === intent.team?.id : read.record.meta.assignee?.id === (intent.kind === 'assignee' ? intent.assignee?.id : undefined));
  if (has) return confirm(core.db, entry, {}, core.now, () => Promise.resolve(read), intent);
  core.directoryStale();
  const what = intent.kind === 'team' ? `the team ${intent.team?.name ?? ''}` : `the agent ${intent.kind === 'assignee' ? (intent.assignee?.name ?? '') : ''}`;
  // Read again once the entry is gone: the read above was stored under it (the pick re-applied).
  await rollBack(core.db, entry, (c) => core.readBack(c));
  core.notify(`Could not ${describeIntent(intent)} #${entry.conversationId}: the service no longer has ${what.trim()} (deleted meanwhile?). The lists of teams and agents were read again.`);
}

export async function sendMessage(core: SendCore, entry: OutboxEntry): Promise<void> {
  if (entry.uncertain) {
    // Look first: a read cannot create anything, and it answers where the create's answer keeps
    // getting lost. Where the service honours the key, "not found" may only mean "not yet"
    // (still on its way), which is fine: sending again with the same key returns the first copy.
    // Elsewhere the quiet window has passed, so what is not there now never will be.
    const found = await findSentMessage(core.bridge, {
      conversationId: entry.conversationId,
      clientId: entry.clientId,
      intent: entry.payload as Extract<OutboxEntry['payload'], { kind: 'message' }>,
      afterId: entry.afterId ?? 0,
    });
    if (found) return confirm(core.db, entry, { message: found.message }, core.now, (c) => core.readBack(c));
    if (!keyTrusted(core, entry)) {
      await core.db.outbox.update(entry.seq!, { uncertain: false });
      entry.uncertain = false;
    }
  }
  // Its files' bytes, read only now (the queue itself carries names and sizes).
  const files = entry.payload.kind === 'message' && entry.payload.files?.length ? await outgoingFiles(core.db, entry.clientId) : undefined;
  if (entry.payload.kind === 'message' && entry.payload.files?.length && !files) {
    return refuseConversationEntry(core, entry, { kind: 'invalid_input', message: 'its files are no longer on this computer.' });
  }
  const features = await core.features();
  const sent = await core.handOver(entry, features.idempotencyKey);
  const result = await deliver(core.bridge, sent, sent.payload, undefined, files);
  if (result.ok) return confirm(core.db, sent, result.value, core.now, (c) => core.readBack(c));
  return core.failed(sent, result.error, true);
}

/** An earlier attempt went with an idempotency key the service still holds: a repeat returns the first copy. */
export const keyTrusted = (core: Pick<SendCore, 'now'>, entry: OutboxEntry) => Boolean(entry.guarded) && entry.firstSentAt !== undefined && core.now() - entry.firstSentAt < KEY_TRUST_MS;

/** A conversation's entry the service refused: a message waits for the agent, a change is rolled back. */
export async function refuseConversationEntry(core: SendCore, entry: OutboxEntry, error: BridgeError): Promise<void> {
  // A refusal about a team or an agent may mean the directory is out of date.
  if (entry.kind === 'team' || entry.kind === 'assignee' || error.attributes?.some((a) => /team|assignee|inbox|label/.test(a))) core.directoryStale();
  if (entry.kind === 'message') {
    await park(core.db, entry, error);
    core.notify(`Your ${entry.payload.kind === 'message' && entry.payload.private ? 'note' : 'reply'} to #${entry.conversationId} was not sent: ${error.message}`);
    await core.readBack(entry.conversationId);
  } else {
    await rollBack(core.db, entry, (c) => core.readBack(c));
    core.notify(`Could not ${describeIntent(entry.payload)} #${entry.conversationId}: ${error.message}`);
  }
}

/** The newest service message id the cache holds for a conversation (0 if none): a message's search after an unknown outcome starts after it. */
export async function newestServiceMessageId(db: InboxDb, conversationId: number): Promise<number> {
  const ids = await db.messages.where('[conversation_id+id]').between([conversationId, 0], [conversationId, Infinity]).primaryKeys();
  const real = ids.filter((id) => !isLocalMessage({ id: id as number }));
  return (real.at(-1) as number | undefined) ?? 0;
}
