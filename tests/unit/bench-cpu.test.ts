// The scheduler readings the renderer benchmark notes beside its triage figures (scripts/bench/cpu.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { busyShare, parseSchedstat, schedWords } from '../../scripts/bench/cpu';

describe('the scheduler readings beside the page figures', () => {
  it('reads a main thread\'s running and waiting time from schedstat (nanoseconds → ms)', () => {
    expect(parseSchedstat('6440000000 2412000000 21102\n')).toEqual({ running: 6440, waiting: 2412 });
    expect(parseSchedstat('')).toBeUndefined();
    expect(parseSchedstat('not numbers')).toBeUndefined();
  });

  it('reads this process\'s own schedstat where the kernel has one', () => {
    let text: string | undefined;
    try {
      text = readFileSync(`/proc/${process.pid}/schedstat`, 'utf8');
    } catch {
      text = undefined;
    }
    if (text === undefined) return expect(process.platform).not.toBe('linux');
    const s = parseSchedstat(text);
    expect(s?.running).toBeGreaterThan(0);
    expect(s?.waiting).toBeGreaterThanOrEqual(0);
  });

  it('takes the machine\'s busy share from two /proc/stat lines: idle and iowait are not busy', () => {
    // user nice system idle iowait irq softirq steal: 30 busy + 10 steal of 200 ticks.
    expect(busyShare('cpu  100 0 50 1000 10 0 0 0 0 0', 'cpu  120 0 60 1150 20 0 0 10 0 0')).toBeCloseTo(40 / 200);
    expect(busyShare('cpu  1 1 1 1', 'cpu  1 1 1 1')).toBeNaN();
    // Guest time (the last two) is already counted in user and nice.
    expect(busyShare('cpu  100 0 0 100 0 0 0 0 0 0', 'cpu  150 0 0 150 0 0 0 0 50 0')).toBeCloseTo(0.5);
  });

  it('says the wait as a share of the running time, and nothing where it was not read', () => {
    expect(schedWords({ running: 300, waiting: 105, busy: 0.07 })).toBe("the page processes' main threads ran 300 ms and waited 105 ms for a core (35% of their running time), the machine 7% busy");
    expect(schedWords(undefined)).toBe('');
  });
});
