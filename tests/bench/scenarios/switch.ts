// Switch: clicking a cached conversation of 500 messages in the list, to the end of the frame that
// shows its last message, alternating between two such conversations. The reference is a bare
// Dexie read of the same messages from IndexedDB (bare-read.ts), on the same cache in the same run.
//
// Each measured click opens a conversation closed more than 3 s before. Dexie keeps a live query's
// answer in memory for 3 s after its last subscriber goes (its cache middleware), so a conversation
// opened again sooner is read from memory, not from IndexedDB. Until 2026-11-28 the switches
// followed one another (about 0.1 s apart) and so measured that memory, against a reference read
// from IndexedDB. That case is still measured, as "switch back within 3 s", with no target.
import type { Page } from '@playwright/test';
import type { Figure } from '../../../scripts/bench/figures';
import { against, median, percentile } from '../../../scripts/bench/figures';
import { arm, measured } from '../page-probes';
import { traced } from '../trace';

/** Longer than Dexie keeps a closed live query's answer (3 s, dexie.js `enqueForDeletion`). */
const MEMORY_GONE_MS = 3_300;

export async function benchSwitch(page: Page, conversations: { id: number; lastMessageId: number }[], samples: number, bareReadMs: number): Promise<Figure[]> {
  const n = conversations.length;
  // Once each unmeasured: the first open also marks it read.
  for (const c of conversations) await openAndWait(page, c);
  const fromDb: number[] = [];
  for (let i = 0; i < samples; i++) {
    await page.waitForTimeout(MEMORY_GONE_MS);
    fromDb.push(await openAndWait(page, conversations[i % n]!));
    if (process.env.BENCH_VERBOSE) console.error(`switch ${fromDb[i]!.toFixed(1)}`);
  }
  // Back and forth: each open is of the one closed a moment before (the first, unmeasured, is not).
  await openAndWait(page, conversations[samples % n]!);
  const fromMemory: number[] = [];
  for (let i = 1; i <= samples; i++) {
    fromMemory.push(await openAndWait(page, conversations[(samples + i) % n]!));
    if (process.env.BENCH_VERBOSE) console.error(`switch back ${fromMemory[i - 1]!.toFixed(1)}`);
  }
  if (process.env.BENCH_TRACE) {
    await page.waitForTimeout(MEMORY_GONE_MS);
    await traced(page, 'switch', () => openAndWait(page, conversations[(2 * samples + 1) % n]!));
  }
  const ref = { limit: bareReadMs, limitName: 'bare Dexie read of its 500 messages' };
  const note = `${samples} switches between ${n} conversations, each closed over 3 s before (read from IndexedDB)`;
  const backNote = `${samples} switches between ${n} conversations back and forth (Dexie's memory of the last 3 s)`;
  const figures = [
    against('switch: click → last of 500 messages painted, p50', median(fromDb), 'ms', ref, '', () => true, note),
    against('switch: click → last of 500 messages painted, p95', percentile(fromDb, 95), 'ms', ref, 'p95 < 50 ms', (v) => v < 50, note),
    against('switch back within 3 s: click → last of 500 messages painted, p50', median(fromMemory), 'ms', ref, '', () => true, backNote),
    against('switch back within 3 s: click → last of 500 messages painted, p95', percentile(fromMemory, 95), 'ms', ref, '', () => true, backNote),
  ];
  return figures.map((f) => (f.target ? f : { ...f, met: null }));
}

async function openAndWait(page: Page, c: { id: number; lastMessageId: number }) {
  await arm(page, 'click', { selector: `section.conversation [data-message-id="${c.lastMessageId}"]`, present: true });
  await page.locator(`#conversation-listbox [data-conversation-id="${c.id}"]`).click();
  return measured(page);
}
