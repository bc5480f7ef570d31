// The service's figures: message creates per second through the Client API with no agent socket
// and with 200 listening (every one must receive every event), each against Fastify's hello world
// measured in the same run, the CPU each process burned meanwhile (service, load generator,
// socket receivers: they share the machine's cores), and a CPU profile of the service cut into
// the stages of a create. The service runs as a child process (the real CLI, a WAL database
// file), so the load generator (autocannon, in this process) never shares its event loop.
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { HOLD_MS } from '../../server/live/write-coalescing';
import { startService } from '../lib/service-process';
import { cpuMeter } from './cpu';
import { benchLongConversation } from './long-conversation';
import type { Figure } from './figures';
import { absolute, against, median, medianBy, round } from './figures';
import type { CpuProfile } from './profile-summary';
import { summarize } from './profile-summary';

export interface ServiceBenchOptions {
  /** Creates per run. */
  messages: number;
  /** Creates before each measured run, through the same route and sockets, not counted (the JIT's warm-up). */
  warmup: number;
  /** autocannon's concurrent HTTP connections. */
  connections: number;
  /** Agent sockets listening in the second run. */
  sockets: number;
  /** Seconds of each hello world: one before the rounds and one after each (a round's reference is the mean of the two either side). */
  helloSeconds: number;
  /** Rounds of the two create runs (the figure is the round with the median ratio). */
  rounds: number;
  /** Creates in the profiled run (0: no profile). */
  profileMessages: number;
  log(line: string): void;
}

const CONVERSATIONS = 50;
/**
 * autocannon ends a run of `amount` requests only at its next sample tick (every second by
 * default): the wall time of a 2-3 s run was rounded up to whole seconds, understating creates/s
 * by up to a third. Ticks every 10 ms end it within 10 ms of its last response.
 */
