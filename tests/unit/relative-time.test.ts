// A list row's time (renderer/src/components/time.ts): relative while recent, then the day, written
// without the browser's locale formatter, whose first use in a window's new process loads the locale
// and time-zone data before the first rows can be painted (bench/README.md, twentieth stop).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { relativeTime } from '../../renderer/src/components/time';

// Local times, so the days read the same in any time zone the tests run in.
const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).getTime();
const seconds = (ms: number) => Math.floor(ms / 1000);

describe('relativeTime', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads relative while recent', () => {
    const now = at(2026, 12, 5);
    expect([0, 30, 5 * 60, 3 * 3600, 12 * 86_400, 29 * 86_400].map((ago) => relativeTime(ago === 0 ? 0 : seconds(now) - ago, now))).toEqual(['', 'now', '5m', '3h', '12d', '29d']);
  });

  it('names the day after thirty days, with the year only when it is another year', () => {
    const now = at(2026, 12, 5);
    expect(relativeTime(seconds(at(2026, 1, 15)), now)).toBe('Jan 15');
    expect(relativeTime(seconds(at(2026, 11, 4, 23)), now)).toBe('Nov 4');
    expect(relativeTime(seconds(at(2023, 11, 14, 0)), now)).toBe('Nov 14, 2023');
  });

  it('formats nothing for the locale', () => {
    const spies = [vi.spyOn(Date.prototype, 'toLocaleDateString'), vi.spyOn(Date.prototype, 'toLocaleString'), vi.spyOn(Intl, 'DateTimeFormat')];
    relativeTime(seconds(at(2023, 11, 14)), at(2026, 12, 5));
    expect(spies.map((s) => s.mock.calls.length)).toEqual([0, 0, 0]);
  });
});
