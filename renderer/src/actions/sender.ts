// The single sender that drains the outbox (SYNC-PROTOCOL.md, "The write path"). Per conversation
// strictly in queue order (the head entry goes, the rest wait), across conversations a few at a
// time, so a conversation never has more than one request of unknown outcome out. The queue is
// the cache, so a reload loses nothing: start() takes up whatever is there.
//
// A state change is decided against the service's current record (read first, or the one the
// last read left): already there → confirmed without a request; changed by someone else → parked
// as a conflict for the agent; otherwise sent, carrying the record's revision (`If-Match`) where
// the service checks one, so a request that arrives late can never land over a later change. A
// message carries its client id as the idempotency key where the service honours one, so a repeat
// is answered with the first copy; elsewhere the sender looks for it before sending again.
// Against a service with neither, a request of unknown outcome could still land up to
// `landingWindowMs` after it went: nothing else goes for that conversation before then.
import { liveQuery } from 'dexie';
import type { Bridge } from '../../../shared/bridge/contract';
import type { ServiceFeatures } from '../../../shared/bridge/calls/session';
import type { BridgeError } from '../../../shared/bridge/result';
import type { Conversation } from '../../../shared/api/records';
import type { InboxDb, OutboxEntry } from '../db/schema';
import { saveConversations } from '../db/save';
import { decide, intentValue } from '../model/conflicts';
import type { Intent, LabelChange } from '../model/intent';
import { combineLabelChanges, describeIntent, isLocalMessage } from '../model/intent';
import { BridgeFailure } from '../platform/call';
import type { RefreshOutcome } from '../sync/refresh';
import { refreshConversation } from '../sync/refresh';
import { confirm, deliver, markSideEffects, park, parkConflict, rollBack } from './deliver';
import { findSentMessage } from './find-sent';
import type { BackoffPolicy } from './retry-policy';
import { classify, defaultBackoff, retryDelay } from './retry-policy';
import { outgoingFiles } from './outbox-files';

export interface SenderOptions {
  db: InboxDb;
  bridge: Bridge;
  /** Tells the agent about an action the service refused, or a conflict. */
  notify(text: string): void;
  backoff?: BackoffPolicy;
  now?: () => number;
  random?: () => number;
  /** Conversations served at once (each still one entry at a time). */
  parallel?: number;
  /** How long a confirmed entry stays to shield the cache from answers fetched before it landed. */
  confirmedKeepMs?: number;
  /** The one conversation read (the client's, which also tells this sender the revision). */
  refresh?: (conversationId: number) => Promise<RefreshOutcome>;
}

/** A service keeps idempotency keys 24 hours (SYNC-PROTOCOL.md); after this long the sender looks before resending. */
const KEY_TRUST_MS = 20 * 3_600_000;
/** Rounds of "changed since read" (412) in one go before backing off. */
const PRECONDITION_ROUNDS = 3;
const noFeatures: ServiceFeatures = { idempotencyKey: false, conversationEtag: false, changesFeed: false };
const STATE_KINDS: ReadonlySet<OutboxEntry['kind']> = new Set(['status', 'priority', 'assignee', 'team', 'labels', 'read', 'unread']);

const combinedLabels = (first: LabelChange, then: LabelChange): Intent => {
  const change = combineLabelChanges(first, then);
  return { kind: 'labels', labels: change.add, change };
};

