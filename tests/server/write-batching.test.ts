// server/live/write-coalescing.ts's batcher, with sockets that only count corks: when a batch is
// sent, and whose reader it calls behind.
import type { Socket as NetSocket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeBatcher } from '../../server/live/write-coalescing';

function fakeSocket(opts: { writableLength?: number; writableNeedDrain?: boolean } = {}) {
  const s = { corks: 0, destroyed: false, writableLength: opts.writableLength ?? 0, writableNeedDrain: opts.writableNeedDrain ?? false, writableHighWaterMark: 16_384 };
  return Object.assign(s, { cork: () => s.corks++, uncork: () => s.corks-- }) as unknown as typeof s & NetSocket;
}

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
    vi.runAllTicks();
    advance(0);
    expect([a.corks, b.corks]).toEqual([0, 0]);
    // 3 ms after that batch went: held until 10 ms after it.
    advance(3);
    batcher.cork(a);
    advance(6);
    expect(a.corks).toBe(1);
    advance(1);
    expect(a.corks).toBe(0);
    // Quiet again for longer than the hold: at once.
    advance(25);
    batcher.cork(b);
    advance(0);
    expect(b.corks).toBe(0);
  });

  it("calls a corked socket's reader behind by what it was waiting to send when corked, not by the batch it holds", () => {
    const batcher = writeBatcher(10, () => clock);
    const keeping = fakeSocket({ writableLength: 0 });
    batcher.cork(keeping);
    // The batch's own frames pass the high-water mark: Node would say "wait for drain".
    Object.assign(keeping, { writableLength: 40_000, writableNeedDrain: true });
    expect(batcher.backedUp(keeping)).toBe(false);
    const slow = fakeSocket({ writableLength: 20_000, writableNeedDrain: true });
    batcher.cork(slow);
    expect(batcher.backedUp(slow)).toBe(true);
    // Not corked here: Node's own answer.
    expect(batcher.backedUp(fakeSocket({ writableNeedDrain: true }))).toBe(true);
    expect(batcher.backedUp(fakeSocket())).toBe(false);
    advance(0);
    expect(batcher.backedUp(keeping)).toBe(true);
  });
});
