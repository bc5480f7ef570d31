// Switch: clicking a cached conversation of 500 messages in the list, to the end of the frame that
// shows its last message; alternating between two such conversations. The reference is a bare
// Dexie read of the same messages (bare-read.ts), measured on the same cache in the same run.
import type { Page } from '@playwright/test';
import type { Figure } from '../../../scripts/bench/figures';
import { against, median, percentile } from '../../../scripts/bench/figures';
import { arm, measured } from '../page-probes';
import { traced } from '../trace';

export async function benchSwitch(page: Page, conversations: { id: number; lastMessageId: number }[], samples: number, bareReadMs: number): Promise<Figure[]> {
  const times: number[] = [];
  // Once each unmeasured: the first open also marks it read.
  for (const c of conversations) await openAndWait(page, c);
  for (let i = 0; i < samples; i++) times.push(await openAndWait(page, conversations[i % conversations.length]!));
  if (process.env.BENCH_TRACE) await traced(page, 'switch', () => openAndWait(page, conversations[samples % conversations.length]!));
  const ref = { limit: bareReadMs, limitName: 'bare Dexie read of its 500 messages' };
  const note = `${samples} switches between ${conversations.length} conversations`;
  return [
    against('switch: click → last of 500 messages painted, p50', median(times), 'ms', ref, '', () => true, note),
    against('switch: click → last of 500 messages painted, p95', percentile(times, 95), 'ms', ref, 'p95 < 50 ms', (v) => v < 50, note),
  ].map((f, i) => (i === 0 ? { ...f, met: null } : f));
}

async function openAndWait(page: Page, c: { id: number; lastMessageId: number }) {
  await arm(page, 'click', { selector: `section.conversation [data-message-id="${c.lastMessageId}"]`, present: true });
  await page.locator(`#conversation-listbox [data-conversation-id="${c.id}"]`).click();
  return measured(page);
}