export class OutboxSender {
  private readonly db: InboxDb;
  private readonly bridge: Bridge;
  private readonly backoff: BackoffPolicy;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly parallel: number;
  private readonly confirmedKeepMs: number;
  private readonly refresh: (conversationId: number) => Promise<RefreshOutcome>;
  /** The last record and revision read per conversation (only where the service gives revisions). */
  private readonly known = new Map<number, { record: Conversation; etag: string; askedAt: number }>();
  /** Conversations with an entry on its way. */
  private readonly inFlight = new Set<number>();
  /** Bumped by every start and stop: a lock granted to an earlier start does nothing. */
  private generation = 0;
  private started = false;
  private running = false;
  private releaseLock: (() => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pumping: Promise<void> = Promise.resolve();
  private offSession: (() => void) | undefined;
  private offQueue: (() => void) | undefined;

  constructor(private readonly opts: SenderOptions) {
    this.db = opts.db;
    this.bridge = opts.bridge;
    this.backoff = opts.backoff ?? defaultBackoff;
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
    this.parallel = opts.parallel ?? 4;
    this.confirmedKeepMs = opts.confirmedKeepMs ?? 120_000;
    this.refresh = opts.refresh ?? ((id) => refreshConversation(this.bridge, this.db, id, this.now));
  }

  /** A fresh read of a conversation (from anywhere in the client): its revision is the next write's precondition. */
  remember(conversationId: number, read: RefreshOutcome): void {
    if (read.kind === 'saved' && read.etag) this.known.set(conversationId, { record: read.record, etag: read.etag, askedAt: read.askedAt });
    else this.known.delete(conversationId);
  }

  /**
   * Takes up the queue as left (after a reload: what was on its way may have landed) and drains
   * it. Where the page has Web Locks, one sender per cache runs across windows and tabs: a second
   * window waits for the lock instead of sending the same queue beside the first.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const generation = ++this.generation;
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    if (!locks) return this.begin(generation);
    void locks.request(`outbox:${this.db.name}`, () => {
      if (generation !== this.generation) return undefined;
      return new Promise<void>((release) => {
        this.releaseLock = release;
        void this.begin(generation);
      });
    });
  }

  private async begin(generation: number): Promise<void> {
    if (generation !== this.generation) return;
    this.running = true;
    await this.db.transaction('rw', this.db.outbox, async () => {
      await this.db.outbox
        .where('state')
        .equals('sending')
        .modify((e) => {
          e.state = 'queued';
          // On its way when the page went: it may have landed, or may still land. (A state change
          // claimed but not yet handed over sent nothing; a message is looked for either way.)
          if (e.lastSentAt !== undefined || e.kind === 'message') e.uncertain = true;
        });
    });
    if (generation !== this.generation) return;
    // Whatever queues an entry (perform, a retry from the message) wakes the sender once it commits.
    const queued = liveQuery(() => this.db.outbox.where('state').equals('queued').primaryKeys()).subscribe({ next: () => this.kick(), error: () => undefined });
    this.offQueue = () => queued.unsubscribe();
    // Signing in again after an expired session: what waited for it goes now.
    this.offSession = this.bridge.on('session.changed', (s) => {
      if (s.status === 'signed_in') void this.retryNow();
    });
    this.kick();
  }

  /** Stops draining (what is queued stays queued); `start()` takes it up again. */
  stop() {
    this.generation++;
    this.started = false;
    this.running = false;
    clearTimeout(this.timer);
    this.offSession?.();
    this.offSession = undefined;
    this.offQueue?.();
    this.offQueue = undefined;
    this.releaseLock?.();
    this.releaseLock = undefined;
  }

  /** Something was queued or changed: look at the queue again. */
  kick() {
    if (!this.running) return;
    this.pumping = this.pumping.then(() => this.pump()).catch(() => undefined);
  }

  /** Sends everything waiting for a backoff now (the agent pressed retry, or the session came back). Quiet windows still hold. */
  async retryNow(): Promise<void> {
    await this.db.outbox.where('state').equals('queued').modify({ nextAttemptAt: 0 });
    this.kick();
  }

  private async pump(): Promise<void> {
    if (!this.running) return;
    clearTimeout(this.timer);
    const now = this.now();
    const entries = await this.db.outbox.orderBy('seq').toArray();
    const stale = entries.filter((e) => e.state === 'confirmed' && (e.confirmedAt ?? 0) < now - this.confirmedKeepMs).map((e) => e.seq!);
    if (stale.length) await this.db.outbox.bulkDelete(stale);
    const quiet = new Map((await this.db.quiet.toArray()).map((q) => [q.conversationId, q.until]));
    const over = [...quiet].filter(([, until]) => until <= now).map(([id]) => id);
    if (over.length) await this.db.quiet.bulkDelete(over);
    // The head of each conversation's queue: the oldest entry still to send.
    const heads = new Map<number, OutboxEntry>();
    for (const e of entries) if ((e.state === 'queued' || e.state === 'sending') && !heads.has(e.conversationId)) heads.set(e.conversationId, e);
    let soonest = Infinity;
    for (const head of heads.values()) {
      if (this.inFlight.has(head.conversationId) || head.state !== 'queued') continue;
      const due = Math.max(head.nextAttemptAt, quiet.get(head.conversationId) ?? 0);
      if (due > now) {
        soonest = Math.min(soonest, due);
        continue;
      }
      if (this.inFlight.size >= this.parallel) break;
      this.inFlight.add(head.conversationId);
      void this.process(head)
        // A sender stopped under its work (the page going, its database closed) has nothing left to record.
        .catch(() => undefined)
        .finally(() => {
          this.inFlight.delete(head.conversationId);
          this.kick();
        });
    }
    if (soonest < Infinity) this.timer = setTimeout(() => this.kick(), Math.max(0, soonest - now));
  }

  private async features(): Promise<ServiceFeatures> {
    const r = await this.bridge.call('session.features', {});
    return r.ok ? r.value : noFeatures;
  }

  /**
   * Claims the head: superseded by the next queued change of the same kind (only the last end
   * state matters; it inherits what the agent saw first and any unknown outcome), or held back by
   * a quiet window, or marked `sending`.
   */
  private claim(entry: OutboxEntry): Promise<OutboxEntry | undefined> {
    const db = this.db;
    return db.transaction('rw', db.outbox, db.quiet, async () => {
      const current = await db.outbox.get(entry.seq!);
      // Discarded, or retried by the agent meanwhile: not ours to send any more.
      if (!current || current.state !== 'queued') return undefined;
      if (STATE_KINDS.has(current.kind)) {
        const next = (await db.outbox.where('conversationId').equals(current.conversationId).toArray())
          .filter((e) => e.seq! > current.seq! && (e.state === 'queued' || e.state === 'sending'))
          .sort((a, b) => a.seq! - b.seq!)[0];
        if (next && next.kind === current.kind && next.state === 'queued') {
          await db.outbox.delete(current.seq!);
          const inherited =
            current.firstSentAt === undefined
              ? {}
              : { firstSentAt: current.firstSentAt, lastSentAt: current.lastSentAt, guarded: current.guarded, uncertain: current.uncertain, sent: [...(current.sent ?? []), ...(next.sent ?? [])] };
          // A relative label change followed by another keeps both (the later one alone would lose the first).
          const payload = current.payload.kind === 'labels' && current.payload.change && next.payload.kind === 'labels' && next.payload.change ? combinedLabels(current.payload.change, next.payload.change) : next.payload;
          await db.outbox.update(next.seq!, { before: current.before, payload, ...inherited, ...(current.baseMoved ? { baseMoved: true } : {}) });
          return undefined;
        }
      }
      // Its last attempt may still land, and nothing protects against that: wait until it cannot.
      if (current.uncertain && !current.guarded && current.lastSentAt !== undefined) {
        const until = current.lastSentAt + this.backoff.landingWindowMs;
        if (until > this.now()) {
          await db.quiet.put({ conversationId: current.conversationId, until });
          return undefined;
        }
      }
      const update = { state: 'sending' as const, attempts: current.attempts + 1 };
      await db.outbox.update(current.seq!, update);
      return { ...current, ...update };
    });
  }

  private async process(head: OutboxEntry): Promise<void> {
    // A message's search after an unknown outcome starts after the newest message held before its first attempt.
    const afterId = head.kind === 'message' && head.afterId === undefined ? await this.newestServiceMessageId(head.conversationId) : head.afterId;
    if (afterId !== undefined && head.afterId === undefined) await this.db.outbox.update(head.seq!, { afterId });
    const entry = await this.claim(head);
    if (!entry) return;
    entry.afterId = afterId;
    try {
      if (entry.kind === 'message') await this.sendMessage(entry);
      else await this.sendState(entry);
    } catch (err) {
      const error: BridgeError = err instanceof BridgeFailure ? err.error : { kind: 'internal', message: 'The change could not be saved on this computer.' };
      await this.failed(entry, error, false);
    }
  }

  /** Records that a write is about to go (before it goes, so a reload knows it may have landed). */
  private async handOver(entry: OutboxEntry, guarded: boolean, intent: Intent = entry.payload): Promise<OutboxEntry> {
    const at = this.now();
    const value = intentValue(intent)?.key;
    const sent = { lastSentAt: at, firstSentAt: entry.firstSentAt ?? at, guarded, ...(value === undefined ? {} : { sent: [...(entry.sent ?? []), value] }) };
    await this.db.outbox.update(entry.seq!, sent);
    return { ...entry, ...sent };
  }

  private async sendState(entry: OutboxEntry): Promise<void> {
    const id = entry.conversationId;
    for (let round = 0; round < PRECONDITION_ROUNDS; round++) {
      let base = this.known.get(id);
      if (!base) {
        const read = await this.refresh(id);
        this.remember(id, read);
        if (read.kind === 'gone') return this.refused(entry, { kind: 'not_found', message: 'It no longer exists, or you can no longer see it.' });
        if (read.kind === 'failed') return this.failed(entry, read.error, false);
        base = { record: read.record, etag: read.etag ?? '', askedAt: read.askedAt };
      }
      const features = await this.features();
      const reads = entry.kind === 'read' || entry.kind === 'unread';
      const decision = reads ? ({ kind: 'send', intent: entry.payload } as const) : decide(entry, base.record, entry.firstSentAt !== undefined);
      if (decision.kind === 'done') {
        await this.db.transaction('rw', this.db.outbox, async () => {
          await this.db.outbox.update(entry.seq!, { state: 'confirmed', confirmedAt: this.now(), provenAt: this.now(), uncertain: false, lastError: undefined, lastErrorKind: undefined });
          // Already there after an attempt of ours: that attempt landed, with its side effects.
          if (entry.firstSentAt !== undefined) await markSideEffects(this.db, entry);
        });
        if (decision.told) this.opts.notify(`#${id} was already ${decision.told.theirs}${decision.told.activity ? ` (${decision.told.activity})` : ''}.`);
        return;
      }
      if (decision.kind === 'conflict') {
        this.known.delete(id);
        const { conflict } = decision;
        await parkConflict(this.db, entry, conflict, base.record, base.askedAt, (c, at) => saveConversations(this.db, [c], at));
        this.opts.notify(`#${id}: ${conflict.activity ?? 'someone else changed it'}. It is ${conflict.theirs}; you wanted ${conflict.mine}. y applies yours anyway, d drops it.`);
        return;
      }
      const ifMatch = features.conversationEtag && base.etag ? base.etag : undefined;
      const sent = await this.handOver(entry, ifMatch !== undefined, decision.intent);
      // Whatever the answer, the revision moves on.
      this.known.delete(id);
      const result = await deliver(this.bridge, sent, decision.intent, ifMatch);
      if (result.ok) return confirm(this.db, sent, result.value, this.now, (c) => this.readBack(c), decision.intent);
      // Changed since it was read (another agent, or our own earlier attempt landing): read and decide again.
      if (result.error.kind === 'conflict') continue;
      return this.failed(sent, result.error, true);
    }
    await this.failed(entry, { kind: 'conflict', message: 'It kept changing on the service. Trying again shortly.' }, false);
  }

  private async sendMessage(entry: OutboxEntry): Promise<void> {
    if (entry.uncertain) {
      // Look first: a read cannot create anything, and it answers where the create's answer keeps
      // getting lost. Where the service honours the key, "not found" may only mean "not yet"
      // (still on its way), which is fine: sending again with the same key returns the first copy.
      // Elsewhere the quiet window has passed, so what is not there now never will be.
      const found = await findSentMessage(this.bridge, {
        conversationId: entry.conversationId,
        clientId: entry.clientId,
        intent: entry.payload as Extract<OutboxEntry['payload'], { kind: 'message' }>,
        afterId: entry.afterId ?? 0,
      });
      if (found) return confirm(this.db, entry, { message: found.message }, this.now, (c) => this.readBack(c));
      const keyed = entry.guarded && entry.firstSentAt !== undefined && this.now() - entry.firstSentAt < KEY_TRUST_MS;
      if (!keyed) {
        await this.db.outbox.update(entry.seq!, { uncertain: false });
        entry.uncertain = false;
      }
    }
    // Its files' bytes, read only now (the queue itself carries names and sizes).
    const files = entry.payload.kind === 'message' && entry.payload.files?.length ? await outgoingFiles(this.db, entry.clientId) : undefined;
    if (entry.payload.kind === 'message' && entry.payload.files?.length && !files) {
      return this.refused(entry, { kind: 'invalid_input', message: 'its files are no longer on this computer.' });
    }
    const features = await this.features();
    const sent = await this.handOver(entry, features.idempotencyKey);
    const result = await deliver(this.bridge, sent, sent.payload, undefined, files);
    if (result.ok) return confirm(this.db, sent, result.value, this.now, (c) => this.readBack(c));
    return this.failed(sent, result.error, true);
  }

  private async readBack(conversationId: number): Promise<RefreshOutcome> {
    const read = await this.refresh(conversationId);
    this.remember(conversationId, read);
    return read;
  }

  private async refused(entry: OutboxEntry, error: BridgeError): Promise<void> {
    if (entry.kind === 'message') {
      await park(this.db, entry, error);
      this.opts.notify(`Your ${entry.payload.kind === 'message' && entry.payload.private ? 'note' : 'reply'} to #${entry.conversationId} was not sent: ${error.message}`);
      await this.readBack(entry.conversationId);
    } else {
      await rollBack(this.db, entry, (c) => this.readBack(c));
      this.opts.notify(`Could not ${describeIntent(entry.payload)} #${entry.conversationId}: ${error.message}`);
    }
  }

  /** `wrote`: the failure is the write's own (it may have landed), not a read before it. */
  private async failed(entry: OutboxEntry, error: BridgeError, wrote: boolean): Promise<void> {
    const cls = classify(error.kind);
    if (cls === 'refused') return this.refused(entry, error);
    const unknown = wrote && cls === 'unknown';
    const uncertain = Boolean(entry.uncertain) || unknown;
    const now = this.now();
    await this.db.transaction('rw', this.db.outbox, this.db.quiet, async () => {
      // It may still land and nothing protects against that: nothing else goes for this conversation until it cannot.
      if (unknown && !entry.guarded && entry.lastSentAt !== undefined) await this.db.quiet.put({ conversationId: entry.conversationId, until: entry.lastSentAt + this.backoff.landingWindowMs });
      await this.db.outbox.update(entry.seq!, {
        state: 'queued',
        nextAttemptAt: now + retryDelay(this.backoff, entry.attempts, error.kind, this.random),
        uncertain,
        lastError: error.message,
        lastErrorKind: error.kind,
      });
    });
  }

  /** The newest service message id the cache holds for a conversation (0 if none). */
  private async newestServiceMessageId(conversationId: number): Promise<number> {
    const ids = await this.db.messages.where('[conversation_id+id]').between([conversationId, 0], [conversationId, Infinity]).primaryKeys();
    const real = ids.filter((id) => !isLocalMessage({ id: id as number }));
    return (real.at(-1) as number | undefined) ?? 0;
  }
}
