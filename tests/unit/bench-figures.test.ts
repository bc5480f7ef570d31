// The benchmark's pure parts (scripts/bench/figures.ts, profile-summary.ts): percentiles, figures
// against their reference, the table, and the profile cut into stages. No timing is asserted here:
// `npm run bench` measures; this checks that what it reports is computed as its README says.
import { describe, expect, it } from 'vitest';
import { absolute, against, lateTicks, markdownTable, medianBy, percentile, table } from '../../scripts/bench/figures';
import type { CpuProfile } from '../../scripts/bench/profile-summary';
import { summarize } from '../../scripts/bench/profile-summary';

describe('figures', () => {
  it('percentiles are nearest-rank', () => {
    const xs = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(xs, 50)).toBe(5);
    expect(percentile(xs, 95)).toBe(10);
    expect(percentile(xs, 10)).toBe(1);
    expect(percentile([42], 95)).toBe(42);
    expect(percentile([], 50)).toBeNaN();
  });

  it('counts the keys whose frame waited for a whole tick, of all and of those over one frame', () => {
    // Figures and ticks of five keys: a frame made for the tick under way (-4), the next one a
    // moment later (2.3, 1), and whole ticks waited for (12, 16).
    const times = [8, 9.5, 17.2, 18, 12];
    const ticks = [-4, 2.3, 12, 1, 16];
    expect(lateTicks(times, ticks, 8, 16.7)).toEqual({ late: 2, over: 2, overLate: 1 });
    // At the line counts as over; a tick at exactly 8 ms is not late.
    expect(lateTicks([16.7, 16.6], [9, 8], 8, 16.7)).toEqual({ late: 1, over: 1, overLate: 1 });
    expect(lateTicks([], [], 8, 16.7)).toEqual({ late: 0, over: 0, overLate: 0 });
    expect(() => lateTicks([1, 2], [1], 8, 16.7)).toThrow();
  });

  it('the median round is the one with the middle ratio, whole (its own runs and reference)', () => {
    const rounds = [
      { name: 'a', creates: 5_000, hello: 100_000 },
      { name: 'b', creates: 4_000, hello: 50_000 },
      { name: 'c', creates: 3_000, hello: 50_000 },
    ];
    // Ratios 5%, 8%, 6%: the median is c's, though b has the middle creates/s.
    expect(medianBy(rounds, (r) => r.creates / r.hello).name).toBe('c');
    expect(medianBy([rounds[0]!], (r) => r.creates).name).toBe('a');
    // An even count: the lower middle one.
    expect(medianBy([1, 4, 2, 3], (x) => x)).toBe(2);
    expect(() => medianBy([], (x: number) => x)).toThrow();
  });

  it('a figure against its reference carries the limit, the ratio and whether the target is met', () => {
    const f = against('cold open', 180, 'ms', { limit: 100, limitName: 'bare read' }, '≤ 2× and < 150 ms', (v, r) => r <= 2 && v < 150);
    expect(f).toMatchObject({ name: 'cold open', value: 180, unit: 'ms', limit: 100, ratio: 1.8, met: false });
    expect(against('x', 100, 'ms', { limit: 100, limitName: 'y' }, 't', (v, r) => r <= 2 && v < 150).met).toBe(true);
    // A measurement that failed is never "met".
    expect(against('x', NaN, 'ms', { limit: 100, limitName: 'y' }, 't', () => true).met).toBe(false);
    expect(absolute('heap', 120, 'MB', '< 200 MB', (v) => v < 200).met).toBe(true);
    expect(absolute('info', 3, 'ms', '').met).toBeNull();
  });

  it('the table has one line per figure, marks what was missed, and the markdown form escapes pipes', () => {
    const figures = [against('a', 30, 'ms', { limit: 10, limitName: 'ref' }, 'p95 < 16.7 ms', (v) => v < 16.7), absolute('b', 5, 'ms', '')];
    const lines = table(figures).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toContain('MISSED');
    expect(lines[2]).toContain('3×');
    expect(lines[3]).not.toMatch(/met|MISSED/);
    expect(markdownTable([absolute('a | b', 1, 'ms', '')])).toContain('a \\| b');
  });
});

