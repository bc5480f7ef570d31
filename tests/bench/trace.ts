// Optional: a Chromium performance trace (and a CPU profile) of one measured action, for finding
// why a figure is what it is. Off unless BENCH_TRACE names a folder; nothing in a figure depends on it.
// BENCH_PROFILE_ONLY=1: the CPU profile alone (a trace slows the page about twofold, a profile far
// less); BENCH_SAMPLE_US: its sampling interval (100 µs unless set). BENCH_NO_PROFILER=1: the trace
// alone. With the profiler on, V8 collects source positions for every function a script's code cache
// brings in (a new tab's entry: 50.7 of its 57.7 ms of compiling, traced, against 2.8 ms without the
// profiler), so compile times are read from a trace taken without it (bench/README.md, twentieth stop).
// BENCH_HEAP_SAMPLING=1: also a sampling heap profile (`<name>.heapprofile`, one sample per KB
// allocated), counting what was collected too: where the garbage the action makes comes from.
import type { Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// BENCH_TRACE_CATEGORIES: more, comma-separated (e.g. disabled-by-default-devtools.timeline.invalidationTracking: what each frame repainted, and why).
// BENCH_TRACE_ONLY: these categories alone, in place of all the above (a light trace: the full set
// slows the page enough to change what a frame waits for; bench/README.md, thirty-ninth stop).
const CATEGORIES = process.env.BENCH_TRACE_ONLY ?? ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'v8', 'blink.user_timing', 'loading', 'disabled-by-default-devtools.timeline.frame', ...(process.env.BENCH_TRACE_CATEGORIES ?? '').split(',').filter(Boolean)].join(',');

/** Runs `action` while tracing the page; writes `<name>.trace.json`, (unless BENCH_NO_PROFILER) `<name>.cpuprofile` and (with BENCH_HEAP_SAMPLING) `<name>.heapprofile` into BENCH_TRACE. */
export async function traced<T>(page: Page, name: string, action: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_TRACE;
  if (!dir) return action();
  mkdirSync(dir, { recursive: true });
  const cdp = await page.context().newCDPSession(page);
  const events: unknown[] = [];
  cdp.on('Tracing.dataCollected', (e: { value: unknown[] }) => events.push(...e.value));
  const profiling = !process.env.BENCH_NO_PROFILER;
  if (profiling) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_SAMPLE_US || 100) });
    await cdp.send('Profiler.start');
  }
  const heap = !!process.env.BENCH_HEAP_SAMPLING;
  // Cast: Playwright's protocol types lack the two options that keep collected objects in the profile.
  if (heap) await cdp.send('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
  const tracing = !process.env.BENCH_PROFILE_ONLY;
  if (tracing) await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  const result = await action();
  if (tracing) {
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await done;
  }
  if (heap) writeFileSync(join(dir, `${name}.heapprofile`), JSON.stringify((await cdp.send('HeapProfiler.stopSampling')).profile));
  if (profiling) writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify((await cdp.send('Profiler.stop')).profile));
  writeFileSync(join(dir, `${name}.trace.json`), JSON.stringify({ traceEvents: events }));
  writeFileSync(join(dir, `${name}.result.json`), JSON.stringify(result ?? null));
  await cdp.detach();
  return result;
}
