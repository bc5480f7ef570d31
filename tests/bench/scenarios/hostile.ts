// Hostile rendering: opening a conversation whose newest message is the worst a contact can send
// (tests/support/hostile-text.ts), measured as the slowest frame from the click until a second
// after the message is shown: the longest long animation frame (which includes style and layout)
// or the longest gap between animation frames, whichever is longer.
import type { Page } from '@playwright/test';
import type { Figure } from '../../../scripts/bench/figures';
import { absolute } from '../../../scripts/bench/figures';
import { arm, measured } from '../page-probes';

export async function benchHostile(page: Page, cases: { name: string; id: number; lastMessageId: number }[], calm: number): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const c of cases) {
    // From an ordinary conversation, so the hostile one renders from scratch.
    await page.locator(`#conversation-listbox [data-conversation-id="${calm}"]`).click({ timeout: 180_000 });
    await page.waitForTimeout(300);
    await page.evaluate(() => window.__bench.frames.start());
    await arm(page, 'click', { selector: `section.conversation [data-message-id="${c.lastMessageId}"]`, present: true });
    await page.locator(`#conversation-listbox [data-conversation-id="${c.id}"]`).click({ timeout: 180_000 });
    const shown = await measured(page, 180_000);
    await page.waitForTimeout(1_000);
    const frames = await page.evaluate(() => window.__bench.frames.stop());
    const slowest = Math.max(frames.maxGap, frames.maxLoaf);
    figures.push(absolute(`hostile: slowest frame showing ${c.name}`, slowest, 'ms', 'no frame over 50 ms', (v) => v <= 50, `click → shown ${shown.toFixed(0)} ms; longest animation frame ${frames.maxLoaf.toFixed(0)} ms, longest gap between frames ${frames.maxGap.toFixed(0)} ms`));
  }
  return figures;
}
