// The single sender that drains the outbox (SYNC-PROTOCOL.md, "The write path"). Entries go in
// lanes, one per target (a conversation, or a contact: `OutboxEntry.conversationId`): per lane
// strictly in queue order (the head entry goes, the rest wait), across lanes a few at a time, so a
// target never has more than one request of unknown outcome out. The queue is the cache, so a
// reload loses nothing: start() takes up whatever is there.
//
// How an entry goes is its lane's business (send-conversation.ts: decided against the service's
// record, sent with its revision or its idempotency key). Against a service that protects a write
// with neither, a request of unknown outcome could still land up to `landingWindowMs` after it
// went: nothing else goes in that lane before then (a quiet window).
import type { Bridge } from '../../../shared/bridge/contract';
import type { ServiceFeatures } from '../../../shared/bridge/calls/session';
import type { BridgeError } from '../../../shared/bridge/result';
import type { InboxDb, OutboxEntry } from '../db/schema';
import type { OutboxLine } from '../db/outbox-summary';
import { OutboxSummary } from '../db/outbox-summary';
import { intentValue } from '../model/conflicts';
import type { Intent, LabelChange } from '../model/intent';
import { combineLabelChanges } from '../model/intent';
import { BridgeFailure } from '../platform/call';
import type { RefreshOutcome } from '../sync/refresh';
import { refreshConversation } from '../sync/refresh';
import type { BackoffPolicy } from './retry-policy';
import { classify, defaultBackoff, retryDelay } from './retry-policy';
import { refuseContactEntry, sendContact } from './send-contact';
import type { SendCore } from './send-conversation';
import { newestServiceMessageId, refuseConversationEntry, sendMessage, sendState } from './send-conversation';

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
  /** The service did not know a team or agent the agent picked, or refused a change naming one: read the directory again. */
  directoryStale?: () => void;
  /** The outbox kept in memory (the client's, shared with the screen); one of its own when not given. */
  summary?: OutboxSummary;
}

