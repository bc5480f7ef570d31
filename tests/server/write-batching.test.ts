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
});
