// A seeded fault proxy between main and the service (127.0.0.1 only). Each Application API request
// draws a fate from a seeded random source: passed through, or one of the faults a real network
// and real proxies produce:
//
//   refuse       the connection is destroyed at once; nothing reaches the service
//   dropAfter    forwarded, the service answers (it committed), then the connection is destroyed
//   status502/503 answered by the "proxy" itself, nothing forwarded
//   status429    `Retry later` as text/plain, nothing forwarded (the spec's throttle)
//   hold         forwarded only after a delay (up to `maxHoldMs`); if the client gave up meanwhile
//                (its timeout), the request is still delivered: a late delivery
//   slow         forwarded at once, its answer held back (the client may time out while the
//                service has committed)
//
// No proxy library does "deliver after the client gave up" (they tie the upstream request to the
// client connection), hence node:http. WebSocket upgrades (main's live socket) are piped through.
// `stripExtensions` makes the service look like one without our extensions (a real Chatwoot
// installation): the request loses Idempotency-Key and If-Match, the answer X-Inbox-Extensions and
// ETag. Counters say what happened, and `pending()` how many forwards have not finished (a run
// waits for 0 before judging, so every late delivery has landed).
import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { pick, seeded } from './prng';

export type Fault = 'refuse' | 'dropAfter' | 'status502' | 'status503' | 'status429' | 'hold' | 'slow';
export const FAULTS: readonly Fault[] = ['refuse', 'dropAfter', 'status502', 'status503', 'status429', 'hold', 'slow'];

export interface FaultProxyOptions {
  /** The service, e.g. http://127.0.0.1:4470. */
  target: string;
  seed: number;
  /** Share of Application API requests that get a fault (0 to 1). */
  faultRate: number;
  /** Relative weights of the faults (default: all equal). */
  weights?: Partial<Record<Fault, number>>;
  /** The longest a held request waits before it is delivered, and a slow answer before it is sent. */
  maxHoldMs: number;
  stripExtensions?: boolean;
}

export interface FaultProxy {
  url: string;
  port: number;
  /** Faults on or off (off: everything passes, as after the storm). */
  setInjecting(on: boolean): void;
  /** `storm`: the requests made while faults were on (the share a run reports). */
  stats(): { requests: number; faulted: number; byFault: Record<Fault, number>; late: number; storm: { requests: number; faulted: number } };
  /** Forwards not finished yet (held, slow, or on their way). */
  pending(): number;
  /** Resolves once nothing is pending. */
  idle(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

function forwardHeaders(headers: IncomingHttpHeaders, strip: boolean): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) {
    if (HOP_BY_HOP.has(k)) continue;
    if (strip && (k === 'idempotency-key' || k === 'if-match')) continue;
    out[k] = v;
  }
  return out;
}

export async function startFaultProxy(opts: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(opts.target);
  const random = seeded(opts.seed);
  const weights = FAULTS.map((f) => [f, opts.weights?.[f] ?? 1] as const);
  let injecting = true;
  let pending = 0;
  const waiters = new Set<() => void>();
  const stats = { requests: 0, faulted: 0, byFault: Object.fromEntries(FAULTS.map((f) => [f, 0])) as Record<Fault, number>, late: 0, storm: { requests: 0, faulted: 0 } };
  const settle = () => {
    pending--;
    if (pending === 0) for (const w of waiters) w();
  };

  /** Sends the request to the service; answers with its status, headers and body. */
  function forward(req: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer } | undefined> {
    pending++;
    return new Promise((resolve) => {
      const up = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...forwardHeaders(req.headers, Boolean(opts.stripExtensions)), host: target.host, 'content-length': String(body.length) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            settle();
            resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) });
          });
          res.on('error', () => (settle(), resolve(undefined)));
        },
      );
      up.on('error', () => (settle(), resolve(undefined)));
      up.end(body);
    });
  }

  function answer(res: http.ServerResponse, got: { status: number; headers: IncomingHttpHeaders; body: Buffer } | undefined) {
    if (res.destroyed || res.writableEnded) return;
    if (!got) return res.destroy();
    const headers = forwardHeaders(got.headers, false);
    if (opts.stripExtensions) {
      delete headers['x-inbox-extensions'];
      delete headers.etag;
    }
    res.writeHead(got.status, { ...headers, 'content-length': String(got.body.length) });
    res.end(got.body);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const api = /^\/api\//.test(req.url ?? '');
      if (api) stats.requests++;
      if (api && injecting) stats.storm.requests++;
      const fault: Fault | undefined = api && injecting && random() < opts.faultRate ? pick(random, weights) : undefined;
      const delay = Math.floor(random() * opts.maxHoldMs);
      if (fault) {
        stats.faulted++;
        stats.storm.faulted++;
        stats.byFault[fault]++;
      }
      switch (fault) {
        case undefined:
          void forward(req, body).then((got) => answer(res, got));
          return;
        case 'refuse':
          res.socket?.destroy();
          return;
        case 'dropAfter':
          void forward(req, body).then(() => res.socket?.destroy());
          return;
        case 'status502':
        case 'status503':
          res.writeHead(fault === 'status502' ? 502 : 503, { 'content-type': 'text/html' });
          res.end('<html><body>Bad gateway</body></html>');
          return;
        case 'status429':
          res.writeHead(429, { 'content-type': 'text/plain' });
          res.end('Retry later');
          return;
        case 'hold': {
          pending++;
          setTimeout(() => {
            if (res.destroyed || req.socket.destroyed) stats.late++;
            void forward(req, body).then((got) => answer(res, got));
            settle();
          }, delay);
          return;
        }
        case 'slow':
          void forward(req, body).then((got) => {
            pending++;
            setTimeout(() => {
              answer(res, got);
              settle();
            }, delay);
          });
          return;
      }
    });
  });
  // Main's live socket (socket.io over WebSocket): piped through as raw bytes.
  server.on('upgrade', (req, socket, head) => {
    const up = net.connect(Number(target.port), target.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`, ...Object.entries(req.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => `${k}: ${x}`) : [`${k}: ${v}`])), '', ''];
      up.write(lines.join('\r\n'));
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    setInjecting: (on) => (injecting = on),
    stats: () => ({ ...stats, byFault: { ...stats.byFault }, storm: { ...stats.storm } }),
    pending: () => pending,
    idle: (timeoutMs) =>
      new Promise<boolean>((resolve) => {
        if (pending === 0) return resolve(true);
        const done = () => (waiters.delete(done), clearTimeout(timer), resolve(true));
        const timer = setTimeout(() => (waiters.delete(done), resolve(false)), timeoutMs);
        waiters.add(done);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
