// server/live/write-coalescing.ts's batcher, with sockets that only record corks and writes: when a
// batch is sent, and what each socket gets written.
import type { Socket as NetSocket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeBatcher } from '../../server/live/write-coalescing';

function fakeSocket() {
  const s = { corks: 0, destroyed: false, writable: true, writes: [] as Buffer[] };
  return Object.assign(s, {
    cork: () => s.corks++,
    uncork: () => s.corks--,
    write: (b: Buffer) => s.writes.push(b) > 0,
  }) as unknown as typeof s & NetSocket;
}
const open = { readyState: 1 };
const frame = (text: string) => Buffer.from(text);

describe('writeBatcher', () => {
  let clock = 0;
  beforeEach(() => {
    clock = 1_000;
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate'] });
  });
  afterEach(() => vi.useRealTimers());
  const advance = (ms: number) => {
    clock += ms;
    vi.advanceTimersByTime(ms);
  };

  it('sends a batch after a quiet spell at the end of the turn, and one begun within the hold when the hold is over', () => {
    const batcher = writeBatcher(10, () => clock);
    const a = fakeSocket();
    const b = fakeSocket();
    batcher.cork(a);
    batcher.cork(a);
    batcher.cork(b);
    expect([a.corks, b.corks]).toEqual([1, 1]);
    advance(0);
    expect([a.corks, b.corks]).toEqual([0, 0]);
    // 3 ms after that batch went: held until 10 ms after it.
    advance(3);
    batcher.cork(a);
    batcher.hold(b, frame('x'), open);
    advance(6);
    expect([a.corks, b.writes.length]).toEqual([1, 0]);
    advance(1);
    expect(a.corks).toBe(0);
    expect(b.writes.map(String)).toEqual(['x']);
    // Quiet again for longer than the hold: at once.
    advance(25);
    batcher.hold(b, frame('y'), open);
    advance(0);
    expect(b.writes.map(String)).toEqual(['x', 'y']);
  });

  it("writes each socket's held frames as one Buffer, shared by the sockets sent the same frames in the same order", () => {
    const batcher = writeBatcher(10, () => clock);
    const [a, b, c, d] = [fakeSocket(), fakeSocket(), fakeSocket(), fakeSocket()];
    const [one, two, three] = [frame('1'), frame('2'), frame('3')];
    for (const s of [a, b, c]) batcher.hold(s, one, open);
    for (const s of [a, b]) batcher.hold(s, two, open);
    batcher.hold(c, three, open);
    batcher.hold(d, two, open);
    advance(0);
    expect([a, b, c, d].map((s) => s.writes.map(String))).toEqual([['12'], ['12'], ['13'], ['2']]);
    // Joined once for both.
    expect(a.writes[0]).toBe(b.writes[0]);
    // The next batch starts afresh.
    advance(10);
    batcher.hold(a, three, open);
    advance(10);
    expect(a.writes.map(String)).toEqual(['12', '3']);
  });

  it('writes what is held at once when released (before another writer), and not again with the batch', () => {
    const batcher = writeBatcher(10, () => clock);
    const a = fakeSocket();
    batcher.hold(a, frame('held'), open);
    batcher.release(a);
    expect(a.writes.map(String)).toEqual(['held']);
    batcher.release(a);
    advance(10);
    expect(a.writes.map(String)).toEqual(['held']);
  });

  it('drops what is held for a connection that began closing, or whose socket is gone, by the time the batch is sent', () => {
    const batcher = writeBatcher(10, () => clock);
    const closing = { readyState: 1 };
    const [a, b, c] = [fakeSocket(), fakeSocket(), fakeSocket()];
    batcher.hold(a, frame('to a'), closing);
    batcher.hold(b, frame('to b'), open);
    batcher.hold(c, frame('to c'), open);
    closing.readyState = 2;
    Object.assign(b, { destroyed: true });
    advance(0);
    expect([a.writes, b.writes].map((w) => w.length)).toEqual([0, 0]);
    expect(c.writes.map(String)).toEqual(['to c']);
  });

  it('starts the next batch clean when a write of this one throws', () => {
    const batcher = writeBatcher(10, () => clock);
    const [broken, a] = [fakeSocket(), fakeSocket()];
    Object.assign(broken, {
      write: () => {
        throw new Error('write failed');
      },
    });
    batcher.hold(broken, frame('lost'), open);
    batcher.hold(a, frame('first'), open);
    expect(() => advance(0)).toThrow('write failed');
    // Neither a nor broken is left in a batch that will never be sent.
    advance(20);
    batcher.hold(a, frame('next'), open);
    advance(0);
    expect(a.writes.map(String).at(-1)).toBe('next');
  });

  describe('cohorts', () => {
    /** Holds `f` for each socket one by one, noted; answers the cohort formed of them (or undefined). */
    const holdNoted = (batcher: ReturnType<typeof writeBatcher>, sockets: NetSocket[], f: Buffer, expected = sockets.length) => {
      batcher.noteHolds();
      for (const s of sockets) batcher.hold(s, f, open);
      return batcher.formCohort(expected);
    };

    it('holds a frame for every member at once, each written its frames as one shared Buffer', () => {
      const batcher = writeBatcher(10, () => clock);
      const [a, b, c] = [fakeSocket(), fakeSocket(), fakeSocket()];
      const cohort = holdNoted(batcher, [a, b, c], frame('1'));
      expect(cohort).toBeDefined();
      expect(batcher.holdForCohort(cohort, frame('2'))).toBe(true);
      expect(batcher.holdForCohort(cohort, frame('3'))).toBe(true);
      advance(0);
      expect([a, b, c].map((s) => s.writes.map(String))).toEqual([['123'], ['123'], ['123']]);
      expect(a.writes[0]).toBe(c.writes[0]);
      // Over with its batch, keeping none of its frames or members (a room keeps its last cohort
      // until its next); the next batch's frames are held socket by socket again.
      expect(cohort!.members).toEqual([]);
      expect(cohort!.node.bytes().length).toBe(0);
      expect(batcher.holdForCohort(cohort, frame('4'))).toBe(false);
      advance(20);
      expect(a.writes.map(String)).toEqual(['123']);
    });

    it('ends when a member is held a frame of its own: that member gets it after the cohort\'s, the others do not', () => {
      const batcher = writeBatcher(10, () => clock);
      const [a, b] = [fakeSocket(), fakeSocket()];
      const cohort = holdNoted(batcher, [a, b], frame('1'));
      batcher.holdForCohort(cohort, frame('2'));
      batcher.hold(a, frame('a'), open);
      expect(batcher.holdForCohort(cohort, frame('3'))).toBe(false);
      batcher.hold(b, frame('3'), open);
      advance(0);
      expect([a, b].map((s) => s.writes.map(String))).toEqual([['12a'], ['123']]);
    });

    it('ends when a member is released: it is written the cohort\'s frames at once, the others with the batch', () => {
      const batcher = writeBatcher(10, () => clock);
      const [a, b] = [fakeSocket(), fakeSocket()];
      const cohort = holdNoted(batcher, [a, b], frame('1'));
      batcher.holdForCohort(cohort, frame('2'));
      batcher.release(a);
      expect(a.writes.map(String)).toEqual(['12']);
      expect(batcher.holdForCohort(cohort, frame('3'))).toBe(false);
      advance(0);
      expect([a, b].map((s) => s.writes.map(String))).toEqual([['12'], ['12']]);
    });

    it('forms only of the noted holds it expects, all on the same frames, each once, none in another cohort', () => {
      const batcher = writeBatcher(10, () => clock);
      const [a, b, c] = [fakeSocket(), fakeSocket(), fakeSocket()];
      // One of the sockets took another path (not held): fewer holds than expected.
      expect(holdNoted(batcher, [a, b], frame('1'), 3)).toBeUndefined();
      // Different frames held before.
      batcher.hold(c, frame('x'), open);
      expect(holdNoted(batcher, [a, b, c], frame('2'))).toBeUndefined();
      // One socket held for twice.
      expect(holdNoted(batcher, [a, a], frame('3'))).toBeUndefined();
      // Nothing noted, or a noting that ended.
      expect(batcher.formCohort(0)).toBeUndefined();
      expect(batcher.formCohort(1)).toBeUndefined();
      expect(batcher.holdForCohort(undefined, frame('4'))).toBe(false);
      // Formed of d and e; a member of it noted again for another cohort is taken out of the first.
      const [d, e] = [fakeSocket(), fakeSocket()];
      const first = holdNoted(batcher, [d, e], frame('5'));
      expect(first).toBeDefined();
      const second = holdNoted(batcher, [d], frame('6'));
      expect(second).toBeDefined();
      expect(batcher.holdForCohort(first, frame('7'))).toBe(false);
      expect(batcher.holdForCohort(second, frame('8'))).toBe(true);
      advance(0);
      expect([a, b, c, d, e].map((s) => s.writes.map(String))).toEqual([['1233'], ['12'], ['x2'], ['568'], ['5']]);
    });

    it('drops the cohort\'s frames for a member that began closing by the time the batch is sent', () => {
      const batcher = writeBatcher(10, () => clock);
      const closing = { readyState: 1 };
      const [a, b] = [fakeSocket(), fakeSocket()];
      const one = frame('1');
      batcher.noteHolds();
      batcher.hold(a, one, closing);
      batcher.hold(b, one, open);
      const cohort = batcher.formCohort(2);
      batcher.holdForCohort(cohort, frame('2'));
      closing.readyState = 2;
      advance(0);
      expect([a, b].map((s) => s.writes.map(String))).toEqual([[], ['12']]);
    });
  });
});
