// Switch: clicking a cached conversation of 500 messages in the list, to the end of the frame that
// shows its last message. The reference is a bare Dexie read of the same messages from IndexedDB
// (bare-read.ts), on the same cache in the same run.
//
// The switch goes round six such conversations, each measured click 3.3 s after the last, so that
// each one it opens was closed longer ago than the app or Dexie keep it in memory: the app keeps
// the reads of the last four views while nothing in them is written (conversation/read-ahead.ts),
// and Dexie a live query's answer for 3 s after its last subscriber goes (its cache middleware).
// That was the switch read from IndexedDB. Until 2026-11-28 the switches alternated between two
// conversations about 0.1 s apart and so measured Dexie's memory. Switching back and forth between
// two is measured too, as "switch back", with no target: since 2026-11-28, the app's memory.
// Since 2026-11-28 (fifth stop) the app reads the conversations whose rows are in sight while the
// page is idle (conversation/use-read-in-sight.ts), and keeps those reads until a write touches
// them: the six are rows in sight, so every way of opening below opens from the app's memory. The
// bench README has the A/B against the build before, which read them from IndexedDB.
//
// Three ways of opening (since 2026-11-28, fourth stop): a click the moment the pointer reaches the
// row (Playwright's click: pointer moved, pressed and released within 3 ms), a click after the
// pointer rested on the row (REST_MS), and Enter on the row the keyboard's highlight was moved to
// with j/k REST_MS before. The app reads the row the pointer or the highlight rests on
// (conversation/use-read-intent.ts); a person's pointer reaches the row before the click, and j/k
// before Enter. The first way has no such moment and is still measured, with the same target.
import type { Page } from '@playwright/test';
import type { Figure } from '../../../scripts/bench/figures';
import { rendererSchedMeter, schedWords, whileMeasured } from '../../../scripts/bench/cpu';
import { against, median, percentile } from '../../../scripts/bench/figures';
import { arm, inPageOf, measured } from '../page-probes';
import { fibersFrom, fibersPrint } from '../fiber-log';
import { traced } from '../trace';

/** Longer than Dexie keeps a closed live query's answer (3 s, dexie.js `enqueForDeletion`). */
const MEMORY_GONE_MS = 3_300;
/** More than the app keeps in memory (read-ahead.ts `KEPT`, 4) plus the one open. */
const ROUND = 6;
/**
 * How long the pointer or the highlight rests on the row before the click or Enter: the time
 * between two keys at 80 words a minute; for the pointer, an assumed rest before the press (not
 * measured here).
 */
const REST_MS = 150;

type Opening = 'click' | 'rest' | 'key';

