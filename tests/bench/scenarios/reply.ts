// Reply: the agent's own reply, from the key that sends it (Ctrl+Enter in the composer) to the end
// of the frame that shows it in the thread, from the cache with the service stopped (the reply is
// queued in the outbox and shown at once, as on a train). In a conversation of many cached
// messages against one of 500, on the same cache in the same run.
//
// Why: a conversation's cache holds every message the agent scrolled through or that arrived since,
// so a long-running one's grows without bound, and the open conversation's live read took all of
// them again at every change to it; a reply is such a change. A read of 10,000 messages took 197 ms
// in this browser on its own (bench/README, thirty-second stop); it now reads back only what a
// write changed (conversation/conversation-read.ts, thirty-third stop). BENCH_TRACE: one more reply
// in each, traced (tests/bench/trace.ts).
import type { Page } from '@playwright/test';
import type { Figure } from '../../../scripts/bench/figures';
import { against, percentile } from '../../../scripts/bench/figures';
import { arm, measured } from '../page-probes';
import { traced } from '../trace';

export interface ReplyConversation {
  id: number;
  lastMessageId: number;
  messages: number;
}

/** The newest reply sent in each conversation (its token): what its view opens at. */
const newestReply = new Map<number, string>();

/** The quiet before each reply's key, as for the triage keys (an agent's pace). */
const QUIET_MS = 100;
/** After each reply: the outbox's writes and the thread's reads settle before the next is typed. */
const SETTLE_MS = 600;

async function open(page: Page, c: ReplyConversation) {
  // By its address (the route): the conversation need not be a row in sight.
  await page.evaluate((id) => (location.hash = `#/conversations/${id}`), c.id);
  const log = page.locator('section.conversation [role="log"]');
  const reply = newestReply.get(c.id);
  await (reply ? log.locator('article', { hasText: reply }) : log.locator(`article[data-message-id="${c.lastMessageId}"]`)).waitFor({ timeout: 60_000 });
  // The live read that follows the first one (250 ms later) takes the whole history.
  await page.waitForTimeout(1_500);
}

async function reply(page: Page, c: ReplyConversation, i: number): Promise<number> {
  const token = `reply-${c.id}-${i}-${Date.now()}`;
  await page.getByRole('combobox', { name: /Reply to the contact/ }).focus();
  await page.keyboard.type(`Thanks, looking into it (${token})`);
  await arm(page, 'keydown', { selector: 'section.conversation [role="log"] article', present: true, text: token });
  await page.waitForTimeout(QUIET_MS);
  await page.keyboard.press('Control+Enter');
  const ms = await measured(page);
  newestReply.set(c.id, token);
  await page.waitForTimeout(SETTLE_MS);
  return ms;
}

async function replies(page: Page, c: ReplyConversation, samples: number): Promise<number[]> {
  await open(page, c);
  const out: number[] = [];
  for (let i = 0; i < samples; i++) out.push(await reply(page, c, i));
  return out;
}

/** `long` and `reference` alternate, `samples` replies each, one conversation at a time. */
export async function benchReply(page: Page, long: ReplyConversation, reference: ReplyConversation, samples: number): Promise<Figure[]> {
  const half = Math.ceil(samples / 2);
  const inLong = await replies(page, long, half);
  const inReference = await replies(page, reference, half);
  inLong.push(...(await replies(page, long, samples - half)));
  inReference.push(...(await replies(page, reference, samples - half)));
  // One more in each, not counted, traced when BENCH_TRACE names a folder.
  if (process.env.BENCH_TRACE) {
    for (const [c, name] of [[long, 'reply-long'], [reference, 'reply-reference']] as const) {
      await open(page, c);
      await traced(page, name, () => reply(page, c, samples));
    }
  }
  const note = `${samples} replies in each, in two turns (long, ${reference.messages}, long, ${reference.messages}), each ${QUIET_MS} ms after its text was typed; service stopped (each reply queued in the outbox); long: ${inLong.map((x) => x.toFixed(1)).join(', ')}; ${reference.messages}: ${inReference.map((x) => x.toFixed(1)).join(', ')} ms`;
  const name = (p: number) => `reply: Ctrl+Enter → own reply shown, a conversation of ${long.messages.toLocaleString('en-US')} cached messages, p${p}`;
  const figure = (p: number) => ({
    ...against(name(p), percentile(inLong, p), 'ms', { limit: percentile(inReference, p), limitName: `the same, a conversation of ${reference.messages} cached messages` }, '', () => true, note),
    met: null,
  });
  return [figure(50), figure(95)];
}