describe('profile summary', () => {
  // root → handler → commit (sqliteTransaction) ; root → handler → liveDelivery ; root → idle
  const frame = (functionName: string, url = '') => ({ functionName, url });
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 5, 6] },
      { id: 2, callFrame: frame('handler', 'file:///x/server/routes/client/conversations.ts'), children: [3, 4] },
      { id: 3, callFrame: frame('sqliteTransaction', 'file:///x/node_modules/better-sqlite3/lib/methods/transaction.js') },
      { id: 4, callFrame: frame('liveDelivery', 'file:///x/server/live/payloads.ts') },
      { id: 5, callFrame: frame('(idle)') },
      { id: 6, callFrame: frame('startup', 'file:///x/server/app.ts') },
    ],
    // startup, then the load window (handler samples), then idle at the end (outside the window).
    samples: [6, 2, 3, 3, 4, 5, 2, 5],
    timeDeltas: [0, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
  };

  it('cuts the load window into stages, the most specific one per sample, and counts idle apart', () => {
    const s = summarize(profile, 2, (f) => f.functionName === 'handler');
    const byName = Object.fromEntries(s.stages.map((x) => [x.name, x]));
    expect(byName['SQLite write transaction (statements, triggers, commit)']!.ms).toBe(2);
    expect(byName['live fan-out: building the payload (queries, JSON shapes)']!.ms).toBe(1);
    expect(byName['route handler, rest']!.ms).toBe(2);
    expect(s.idleMs).toBe(1);
    expect(s.busyMs).toBe(5);
    // µs per create: a stage's time over the creates.
    expect(byName['SQLite write transaction (statements, triggers, commit)']!.usPerCreate).toBe(1000);
    expect(s.stages.reduce((a, b) => a + b.share, 0)).toBeCloseTo(1);
  });

  it('counts socket.io as the live fan-out only under the live listener (every request passes through engine.io)', () => {
    const p: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2] },
        { id: 2, callFrame: frame('handleRequest', 'file:///x/node_modules/engine.io/build/server.js'), children: [3] },
        { id: 3, callFrame: frame('handler', 'file:///x/server/routes/client/conversations.ts'), children: [4] },
        { id: 4, callFrame: frame('listener', 'file:///x/server/live/socket-server.ts'), children: [5] },
        { id: 5, callFrame: frame('emit', 'file:///x/node_modules/socket.io/dist/broadcast-operator.js') },
      ],
      samples: [3, 5],
      timeDeltas: [0, 1000, 1000],
    };
    const byName = Object.fromEntries(summarize(p, 1, (f) => f.functionName === 'handler').stages.map((x) => [x.name, x.ms]));
    expect(byName['route handler, rest']).toBe(1);
    expect(byName['live fan-out: socket.io sending to sockets']).toBe(1);
  });

  it('counts the scope hook\'s own lookups as the scope, and the handler and reply it calls back through Fastify as theirs', () => {
    const p: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2] },
        { id: 2, callFrame: frame('scopeHook', 'file:///x/server/routes/client/scope.ts'), children: [3, 6] },
        { id: 3, callFrame: frame('preValidationCallback', 'file:///x/node_modules/fastify/lib/handle-request.js'), children: [4, 5] },
        { id: 4, callFrame: frame('handler', 'file:///x/server/routes/client/conversations.ts') },
        { id: 5, callFrame: frame('send', 'file:///x/node_modules/fastify/lib/reply.js') },
        { id: 6, callFrame: frame('apiInboxByIdentifier', 'file:///x/server/store/contact-inboxes.ts') },
      ],
      samples: [4, 5, 6, 6],
      timeDeltas: [0, 1000, 1000, 1000, 1000],
    };
    const byName = Object.fromEntries(summarize(p, 1, (f) => f.url.includes('/server/')).stages.map((x) => [x.name, x.ms]));
    expect(byName['credential and scope lookups']).toBe(2);
    expect(byName['route handler, rest']).toBe(1);
    expect(byName['HTTP: parse, route, reply (Fastify, Node)']).toBe(1);
  });
});