export async function benchSwitch(page: Page, conversations: { id: number; lastMessageId: number }[], samples: number, bareReadMs: number): Promise<Figure[]> {
  const n = conversations.length;
  if (n < ROUND) throw new Error(`the switch needs ${ROUND} conversations to go round, not ${n}`);
  // Once each unmeasured: the first open also marks it read.
  for (const c of conversations) await openAndWait(page, c);
  const fromDb: Record<Opening, number[]> = { click: [], rest: [], key: [] };
  // How long the page's main thread waited for a core while the switches were measured (scripts/bench/cpu.ts).
  const meter = rendererSchedMeter();
  for (const how of ['click', 'rest', 'key'] as const) {
    for (let i = 0; i < samples; i++) {
      await page.waitForTimeout(MEMORY_GONE_MS);
      fromDb[how].push(await openAndWait(page, conversations[i % n]!, how));
      // With the page's own part: the click or key to the last message in the DOM, before its frame.
      if (process.env.BENCH_VERBOSE) console.error(`switch ${how} ${fromDb[how][i]!.toFixed(1)} inPage ${(await inPageOf(page)).toFixed(1)}`);
    }
  }
  const sched = schedWords(meter.stop());
  // Back and forth between two: each open is of the one closed a moment before (the first, unmeasured, is not).
  await openAndWait(page, conversations[0]!);
  const fromMemory: number[] = [];
  for (let i = 1; i <= samples; i++) {
    fromMemory.push(await openAndWait(page, conversations[i % 2]!));
    if (process.env.BENCH_VERBOSE) console.error(`switch back ${fromMemory[i - 1]!.toFixed(1)}`);
  }
  if (process.env.BENCH_TRACE) {
    await page.waitForTimeout(MEMORY_GONE_MS);
    // BENCH_TRACE_ROUNDS: that many switches in one trace or profile (one has few samples).
    await traced(page, 'switch', async () => {
      for (let k = 0; k < Number(process.env.BENCH_TRACE_ROUNDS || 1); k++) {
        if (k) await page.waitForTimeout(MEMORY_GONE_MS);
        await openAndWait(page, conversations[(2 * samples + 1 + k) % n]!);
      }
    });
  }
  const ref = { limit: bareReadMs, limitName: 'bare Dexie read of its 500 messages' };
  const note = `${samples} switches round ${n} conversations, each closed ${n - 1} views and over 3 s before (rows in sight: read ahead while the page was idle)${whileMeasured(sched)}`;
  const backNote = `${samples} switches back and forth between two conversations (the app's memory of the last views)`;
  const ways: [Opening, string, string][] = [
    ['click', 'switch: click → last of 500 messages painted', 'clicked as the pointer reached the row'],
    ['rest', `switch: click, pointer on the row ${REST_MS} ms first → last of 500 messages painted`, `the pointer rested on the row ${REST_MS} ms, then clicked`],
    ['key', `switch: Enter, j/k to the row ${REST_MS} ms first → last of 500 messages painted`, `the highlight moved to the row with j/k ${REST_MS} ms before Enter`],
  ];
  const figures = [
    ...ways.flatMap(([how, name, way]) => [
      against(`${name}, p50`, median(fromDb[how]), 'ms', ref, '', () => true, `${note}; ${way}`),
      against(`${name}, p95`, percentile(fromDb[how], 95), 'ms', ref, 'p95 < 50 ms', (v) => v < 50, `${note}; ${way}`),
    ]),
    against('switch back: click → last of 500 messages painted, p50', median(fromMemory), 'ms', ref, '', () => true, backNote),
    against('switch back: click → last of 500 messages painted, p95', percentile(fromMemory, 95), 'ms', ref, '', () => true, backNote),
  ];
  return figures.map((f) => (f.target ? f : { ...f, met: null }));
}

async function openAndWait(page: Page, c: { id: number; lastMessageId: number }, how: Opening = 'click') {
  const shown = { selector: `section.conversation [data-message-id="${c.lastMessageId}"]`, present: true };
  const row = page.locator(`#conversation-listbox [data-conversation-id="${c.id}"]`);
  if (how === 'key') {
    // From the highlighted row (the one open) to this one, a key per row.
    const rowAt = (l: typeof row) => l.getAttribute('aria-posinset').then(Number);
    const steps = (await rowAt(row)) - (await rowAt(page.locator('#conversation-listbox [role="option"][aria-selected="true"]')));
    for (let i = 0; i < Math.abs(steps); i++) await page.keyboard.press(steps > 0 ? 'j' : 'k');
    await page.waitForTimeout(REST_MS);
    await arm(page, 'keydown', shown);
    await page.keyboard.press('Enter');
    return measured(page);
  }
  if (how === 'rest') {
    await row.hover();
    await page.waitForTimeout(REST_MS);
  }
  await arm(page, 'click', shown);
  // BENCH_FIBERS=1: what rendered in each commit after the click (fiber-log.ts).
  await fibersFrom(page);
  await row.click();
  const ms = await measured(page);
  await fibersPrint(page, `switch by click (${how}), ${ms.toFixed(1)} ms`);
  return ms;
}
