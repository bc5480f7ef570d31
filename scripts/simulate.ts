// npm run simulate -- --credentials <file> --rate <msgs/s> [--contacts <n>] [--duration <s>]
// Contacts writing in through the Client API and the Widget API over real HTTP, against a running
// service (the credentials file comes from `npm run server -- --demo --credentials-out <file>`).
// For demos and load. Stops by itself after --duration seconds (default 300, at most 3600), or
// on Ctrl-C, and prints a summary either way.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as corpus from '../server/demo/corpus';
import type { DemoCredentialsFile } from './lib/service-process';

const usage = 'Usage: npm run simulate -- --credentials <file.json> --rate <msgs/s> [--contacts <n>] [--duration <s>]';

function parse() {
  try {
    const { values } = parseArgs({
      options: { credentials: { type: 'string' }, rate: { type: 'string' }, contacts: { type: 'string', default: '10' }, duration: { type: 'string', default: '300' } },
      strict: true,
    });
    if (!values.credentials || !values.rate) throw new Error('--credentials and --rate are required');
    const rate = Number(values.rate);
    const contacts = Number(values.contacts);
    const duration = Number(values.duration);
    if (!(rate > 0 && rate <= 1000)) throw new Error('--rate must be between 0 and 1000 messages per second');
    if (!Number.isInteger(contacts) || contacts < 1 || contacts > 500) throw new Error('--contacts must be 1-500');
    if (!(duration > 0 && duration <= 3600)) throw new Error('--duration must be 1-3600 seconds');
    const creds = JSON.parse(readFileSync(values.credentials, 'utf8')) as DemoCredentialsFile;
    if (!creds.baseUrl || !creds.apiInboxIdentifier || !creds.websiteToken) throw new Error(`${values.credentials} is not a credentials file from --credentials-out`);
    return { creds, rate, contacts, duration };
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    process.exit(2);
  }
}

const { creds, rate, contacts: contactCount, duration } = parse();
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${creds.baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (!res.ok) throw Object.assign(new Error(`${method} → ${res.status}`), { status: res.status });
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

interface SimContact {
  kind: 'client' | 'widget';
  name: string;
  send(content: string): Promise<unknown>;
}

async function clientContact(): Promise<SimContact> {
  const name = `${pick(corpus.firstNames)} ${pick(corpus.lastNames)}`;
  const base = `/public/api/v1/inboxes/${encodeURIComponent(creds.apiInboxIdentifier)}`;
  const c = await call('POST', `${base}/contacts`, { name });
  const conv = await call('POST', `${base}/contacts/${String(c.source_id)}/conversations`, {});
  const path = `${base}/contacts/${String(c.source_id)}/conversations/${String(conv.id)}/messages`;
  return { kind: 'client', name, send: (content) => call('POST', path, { content }) };
}

async function widgetVisitor(): Promise<SimContact> {
  const q = `?website_token=${encodeURIComponent(creds.websiteToken)}`;
  const session = await call('POST', `/api/v1/widget/config${q}`);
  const token = (session.website_channel_config as { auth_token: string }).auth_token;
  const name = `${pick(corpus.firstNames)} ${pick(corpus.lastNames)}`;
  await call('PATCH', `/api/v1/widget/contact${q}`, { name }, { 'X-Auth-Token': token });
  return { kind: 'widget', name, send: (content) => call('POST', `/api/v1/widget/messages${q}`, { message: { content } }, { 'X-Auth-Token': token }) };
}

const stats = { sent: 0, failed: new Map<string, number>(), latencies: [] as number[], byKind: { client: 0, widget: 0 } };
const started = Date.now();
let inFlight = 0;
let stopping = false;

function summary() {
  const elapsed = (Date.now() - started) / 1000;
  const sorted = [...stats.latencies].sort((a, b) => a - b);
  const pct = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(1) : '-');
  const failed = [...stats.failed.entries()].map(([k, v]) => `${k}: ${v}`).join(', ') || 'none';
  console.log(`\nSimulation summary
  ran        ${elapsed.toFixed(1)} s against ${creds.baseUrl}
  sent       ${stats.sent} messages (${stats.byKind.client} via the Client API, ${stats.byKind.widget} via the widget), ${(stats.sent / elapsed).toFixed(1)} msg/s (asked ${rate})
  failed     ${failed}
  latency    p50 ${pct(50)} ms, p99 ${pct(99)} ms`);
}

async function main() {
  console.log(`Starting ${contactCount} contacts (Client API and widget) against ${creds.baseUrl}…`);
  const people: SimContact[] = [];
  for (let i = 0; i < contactCount; i++) people.push(await (i % 2 ? widgetVisitor() : clientContact()));
  console.log(`Sending ${rate} msg/s for up to ${duration} s. Ctrl-C stops.`);
  const stop = () => {
    if (stopping) return;
    stopping = true;
    clearInterval(timer);
    clearTimeout(limit);
    const wait = setInterval(() => {
      if (inFlight === 0) {
        clearInterval(wait);
        summary();
        process.exit(0);
      }
    }, 20);
  };
  const tick = 1000 / Math.min(rate, 100);
  const perTick = rate / (1000 / tick);
  let budget = 0;
  const timer = setInterval(() => {
    budget += perTick;
    while (budget >= 1 && inFlight < 100) {
      budget -= 1;
      const who = pick(people);
      const topic = pick(corpus.topics);
      const content = Math.random() < 0.3 ? pick(topic.open) : Math.random() < 0.5 ? pick(topic.follow) : pick(corpus.smallTalk);
      const t = performance.now();
      inFlight++;
      who
        .send(content)
        .then(() => {
          stats.sent++;
          stats.byKind[who.kind]++;
          stats.latencies.push(performance.now() - t);
        })
        .catch((err: Error & { status?: number }) => {
          const key = err.status ? `HTTP ${err.status}` : err.name;
          stats.failed.set(key, (stats.failed.get(key) ?? 0) + 1);
        })
        .finally(() => inFlight--);
    }
  }, tick);
  const limit = setTimeout(stop, duration * 1000);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: Error) => {
  console.error(`simulate could not start: ${err.message}`);
  process.exit(1);
});