const noFeatures: ServiceFeatures = { idempotencyKey: false, conversationEtag: false, changesFeed: false, presence: false };
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
  /** What a lane's sending may use of this sender (send-conversation.ts). */
  private readonly core: SendCore;
  /** Lanes with an entry on its way. */
  private readonly inFlight = new Set<number>();
  /** Bumped by every start and stop: a lock granted to an earlier start does nothing. */
  private generation = 0;
  private started = false;
  private running = false;
  private releaseLock: (() => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pumping: Promise<void> = Promise.resolve();
  private offSession: (() => void) | undefined;
  private offSummary: (() => void) | undefined;
  private readonly summary: OutboxSummary;

  constructor(private readonly opts: SenderOptions) {
    this.db = opts.db;
    this.bridge = opts.bridge;
    this.backoff = opts.backoff ?? defaultBackoff;
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
    this.parallel = opts.parallel ?? 4;
    this.confirmedKeepMs = opts.confirmedKeepMs ?? 120_000;
    this.refresh = opts.refresh ?? ((id) => refreshConversation(this.bridge, this.db, id, this.now));
    this.summary = opts.summary ?? new OutboxSummary(this.db);
    this.core = {
      db: this.db,
      bridge: this.bridge,
      now: this.now,
      notify: (text) => opts.notify(text),
      features: () => this.features(),
      handOver: (entry, guarded, intent) => this.handOver(entry, guarded, intent),
      failed: (entry, error, wrote) => this.failed(entry, error, wrote),
      refused: (entry, error) => this.refused(entry, error),
      known: new Map(),
      readBack: async (id) => {
        const read = await this.refresh(id);
        this.remember(id, read);
        return read;
      },
      directoryStale: () => opts.directoryStale?.(),
      landedBy: (sentAt) => this.landedBy(sentAt),
      holdLane: (entry, until) => this.holdLane(entry, until),
    };
  }

  /** A fresh read of a conversation (from anywhere in the client): its revision is the next write's precondition. */
  remember(conversationId: number, read: RefreshOutcome): void {
    if (read.kind === 'saved' && read.etag) this.core.known.set(conversationId, { record: read.record, etag: read.etag, askedAt: read.askedAt });
    else this.core.known.delete(conversationId);
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
    // What wakes it: the app's own writes kick it as they commit (ActionContext.kick); the queue as
    // kept in memory takes in every write to the outbox, this window's and other windows', and each
    // change it takes in is looked at (pump reads the queue from it). Until the summary begins (once
    // the first rows are on screen) only kicks wake it. No live query of its own over the queue: it
    // read the outbox again after every write, beside the summary's read of the same write.
    this.offSummary = this.summary.subscribe(() => this.kick());
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
    this.offSummary?.();
    this.offSummary = undefined;
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
    // Each entry's state, from memory once the summary has read the outbox (reading every entry at
    // each look cost a read that grew with the queue, several per triage key offline). It may lag a
    // write by a moment: what is sent is read afresh (process, claim), and each change it takes in
    // brings another look.
    const entries: readonly OutboxLine[] = this.summary.snapshot()?.entries ?? (await this.db.outbox.orderBy('seq').toArray());
    const stale = entries.filter((e) => e.state === 'confirmed' && (e.confirmedAt ?? 0) < now - this.confirmedKeepMs).map((e) => e.seq!);
    if (stale.length) await this.db.outbox.bulkDelete(stale);
    const quiet = new Map((await this.db.quiet.toArray()).map((q) => [q.conversationId, q.until]));
    const over = [...quiet].filter(([, until]) => until <= now).map(([id]) => id);
    if (over.length) await this.db.quiet.bulkDelete(over);
    // The head of each conversation's queue: the oldest entry still to send.
    const heads = new Map<number, OutboxLine>();
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
        const until = this.landedBy(current.lastSentAt);
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

  private async process(line: OutboxLine): Promise<void> {
    // As it is now: the look that chose it may have read it a moment before a write (a failure
    // putting it off, the agent discarding it). Not due after all: the change brings another look.
    const head = await this.db.outbox.get(line.seq!);
    if (!head || head.state !== 'queued' || head.nextAttemptAt > this.now()) return;
    // A message's search after an unknown outcome starts after the newest message held before its first attempt.
    const afterId = head.kind === 'message' && head.afterId === undefined ? await newestServiceMessageId(this.db, head.conversationId) : head.afterId;
    if (afterId !== undefined && head.afterId === undefined) await this.db.outbox.update(head.seq!, { afterId });
    const entry = await this.claim(head);
    if (!entry) return;
    entry.afterId = afterId;
    try {
      if (entry.kind === 'contact') await sendContact(this.core, entry);
      else if (entry.kind === 'message') await sendMessage(this.core, entry);
      else await sendState(this.core, entry);
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

  /** When an attempt of unknown outcome that went at `sentAt` can no longer land (the end of its quiet window). */
  private landedBy(sentAt: number): number {
    return sentAt + this.backoff.landingWindowMs;
  }

  /** Waits out an earlier attempt that may still land (send-conversation.ts, stillLanding); the header says it is waiting, not saving. */
  private async holdLane(entry: OutboxEntry, until: number): Promise<void> {
    await this.db.transaction('rw', this.db.outbox, this.db.quiet, async () => {
      await this.db.quiet.put({ conversationId: entry.conversationId, until });
      await this.db.outbox.update(entry.seq!, { state: 'queued', lastError: 'An earlier attempt may still reach the service: checking again once it cannot.', lastErrorKind: entry.lastErrorKind ?? 'timeout' });
    });
  }

  private refused(entry: OutboxEntry, error: BridgeError): Promise<void> {
    return entry.kind === 'contact' ? refuseContactEntry(this.core, entry, error) : refuseConversationEntry(this.core, entry, error);
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
      if (unknown && !entry.guarded && entry.lastSentAt !== undefined) await this.db.quiet.put({ conversationId: entry.conversationId, until: this.landedBy(entry.lastSentAt) });
      await this.db.outbox.update(entry.seq!, {
        state: 'queued',
        nextAttemptAt: now + retryDelay(this.backoff, entry.attempts, error.kind, this.random),
        uncertain,
        lastError: error.message,
        lastErrorKind: error.kind,
      });
    });
  }
}