const SAMPLE_MS = 10;
const CONTROL_SOCKETS = 10;
const tsx = createRequire(import.meta.url).resolve('tsx');
const here = import.meta.dirname;

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${new URL(url).pathname} → ${res.status}`);
  return (await res.json()) as T;
}

function socketChild() {
  const child = fork(resolve(here, 'socket-clients.ts'), { execArgv: ['--import', tsx], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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

interface CreateRun {
  sent: number;
  perSecond: number;
  latency: { p50: number; p99: number };
  ok: boolean;
  delivery: string;
  cpu: { service: number; generator: number; receivers: number };
  cpuMs: { service: number; generator: number; receivers: number };
  /** The service's main thread's share of the run spent waiting for a core. */
  serviceWaiting: number;
  profile?: CpuProfile;
}

/** One round: the two create runs and the mean of the hello worlds measured either side of them. */
interface Round {
  none: CreateRun;
  many: CreateRun;
  hello: number;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** One run of creates through the Client API, with `sockets` agent sockets that must each hear every one. */
async function createRun(opts: { messages: number; warmup: number; connections: number; sockets: number; profile: boolean }): Promise<CreateRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-service-'));
  const service = await startService({
    db: join(dir, 'bench.sqlite'),
    demo: true,
    credentialsOut: join(dir, 'creds.json'),
    quiet: true,
    ...(opts.profile ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', join(dir, 'profile')] } : {}),
  });
  const sockets = opts.sockets ? socketChild() : undefined;
  let run: CreateRun;
  try {
    const creds = service.credentials!;
    const base = service.baseUrl;
    const profile = (token: string) => json<{ pubsub_token: string; account_id: number }>(`${base}/api/v1/profile`, { headers: { api_access_token: token } });
    if (sockets) {
      const [admin, agent, other] = await Promise.all([profile(creds.adminToken), profile(creds.agentToken), profile(creds.otherAccountAdminToken)]);
      // The admin sees every inbox; the demo agent is a member of the API inbox: all must hear every message.
      const specs = Array.from({ length: opts.sockets }, (_, i) => {
        const who = i % 2 ? agent : admin;
        return { auth: { pubsub_token: who.pubsub_token, account_id: who.account_id }, group: 'receivers' };
      });
      for (let i = 0; i < CONTROL_SOCKETS; i++) specs.push({ auth: { pubsub_token: other.pubsub_token, account_id: other.account_id }, group: 'other-account' });
      const ready = sockets.next<boolean>('ready');
      sockets.child.send({ connect: { url: base, sockets: specs, messages: opts.messages } });
      await ready;
    }
    const client = (path: string) => `${base}/public/api/v1/inboxes/${creds.apiInboxIdentifier}${path}`;
    const paths: string[] = [];
    for (let i = 0; i < CONVERSATIONS; i++) {
      const c = await json<{ source_id: string }>(client('/contacts'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `Bench ${i}` }) });
      const conv = await json<{ id: number }>(client(`/contacts/${c.source_id}/conversations`), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      paths.push(new URL(client(`/contacts/${c.source_id}/conversations/${conv.id}/messages`)).pathname);
    }
    const post = (content: (i: number) => string) => {
      let i = 0;
      return { method: 'POST' as const, headers: { 'content-type': 'application/json' }, setupRequest: (req: object) => ({ ...req, path: paths[i % paths.length], body: JSON.stringify({ content: content(i++) }) }) };
    };
    // Every receiver must also hear every warm-up event (a lost one is a lost event like any other).
    let warmupHeard = true;
    if (opts.warmup > 0) {
      // The service compiles its hot paths during its first thousands of creates (a cold service
      // spent nearly twice the CPU per create); hello world's 10 s are warm all but their first
      // moments. Warm-up messages are not the run's ("warm-up <n>"): the receivers count them apart.
      await autocannon({ url: base, connections: opts.connections, amount: opts.warmup, sampleInt: SAMPLE_MS, requests: [post((i) => `warm-up ${i}`)] });
      if (sockets) {
        const deadline = Date.now() + 120_000;
        for (;;) {
          const report = sockets.next<Record<string, number[]>>('others');
          sockets.child.send({ report: true });
          warmupHeard = (await report).receivers!.every((c) => c === opts.warmup);
          if (warmupHeard || Date.now() > deadline) break;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    }
    const meter = cpuMeter({ service: service.child.pid, generator: process.pid, receivers: sockets?.child.pid });
    // Throughput is what was sent over the wall time of the run: autocannon's per-second average
    // rounds the run to whole one-second samples.
    const result = await autocannon({
      url: base,
      connections: opts.connections,
      amount: opts.messages,
      sampleInt: SAMPLE_MS,
      requests: [post((i) => `bench ${i}`)],
    });
    const sent = result['2xx'];
    // Every receiver must get every event; the other account's sockets none. Waiting for the last
    // ones counts: the run ends when every socket heard every event.
    let counts: Record<string, number[]> = {};
    let wrong: Record<string, number> = {};
    if (sockets) {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const report = Promise.all([sockets.next<Record<string, number[]>>('counts'), sockets.next<Record<string, number>>('wrong')]);
        sockets.child.send({ report: true });
        [counts, wrong] = await report;
        if ((counts.receivers ?? []).every((c) => c >= sent) || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const usage = meter.stop();
    const receivers = counts.receivers ?? [];
    const control = counts['other-account'] ?? [];
    const wrongEvents = Object.values(wrong).reduce((a, b) => a + b, 0);
    const ok = sent === opts.messages && result.non2xx === 0 && result.errors === 0 && receivers.every((c) => c === sent) && control.every((c) => c === 0) && wrongEvents === 0 && warmupHeard;
    const delivered = receivers.reduce((a, b) => a + b, 0);
    run = {
      sent,
      perSecond: sent / (usage.wallMs / 1000),
      latency: { p50: result.latency.p50, p99: result.latency.p99 },
      ok,
      delivery: sockets
        ? `${delivered.toLocaleString('en-US')} of ${(receivers.length * sent).toLocaleString('en-US')} events delivered, ${receivers.filter((c) => c === sent).length}/${receivers.length} sockets got every one, ${control.length} other-account sockets got ${control.reduce((a, b) => a + b, 0)}, ${wrongEvents} heard twice or of no create${warmupHeard ? '' : ', some warm-up events never arrived'}`
        : `${sent} of ${opts.messages} created (non-2xx ${result.non2xx}, errors ${result.errors})`,
      cpu: { service: usage.cores.service!, generator: usage.cores.generator!, receivers: usage.cores.receivers ?? 0 },
      cpuMs: { service: usage.cpuMs.service!, generator: usage.cpuMs.generator!, receivers: usage.cpuMs.receivers ?? 0 },
      serviceWaiting: usage.waiting.service!,
    };
  } finally {
    sockets?.child.send({ close: true });
    // The profile is written as the service exits.
    await service.stop();
  }
  try {
    if (opts.profile) {
      // --cpu-prof writes one file per thread: the main thread's is the largest (the loader's worker is the other).
      const texts = readdirSync(join(dir, 'profile')).map((f) => readFileSync(join(dir, 'profile', f), 'utf8'));
      const main = texts.sort((a, b) => b.length - a.length)[0];
      if (main) run.profile = JSON.parse(main) as CpuProfile;
    }
    return run;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A reference server (a script here that prints "listening on <url>") as a child process. */
async function referenceServer(script: string) {
  const child = spawn(process.execPath, ['--import', tsx, resolve(here, script)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) done(m[1]!);
    });
    child.once('exit', (code) => fail(new Error(`${script} exited ${code}`)));
  });
  return { child, url };
}

async function helloRun(seconds: number, connections: number) {
  const { child, url } = await referenceServer('hello-server.ts');
  try {
    const meter = cpuMeter({ service: child.pid, generator: process.pid });
    const result = await autocannon({ url, connections, duration: seconds });
    const usage = meter.stop();
    return { perSecond: result['2xx'] / (usage.wallMs / 1000), cpu: usage.cores, cpuMs: usage.cpuMs };
  } finally {
    child.kill('SIGTERM');
  }
}

/** The floor (bare-insert-server.ts): as many requests as a create run, after the same warm-up. */
async function bareInsertRun(messages: number, warmup: number, connections: number) {
  const { child, url } = await referenceServer('bare-insert-server.ts');
  try {
    const post = (prefix: string) => {
      let i = 0;
      return { method: 'POST' as const, headers: { 'content-type': 'application/json' }, setupRequest: (req: object) => ({ ...req, body: JSON.stringify({ content: `${prefix} ${i++}` }) }) };
    };
    if (warmup > 0) await autocannon({ url, connections, amount: warmup, sampleInt: SAMPLE_MS, requests: [post('warm-up')] });
    const meter = cpuMeter({ service: child.pid, generator: process.pid });
    const result = await autocannon({ url, connections, amount: messages, sampleInt: SAMPLE_MS, requests: [post('bench')] });
    const usage = meter.stop();
    const sent = result['2xx'];
    return { perSecond: sent / (usage.wallMs / 1000), cpu: usage.cores, usPerRequest: { server: (usage.cpuMs.service! * 1000) / Math.max(1, sent), generator: (usage.cpuMs.generator! * 1000) / Math.max(1, sent) } };
  } finally {
    child.kill('SIGTERM');
  }
}

/** fanout-floor.ts: CPU per socket per event of bare TCP writes to `sockets` connections. */
async function fanoutFloor(sockets: number) {
  const child = spawn(process.execPath, ['--import', tsx, resolve(here, 'fanout-floor.ts')], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, FLOOR_SOCKETS: String(sockets) } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((done) => child.once('exit', done));
  const m = /floor (\{.*\})/.exec(out);
  if (!m) throw new Error(`fanout-floor.ts printed no result: ${out}`);
  return JSON.parse(m[1]!) as { batch1: number; batch4: number; batch16: number };
}

const pct = (n: number) => `${round(n * 100, 0)}% of a core`;

export async function benchService(o: ServiceBenchOptions): Promise<Figure[]> {
  // Rounds: hello world, then the creates with no socket and with the sockets, then hello world
  // again, and so on; each round's creates are weighed against the hello worlds either side of
  // them. On a shared machine one run of each can land in a slow or a fast spell of its own (hello
  // world moved by a fifth between two measurements of one run); the round with the median ratio
  // is the figure, and every round's ratio is in its note.
  o.log(`service: Fastify hello world, ${o.helloSeconds} s`);
  const hellos = [await helloRun(o.helloSeconds, o.connections)];
  const rounds: Round[] = [];
  for (let r = 1; r <= o.rounds; r++) {
    o.log(`service: round ${r} of ${o.rounds}: ${o.messages} creates, no agent sockets`);
    const none = await createRun({ messages: o.messages, warmup: o.warmup, connections: o.connections, sockets: 0, profile: false });
    o.log(`service: round ${r} of ${o.rounds}: ${o.messages} creates, ${o.sockets} agent sockets listening`);
    const many = await createRun({ messages: o.messages, warmup: o.warmup, connections: o.connections, sockets: o.sockets, profile: false });
    o.log(`service: round ${r} of ${o.rounds}: Fastify hello world, ${o.helloSeconds} s`);
    hellos.push(await helloRun(o.helloSeconds, o.connections));
    rounds.push({ none, many, hello: (hellos[r - 1]!.perSecond + hellos[r]!.perSecond) / 2 });
  }
  o.log(`service: bare Node HTTP + one SQLite insert per request, ${o.messages} requests`);
  const bare = await bareInsertRun(o.messages, o.warmup, o.connections);
  o.log(`service: bare TCP writes of an event to ${o.sockets} sockets`);
  const floor = await fanoutFloor(o.sockets);
  const helloMean = mean(hellos.map((h) => h.perSecond));
  const ratioOf = (run: (r: Round) => CreateRun) => (r: Round) => run(r).perSecond / r.hello;
  const byRatio = (run: (r: Round) => CreateRun) => medianBy(rounds, ratioOf(run));
  const noneRound = byRatio((r) => r.none);
  const manyRound = byRatio((r) => r.many);
  const none = noneRound.none;
  const many = manyRound.many;
  const allOk = (run: (r: Round) => CreateRun) => rounds.every((r) => run(r).ok);
  const roundsNote = (run: (r: Round) => CreateRun) =>
    `${rounds.length === 1 ? 'one round' : `the median of ${rounds.length} rounds (ratios ${rounds.map((r) => `${round(ratioOf(run)(r) * 100, 2)}%`).join(', ')})`}`;
  const ref = (r: Round) => ({ limit: r.hello, limitName: 'hello world req/s' });
  const refMean = { limit: helloMean, limitName: 'hello world req/s, mean of the run' };
  const helloNote = `hello world ${hellos.map((h) => Math.round(h.perSecond)).join(', ')} req/s, one before the rounds and one after each; its server used ${pct(mean(hellos.map((h) => h.cpu.service!)))}, autocannon ${pct(mean(hellos.map((h) => h.cpu.generator!)))}`;

  const perCreate = (run: CreateRun, who: keyof CreateRun['cpuMs']) => (run.cpuMs[who] * 1000) / Math.max(1, run.sent);
  // CPU per create: each round's, the median of the rounds (the notes: the median-ratio rounds' runs).
  const cpu = (f: (r: Round) => number) => median(rounds.map(f));
  const serviceNone = cpu((r) => perCreate(r.none, 'service'));
  const serviceMany = cpu((r) => perCreate(r.many, 'service'));
  const perSocket = cpu((r) => (perCreate(r.many, 'service') - perCreate(r.none, 'service')) / o.sockets);
  const generatorMany = cpu((r) => perCreate(r.many, 'generator'));
  const receiversMany = cpu((r) => perCreate(r.many, 'receivers'));
  const medianOfRounds = rounds.length === 1 ? '' : `median of ${rounds.length} rounds`;
  const ofRounds = medianOfRounds && ` (${medianOfRounds})`;
  const figures: Figure[] = [
    against('service: creates/s, no agent sockets', none.perSecond, 'msg/s', ref(noneRound), '≥ 10% of hello world', (_v, r) => allOk((x) => x.none) && r >= 0.1, `${roundsNote((x) => x.none)}; ${none.delivery}; p50 ${none.latency.p50} ms, p99 ${none.latency.p99} ms; ${helloNote}`),
    against(`service: creates/s, ${o.sockets} agent sockets listening`, many.perSecond, 'msg/s', ref(manyRound), '≥ 5% of hello world', (_v, r) => allOk((x) => x.many) && r >= 0.05, `${roundsNote((x) => x.many)}; ${many.delivery}; p50 ${many.latency.p50} ms, p99 ${many.latency.p99} ms`),
    absolute('service CPU per create, no sockets', serviceNone, 'µs', '', undefined, `${medianOfRounds && `${medianOfRounds}; `}service busy ${pct(none.cpu.service)}, waiting for a core ${round(none.serviceWaiting * 100, 0)}% of the run; load generator (autocannon) ${pct(none.cpu.generator)}, ${round(perCreate(none, 'generator'), 0)} µs per create`),
    absolute(`service CPU per create, ${o.sockets} sockets`, serviceMany, 'µs', '', undefined, `service busy ${pct(many.cpu.service)}, waiting for a core ${round(many.serviceWaiting * 100, 0)}% of the run; autocannon ${pct(many.cpu.generator)}`),
    absolute(`service CPU per socket per event (${o.sockets} sockets)`, perSocket, 'µs', '', undefined, `what each listening socket adds to a create: the difference between a round's two runs over the sockets${ofRounds}`),
    absolute(`load generator CPU per create, ${o.sockets} sockets (autocannon + socket receivers)`, generatorMany + receiversMany, 'µs', '', undefined, `receivers ${pct(many.cpu.receivers)} (${round(receiversMany, 0)} µs per create, ${round(receiversMany / o.sockets, 2)} µs per event received), autocannon ${round(generatorMany, 0)} µs per create${ofRounds}`),
  ];
  figures.push(
    against(
      'reference: bare Node HTTP + one SQLite message insert per request',
      bare.perSecond,
      'msg/s',
      refMean,
      '',
      () => true,
      `bare-insert-server.ts, the service's database setup, same connections, requests and warm-up as the creates: the floor under a create; its server used ${pct(bare.cpu.service!)} (${round(bare.usPerRequest.server, 0)} µs per request), autocannon ${pct(bare.cpu.generator!)} (${round(bare.usPerRequest.generator, 0)} µs per request)`,
    ),
  );
  figures[figures.length - 1]!.met = null;
  figures.push(
    absolute(
      `reference: bare TCP write of an event's frame to each of ${o.sockets} sockets, per socket per event`,
      floor.batch1,
      'µs',
      '',
      undefined,
      `fanout-floor.ts: one event per write; ${round(floor.batch4, 2)} µs when 4 events share each socket's write, ${round(floor.batch16, 2)} µs when 16 do (under a steady stream the service holds a socket's events up to ${HOLD_MS} ms: about ${Math.round((many.perSecond * HOLD_MS) / 1000)} a write at this run's rate). Against the service's per-socket figure above: the floor under any server that writes every event to every socket`,
    ),
  );
  // What two cores allow at the CPU each create cost all three processes in this run.
  const cores = 2;
  const ceiling = (cores * 1e6) / (serviceMany + generatorMany + receiversMany);
  figures.push(against(`ceiling on ${cores} cores at the measured CPU per create, ${o.sockets} sockets`, ceiling, 'msg/s', refMean, '', () => true, 'service + autocannon + receivers CPU per create, all on this machine'));
  figures[figures.length - 1]!.met = null;
  o.log('service: a long conversation against a short one, per event and per list row');
  figures.push(...(await benchLongConversation()));

  if (o.profileMessages > 0) {
    o.log(`service: ${o.profileMessages} creates under the CPU profiler, no agent sockets`);
    const run = await createRun({ messages: o.profileMessages, warmup: 0, connections: o.connections, sockets: 0, profile: true });
    if (run.profile) {
      // The profiler's samples give each stage's share; the service's CPU time (from /proc, not
      // the profile's wall-clock sample intervals, which a busy machine stretches) gives the µs.
      const summary = summarize(run.profile, run.sent, (f) => f.url.includes('/server/routes/client/conversations'));
      const cpuPerCreate = perCreate(run, 'service');
      for (const s of summary.stages) {
        figures.push(absolute(`create profile: ${s.name}`, s.share * cpuPerCreate, 'µs', '', undefined, `${round(s.share * 100, 1)}% of the service's busy time (no sockets, ${run.sent} creates, profiler on; the sockets' share is the per-socket figure above)`));
      }
      figures.push(absolute('create profile: service idle while loaded', (summary.idleMs / (summary.idleMs + summary.busyMs)) * 100, '%', '', undefined, 'waiting for requests: the load generator or the receivers were the bottleneck'));
    }
  }
  return figures;
}
