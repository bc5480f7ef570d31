// Webhook delivery, off the request path (chatwoot-compat §5.2): each delivery is a POST of the
// JSON body with Content-Type and Accept application/json, no signature, a timeout (5 s by
// default), no retries, and redirects not followed. Failures are logged (by target origin only:
// a URL may carry a secret) and dropped. A bounded in-memory queue with a small concurrency keeps
// a slow receiver from holding up the service; when full, the oldest pending delivery is dropped.
export interface DeliveryResult {
  url: string;
  event: string;
  outcome: 'delivered' | 'http_error' | 'timeout' | 'network_error';
  status?: number;
}

export interface WebhookQueueOptions {
  timeoutMs?: number;
  concurrency?: number;
  maxPending?: number;
  /** Called after every attempt (tests, metrics). */
  onResult?: (result: DeliveryResult) => void;
  log?: { warn(obj: object, msg: string): void };
}

interface Job {
  url: string;
  event: string;
  body: string;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid-url';
  }
};

export class WebhookQueue {
  private readonly pending: Job[] = [];
  private running = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly maxPending: number;
  dropped = 0;

  constructor(private readonly options: WebhookQueueOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.concurrency = options.concurrency ?? 4;
    this.maxPending = options.maxPending ?? 10_000;
  }

  /** Queues a delivery; returns at once. The body is serialized now, as the event was. */
  enqueue(url: string, event: string, body: unknown) {
    if (this.pending.length >= this.maxPending) {
      const old = this.pending.shift()!;
      this.dropped++;
      this.options.log?.warn({ target: originOf(old.url), event: old.event }, 'webhook queue full: dropped the oldest delivery');
    }
    this.pending.push({ url, event, body: JSON.stringify(body) });
    setImmediate(() => this.pump());
  }

  /** Resolves when nothing is queued or in flight. */
  idle(): Promise<void> {
    if (!this.pending.length && !this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump() {
    while (this.running < this.concurrency && this.pending.length) {
      const job = this.pending.shift()!;
      this.running++;
      void this.send(job).then((result) => {
        this.running--;
        this.options.onResult?.(result);
        if (result.outcome !== 'delivered') this.options.log?.warn({ target: originOf(job.url), event: job.event, outcome: result.outcome, status: result.status }, 'webhook delivery failed');
        this.pump();
        if (!this.pending.length && !this.running) for (const w of this.idleWaiters.splice(0)) w();
      });
    }
  }

  private async send(job: Job): Promise<DeliveryResult> {
    const base = { url: job.url, event: job.event };
    try {
      const res = await fetch(job.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: job.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      // Drain the body so the connection can be reused; its content is of no interest.
      await res.arrayBuffer().catch(() => undefined);
      return res.status >= 200 && res.status < 300 ? { ...base, outcome: 'delivered', status: res.status } : { ...base, outcome: 'http_error', status: res.status };
    } catch (err) {
      const name = (err as Error).name;
      return { ...base, outcome: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network_error' };
    }
  }
}
