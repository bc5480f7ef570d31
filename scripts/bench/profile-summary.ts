// Where a message create spends its time: a V8 CPU profile of the service (node --cpu-prof) cut to
// the load window and summed into stages. Each sample goes to the most specific stage on its stack
// (a socket write under the live fan-out counts as live, not as HTTP), so the stages add up to the
// service's busy time; µs per create is a stage's time over the creates sent.

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

type Frame = CpuProfile['nodes'][number]['callFrame'];

interface Stage {
  name: string;
  match(f: Frame): boolean;
  /** Counts only where the stack also holds a frame this matches. */
  within?(f: Frame): boolean;
  /**
   * Counts only where no frame this matches lies between the sample and the stage's own frame: the
   * Client scopes are callback hooks, so the route handler and Fastify's reply run synchronously
   * inside them, called back through Fastify's hook runner; those samples are the handler's or
   * HTTP's, not the scope's.
   */
  notBelow?(f: Frame): boolean;
}

/** Whether `stage` holds a sample whose stack (leaf first) is `frames`. */
function holds(stage: Stage, frames: Frame[]): boolean {
  let found = false;
  for (const f of frames) {
    if (stage.match(f)) {
      found = true;
      break;
    }
    if (stage.notBelow?.(f)) return false;
  }
  return found && (!stage.within || frames.some((f) => stage.within!(f)));
}

const inPackage = (f: Frame, ...names: string[]) => names.some((n) => f.url.includes(`/node_modules/${n}/`));
const inServer = (f: Frame, path: string) => f.url.includes(`/server/${path}`);

/** Most specific first: a sample belongs to the first stage any frame of its stack matches. */
export const STAGES: Stage[] = [
  { name: 'live fan-out: building the payload (queries, JSON shapes)', match: (f) => f.functionName === 'liveDelivery' },
  // Under the live listener only: every HTTP request also passes through engine.io's request
  // listener (it looks for /socket.io/ paths), which is HTTP's cost, not the fan-out's.
  { name: 'live fan-out: socket.io sending to sockets', match: (f) => inPackage(f, 'socket.io', 'socket.io-adapter', 'socket.io-parser', 'engine.io', 'ws'), within: (f) => inServer(f, 'live/') },
  { name: 'other event listeners (notifications, webhooks, reports)', match: (f) => inServer(f, 'notifications/') || inServer(f, 'webhooks/') || inServer(f, 'reports/') },
  { name: 'SQLite write transaction (statements, triggers, commit)', match: (f) => f.functionName === 'sqliteTransaction' },
  { name: 'credential and scope lookups', match: (f) => inServer(f, 'routes/client/scope'), notBelow: (f) => inPackage(f, 'fastify') },
  { name: 'response shape (presenters)', match: (f) => inServer(f, 'presenters/') },
  { name: 'validation (zod)', match: (f) => inPackage(f, 'zod') },
  { name: 'route handler, rest', match: (f) => inServer(f, 'routes/') || inServer(f, 'store/') || inServer(f, 'events/'), notBelow: (f) => inPackage(f, 'fastify') },
  { name: 'HTTP: parse, route, reply (Fastify, Node)', match: (f) => inPackage(f, 'fastify', 'find-my-way', '@fastify', 'light-my-request') || f.url.startsWith('node:') },
  { name: 'garbage collection', match: (f) => f.functionName === '(garbage collector)' },
];
const OTHER = 'other (V8, native, unattributed)';
const IDLE = '(idle)';

/** The create handler's frame: the load window runs from its first sample to its last. */
export type WindowMarker = (f: Frame) => boolean;

export interface StageTime {
  name: string;
  ms: number;
  share: number;
  usPerCreate: number;
}

export function summarize(profile: CpuProfile, creates: number, inWindow: WindowMarker): { busyMs: number; idleMs: number; stages: StageTime[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id: number) => {
    const frames: Frame[] = [];
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) frames.push(byId.get(x)!.callFrame);
    return frames;
  };
  const stacks = new Map<number, Frame[]>();
  const stack = (id: number) => stacks.get(id) ?? (stacks.set(id, stackOf(id)), stacks.get(id)!);
  const marked = profile.samples.map((id) => stack(id).some(inWindow));
  const first = marked.indexOf(true);
  const last = marked.lastIndexOf(true);
  const totals = new Map<string, number>();
  let idle = 0;
  for (let i = Math.max(0, first); first >= 0 && i <= last; i++) {
    // timeDeltas[i] is the time before sample i; the time sample i stands for follows it.
    const us = profile.timeDeltas[i + 1] ?? 0;
    const frames = stack(profile.samples[i]!);
    if (frames[0]!.functionName === IDLE) {
      idle += us;
      continue;
    }
    const stage = STAGES.find((s) => holds(s, frames))?.name ?? OTHER;
    totals.set(stage, (totals.get(stage) ?? 0) + us);
  }
  const busy = [...totals.values()].reduce((a, b) => a + b, 0);
  const stages = [...STAGES.map((s) => s.name), OTHER]
    .map((name) => ({ name, ms: (totals.get(name) ?? 0) / 1000, share: busy ? (totals.get(name) ?? 0) / busy : 0, usPerCreate: creates ? (totals.get(name) ?? 0) / creates : 0 }))
    .filter((s) => s.ms > 0)
    .sort((a, b) => b.ms - a.ms);
  return { busyMs: busy / 1000, idleMs: idle / 1000, stages };
}
