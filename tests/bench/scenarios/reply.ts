// Reply: the agent's own reply, from the key that sends it (Ctrl+Enter in the composer) to the end
// of the frame that shows it in the thread, from the cache with the service stopped (the reply is
// queued in the outbox and shown at once, as on a train). In a conversation of many cached
// messages against one of 500, on the same cache in the same run.
//
// Why: a conversation's cache holds every message the agent scrolled through or that arrived since,
// so a long-running one's grows without bound, and the open conversation's live read takes all of
// them again at every change to it (conversation/conversation-read.ts); a reply is such a change. A
// read of 10,000 messages took 197 ms in this browser on its own (bench/README, thirty-second stop).
import type { Page } from '@playwright/test';
import type { Figure } from '../../../scripts/bench/figures';
import { against, percentile } from '../../../scripts/bench/figures';
import { arm, measured } from '../page-probes';

export interface ReplyConversation {
  id: number;
  lastMessageId: number;
  messages: number;
}

/** The quiet before each reply's key, as for the triage keys (an agent's pace). */
const QUIET_MS = 100;
/** After each reply: the outbox's writes and the thread's reads settle before the next is typed. */
const SETTLE_MS = 600;

async function open(page: Page, c: ReplyConversation) {
  // By its address (the route): the conversation need not be a row in sight.
  await page.evaluate((id) => (location.hash = `#/conversations/${id}`), c.id);
  await page.locator(`section.conversation [role="log"] article[data-message-id="${c.lastMessageId}"]`).waitFor({ timeout: 60_000 });
  // The live read that follows the first one (250 ms later) takes the whole history.
  await page.waitForTimeout(1_500);
}

async function replies(page: Page, c: ReplyConversation, samples: number): Promise<number[]> {
  await open(page, c);
  const composer = page.getByRole('combobox', { name: /Reply to the contact/ });
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const token = `reply-${c.id}-${i}-${Date.now()}`;
    await composer.focus();
    await page.keyboard.type(`Thanks, looking into it (${token})`);
    await arm(page, 'keydown', { selector: 'section.conversation [role="log"] article', present: true, text: token });
    await page.waitForTimeout(QUIET_MS);
    await page.keyboard.press('Control+Enter');
    out.push(await measured(page));
    await page.waitForTimeout(SETTLE_MS);
  }
  return out;
}

/** `long` and `reference` alternate, `samples` replies each, one conversation at a time. */
export async function benchReply(page: Page, long: ReplyConversation, reference: ReplyConversation, samples: number): Promise<Figure[]> {
  const half = Math.ceil(samples / 2);
  const inLong = await replies(page, long, half);
  const inReference = await replies(page, reference, half);
  inLong.push(...(await replies(page, long, samples - half)));
  inReference.push(...(await replies(page, reference, samples - half)));
  const note = `${samples} replies in each, in two turns (long, ${reference.messages}, long, ${reference.messages}), each ${QUIET_MS} ms after its text was typed; service stopped (each reply queued in the outbox); long: ${inLong.map((x) => x.toFixed(1)).join(', ')}; ${reference.messages}: ${inReference.map((x) => x.toFixed(1)).join(', ')} ms`;
  const name = (p: number) => `reply: Ctrl+Enter → own reply shown, a conversation of ${long.messages.toLocaleString('en-US')} cached messages, p${p}`;
  const figure = (p: number) => ({
    ...against(name(p), percentile(inLong, p), 'ms', { limit: percentile(inReference, p), limitName: `the same, a conversation of ${reference.messages} cached messages` }, '', () => true, note),
    met: null,
  });
  return [figure(50), figure(95)];
}
