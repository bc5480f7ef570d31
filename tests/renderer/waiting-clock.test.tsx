// The clock the waiting chips read (renderer/src/waiting/use-waiting.tsx): one ticker for every chip
// on screen. Starting it with the first chip must not move the time that chip was just drawn with:
// React re-renders a store's readers at once when its value changed between their render and their
// subscription, and on a cold open that was every row's chip again, in the task right behind the
// first rows' frame (issue 14).
import { act, render } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A fresh clock module (its time and ticker are module state), and a reader counting its renders. */
async function chipReader() {
  vi.resetModules();
  const { useNowSeconds } = await import('../../renderer/src/waiting/use-waiting');
  const seen: number[] = [];
  function Chip() {
    const now = useNowSeconds();
    seen.push(now);
    return <span>{now}</span>;
  }
  return { Chip, seen };
}

it('draws a chip once when the clock starts with it, then moves it on with the ticker', async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(1_800_000_000_000);
  const { Chip, seen } = await chipReader();
  // Time passes while the chip is drawn and its effects run (the frame, other work): 0.4 s a look.
  let t = 1_800_000_000_000;
  const clock = vi.spyOn(Date, 'now').mockImplementation(() => (t += 400));
  render(<Chip />);
  expect(seen).toEqual([1_800_000_000]);
  clock.mockRestore();
  act(() => vi.advanceTimersByTime(30_000));
  expect(seen).toEqual([1_800_000_000, 1_800_000_030]);
});

it('draws chips that come back after a while with the time they came back, not the last tick', async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(1_800_000_000_000);
  const { Chip, seen } = await chipReader();
  const first = render(<Chip />);
  first.unmount();
  vi.setSystemTime(1_800_000_020_000);
  render(<Chip />);
  expect(seen).toEqual([1_800_000_000, 1_800_000_020]);
});
