// The single sender that drains the outbox. Per conversation strictly in queue order (the head
// entry goes, the rest wait), across conversations a few at a time. A refused state change is
// rolled back and the agent told; a refused message is parked as failed. Anything else stays
// queued and goes again after a backoff: safe for "set to X" actions, and for a message only
// after looking on the service for the copy a previous attempt may have created.
// The queue is the cache, so a reload loses nothing: start() takes up whatever is there.
import { liveQuery } from 'dexie';
import type { Bridge } from '../../../shared/bridge/contract';
import type { BridgeError } from '../../../shared/bridge/result';
import type { InboxDb, OutboxEntry } from '../db/schema';
import { BridgeFailure } from '../platform/call';
import { confirm, deliver, park, readBack, rollBack } from './deliver';
import { findSentMessage } from './find-sent';
import { describeIntent, isLocalMessage } from '../model/intent';
import type { BackoffPolicy } from './retry-policy';
import { classify, defaultBackoff, retryDelay } from './retry-policy';

export interface SenderOptions {
  db: InboxDb;
  bridge: Bridge;
  /** Tells the agent about an action the service refused. */
  notify(text: string): void;
  backoff?: BackoffPolicy;
  now?: () => number;
  random?: () => number;
  /** Conversations served at once (each still one entry at a time). */
  parallel?: number;
  /** How long a confirmed entry stays to shield the cache from answers fetched before it landed. */
  confirmedKeepMs?: number;
}

export class OutboxSender {
  private readonly db: InboxDb;
  private readonly bridge: Bridge;
  private readonly backoff: BackoffPolicy;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly parallel: number;
  private readonly confirmedKeepMs: number;
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
          // A message that was on its way when the page went: it may exist now.
          if (e.kind === 'message') e.uncertain = true;
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

  /** Sends everything waiting for a backoff now (the agent pressed retry, or the session came back). */
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
    // The head of each conversation's queue: the oldest entry still to send.
    const heads = new Map<number, OutboxEntry>();
    for (const e of entries) if ((e.state === 'queued' || e.state === 'sending') && !heads.has(e.conversationId)) heads.set(e.conversationId, e);
    let soonest = Infinity;
    for (const head of heads.values()) {
      if (this.inFlight.has(head.conversationId) || head.state !== 'queued') continue;
      if (head.nextAttemptAt > now) {
        soonest = Math.min(soonest, head.nextAttemptAt);
        continue;
      }
      if (this.inFlight.size >= this.parallel) break;
      this.inFlight.add(head.conversationId);
      void this.process(head).finally(() => {
        this.inFlight.delete(head.conversationId);
        this.kick();
      });
    }
    if (soonest < Infinity) this.timer = setTimeout(() => this.kick(), Math.max(0, soonest - now));
  }

  private async process(entry: OutboxEntry): Promise<void> {
    const seq = entry.seq!;
    const firstSend = entry.kind === 'message' && entry.afterId === undefined ? await this.newestServiceMessageId(entry.conversationId) : entry.afterId;
    const started = await this.db.transaction('rw', this.db.outbox, async () => {
      const current = await this.db.outbox.get(seq);
      // Discarded, or retried by the agent meanwhile: not ours to send any more.
      if (!current || current.state !== 'queued') return undefined;
      const update = { state: 'sending' as const, attempts: current.attempts + 1, ...(firstSend === undefined ? {} : { afterId: firstSend }) };
      await this.db.outbox.update(seq, update);
      return { ...current, ...update };
    });
    if (!started) return;
    try {
      if (started.kind === 'message' && started.uncertain) {
        const found = await findSentMessage(this.bridge, {
          conversationId: started.conversationId,
          clientId: started.clientId,
          intent: started.payload as Extract<OutboxEntry['payload'], { kind: 'message' }>,
          afterId: started.afterId ?? 0,
        });
        if (found) {
          await confirm(this.bridge, this.db, started, { message: found.message }, this.now);
          return;
        }
        // Not there: the earlier attempt created nothing, so sending again cannot duplicate.
        await this.db.outbox.update(seq, { uncertain: false });
        started.uncertain = false;
      }
      const result = await deliver(this.bridge, started);
      if (result.ok) await confirm(this.bridge, this.db, started, result.value, this.now);
      else await this.failed(started, result.error);
    } catch (err) {
      const error: BridgeError = err instanceof BridgeFailure ? err.error : { kind: 'internal', message: 'The change could not be saved on this computer.' };
      await this.failed(started, error);
    }
  }

  private async failed(entry: OutboxEntry, error: BridgeError): Promise<void> {
    const seq = entry.seq!;
    const cls = classify(error.kind);
    if (cls === 'refused') {
      if (entry.kind === 'message') {
        await park(this.db, entry, error);
        this.opts.notify(`Your ${entry.payload.kind === 'message' && entry.payload.private ? 'note' : 'reply'} to #${entry.conversationId} was not sent: ${error.message}`);
        await readBack(this.bridge, this.db, entry.conversationId, this.now);
      } else {
        await rollBack(this.bridge, this.db, entry, this.now);
        this.opts.notify(`Could not ${describeIntent(entry.payload)} #${entry.conversationId}: ${error.message}`);
      }
      return;
    }
    const uncertain = entry.kind === 'message' && (entry.uncertain || cls === 'unknown');
    let wait = retryDelay(this.backoff, entry.attempts, error.kind, this.random);
    if (uncertain) wait = Math.max(wait, this.backoff.settleMs);
    await this.db.outbox.update(seq, { state: 'queued', nextAttemptAt: this.now() + wait, uncertain, lastError: error.message, lastErrorKind: error.kind });
  }

  /** The newest service message id the cache holds for a conversation (0 if none). */
  private async newestServiceMessageId(conversationId: number): Promise<number> {
    const ids = await this.db.messages.where('[conversation_id+id]').between([conversationId, 0], [conversationId, Infinity]).primaryKeys();
    const real = ids.filter((id) => !isLocalMessage({ id: id as number }));
    return (real.at(-1) as number | undefined) ?? 0;
  }
}
