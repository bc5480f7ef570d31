// npm run bench:server [-- --messages <n> --connections <n> --sockets <n>]
// Message creates per second through the Client API while agent sockets (socket.io-client, in a
// child process) receive every message.created event, with p50/p99 latency; then, in the same run,
// Fastify's own hello world on this machine, and the ratio between the two. The service runs as a
// child process (the real CLI) so the load generator (autocannon) never shares its event loop.
// Every socket must receive every event it should (admins and inbox members: all of them; agents
// of another account: none), or the run fails.
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { Result } from 'autocannon';
import { startService } from './lib/service-process';

const { values } = parseArgs({
  options: { messages: { type: 'string', default: '5000' }, connections: { type: 'string', default: '16' }, sockets: { type: 'string', default: '200' }, 'hello-seconds': { type: 'string', default: '10' } },
});
const MESSAGES = Number(values.messages);
const CONNECTIONS = Number(values.connections);
const SOCKETS = Number(values.sockets);
const CONVERSATIONS = 50;
const CONTROL_SOCKETS = 10;
const tsx = createRequire(import.meta.url).resolve('tsx');
const here = import.meta.dirname;

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${new URL(url).pathname} → ${res.status}`);
  return (await res.json()) as T;
}

function socketChild() {
  const child = fork(resolve(here, 'bench/socket-clients.ts'), { execArgv: ['--import', tsx], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T>(key: string) =>
    new Promise<T>((done, fail) => {
      const on = (msg: Record<string, unknown>) => {
        if (msg.error) fail(new Error(String(msg.error)));
        if (key in msg) {
          child.off('message', on);
          done(msg[key] as T);
        }
      };
      child.on('message', on);
    });
  return { child, next };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function benchService() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-server-'));
  const service = await startService({ db: join(dir, 'bench.sqlite'), demo: true, credentialsOut: join(dir, 'creds.json'), quiet: true });
  const sockets = socketChild();
  try {
    const creds = service.credentials!;
    const base = service.baseUrl;
    const profile = (token: string) => json<{ pubsub_token: string; account_id: number }>(`${base}/api/v1/profile`, { headers: { api_access_token: token } });
    const [admin, agent, other] = await Promise.all([profile(creds.adminToken), profile(creds.agentToken), profile(creds.otherAccountAdminToken)]);
    // The admin sees every inbox; the demo agent is a member of the API inbox: all must hear every message.
    const specs = Array.from({ length: SOCKETS }, (_, i) => {
      const who = i % 2 ? agent : admin;
      return { auth: { pubsub_token: who.pubsub_token, account_id: who.account_id }, group: 'receivers' };
    });
    for (let i = 0; i < CONTROL_SOCKETS; i++) specs.push({ auth: { pubsub_token: other.pubsub_token, account_id: other.account_id }, group: 'other-account' });
    const ready = sockets.next<boolean>('ready');
    sockets.child.send({ connect: { url: base, sockets: specs } });
    await ready;

    const client = (path: string) => `${base}/public/api/v1/inboxes/${creds.apiInboxIdentifier}${path}`;
    const paths: string[] = [];
    for (let i = 0; i < CONVERSATIONS; i++) {
      const c = await json<{ source_id: string }>(client('/contacts'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `Bench ${i}` }) });
      const conv = await json<{ id: number }>(client(`/contacts/${c.source_id}/conversations`), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      paths.push(new URL(client(`/contacts/${c.source_id}/conversations/${conv.id}/messages`)).pathname);
    }
    let n = 0;
    // Throughput is what was sent over the wall time of the run: autocannon's per-second average
    // rounds the run to whole one-second samples (5,000 in 10.4 s would read 500.0/s).
    const started = performance.now();
    const result = await autocannon({
      url: base,
      connections: CONNECTIONS,
      amount: MESSAGES,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, path: paths[n % paths.length], body: JSON.stringify({ content: `bench ${n++}` }) }),
        },
      ],
    });
    const sent = result['2xx'];
    const seconds = (performance.now() - started) / 1000;

    // Every receiver must get every event; the other account's sockets none.
    const deadline = Date.now() + 120_000;
    let counts: Record<string, number[]> = {};
    for (;;) {
      const report = sockets.next<Record<string, number[]>>('counts');
      sockets.child.send({ report: true });
      counts = await report;
      const done = (counts.receivers ?? []).every((c) => c >= sent);
      if (done || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    return { result, sent, seconds, counts };
  } finally {
    sockets.child.send({ close: true });
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchHello(seconds: number): Promise<Result> {
  const child = spawn(process.execPath, ['--import', tsx, resolve(here, 'bench/hello-server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) done(m[1]!);
    });
    child.once('exit', (code) => fail(new Error(`hello server exited ${code}`)));
  });
  try {
    return await autocannon({ url, connections: CONNECTIONS, duration: seconds });
  } finally {
    child.kill('SIGTERM');
  }
}

const { result, sent, seconds, counts } = await benchService();
const hello = await benchHello(Number(values['hello-seconds']));
const receivers = counts.receivers ?? [];
const control = counts['other-account'] ?? [];
const expected = receivers.length * sent;
const delivered = receivers.reduce((a, b) => a + b, 0);
const perSecond = sent / seconds;
const ok = sent === MESSAGES && result.non2xx === 0 && result.errors === 0 && receivers.every((c) => c === sent) && control.every((c) => c === 0);

console.log(`
bench:server (${new Date().toISOString()}, Node ${process.version})
  message creates (Client API, ${CONNECTIONS} connections, ${SOCKETS} agent sockets listening)
    sent            ${fmt(sent)} of ${fmt(MESSAGES)} (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})
    throughput      ${fmt(perSecond, 1)} msg/s (${fmt(sent)} in ${fmt(seconds, 2)} s)
    latency         p50 ${fmt(result.latency.p50, 1)} ms, p99 ${fmt(result.latency.p99, 1)} ms, max ${fmt(result.latency.max, 1)} ms
    socket events   ${fmt(delivered)} of ${fmt(expected)} delivered (${receivers.filter((c) => c === sent).length}/${receivers.length} sockets got every event; ${control.length} other-account sockets got ${control.reduce((a, b) => a + b, 0)})
  Fastify hello world (same machine, ${CONNECTIONS} connections, ${values['hello-seconds']} s)
    throughput      ${fmt(hello.requests.average, 1)} req/s, p50 ${fmt(hello.latency.p50, 1)} ms, p99 ${fmt(hello.latency.p99, 1)} ms
  ratio             message creates are ${fmt((perSecond / hello.requests.average) * 100, 1)}% of hello-world requests per second
  ${ok ? 'OK' : 'FAILED: not every request succeeded or not every socket received exactly its events'}`);
process.exit(ok ? 0 : 1);
