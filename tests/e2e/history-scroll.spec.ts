// Loading old history by scrolling, in one of the demo's long conversations: scroll up until the
// service has nothing older, the first message is on screen, and the message the agent was
// looking at never moved while older pages were prepended (watched on every frame).
import type { Page } from '@playwright/test';
import type { Stack } from './fixtures';
import { expect, screenshotPath, test } from './fixtures';
import { ConversationPage } from './pages/ConversationPage';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';
import { longDemoConversation } from './service-api';

/** Signs in and opens one of the demo's long conversations; it starts at the bottom, the newest message on screen. */
async function openLong(page: Page, stack: Stack) {
  const inbox = new InboxPage(page);
  const view = new ConversationPage(page);
  const long = await longDemoConversation(stack);
  await page.goto(stack.host.url);
  await new SignInPage(page).signIn(stack.creds.baseUrl, stack.creds.agentToken);
  await expect(inbox.tab('Mine')).toBeVisible();
  await inbox.runCommand(`#${long.id}`, `Open conversation #${long.id}`);
  await expect(view.message(long.messages.at(-1)!.id)).toBeInViewport();
  return { view, long };
}

test('load old history by scrolling up, without the position jumping', async ({ page, stack }) => {
  test.setTimeout(180_000);
  const { view, long } = await openLong(page, stack);
  const history = { payload: long.messages };
  const firstId = history.payload[0]!.id;

  expect(await view.hasOlder()).toBe(true);

  let loads = 0;
  const shifts: number[] = [];
  while (await view.hasOlder()) {
    const watch = await view.scrollToTopAndWatch();
    if (watch.loaded) {
      loads++;
      shifts.push(watch.maxShift);
    }
    expect(loads, 'scrolling should keep loading older pages').toBeLessThan(60);
  }
  await view.log().evaluate((log) => (log.scrollTop = 0));
  await expect(view.historyStart()).toBeInViewport();
  await expect(view.message(firstId)).toBeInViewport();
  await page.screenshot({ path: screenshotPath('20-history-start') });

  // Every older page was prepended without moving what the agent was reading. The watches saw
  // most of the pages arrive one by one; two may land in one watch when the next page's load
  // starts before the watch ends (CI saw 14 separate loads of 15 pages), so at least half are asked.
  expect(loads).toBeGreaterThanOrEqual(Math.floor((history.payload.length - 20) / 20 / 2));
  expect(Math.max(...shifts)).toBeLessThanOrEqual(1);
});

// Found by CI at 22:15 UTC (the test above failed with a 27 px jump; a few minutes later it
// passed): the demo's times follow the clock, and for some minutes a day began between the two
// messages just above the first one held, so the older page brought a day divider in right above
// the message straddling the top of the view. That message's height was not compensated. The
// demo is seeded as of such a moment (in UTC) so that the case is there on every run.
test.describe('a day divider arriving just above the top of the view', () => {
  const yesterday = new Date(Date.now() - 86_400_000);
  test.use({ timezoneId: 'UTC', demoAt: Date.UTC(yesterday.getUTCFullYear(), yesterday.getUTCMonth(), yesterday.getUTCDate(), 22, 20) });

  test('the message being read does not move', async ({ page, stack }) => {
    const { view, long } = await openLong(page, stack);
    const watch = await view.scrollToTopAndWatch();
    expect(watch.loaded).toBe(true);
    // The case itself (else the demo changed, and another time must be chosen): a day divider
    // right above the message above the one being read.
    const above = long.messages[long.messages.findIndex((m) => m.id === watch.anchorId) - 1]!;
    const order = await view.log().evaluate((log) => [...log.querySelectorAll('.message-slot')].map((s) => s.querySelector('[data-message-id]')?.getAttribute('data-message-id') ?? s.firstElementChild?.className ?? ''));
    expect(order.slice(order.indexOf(String(above.id)) - 1, order.indexOf(String(watch.anchorId)) + 1)).toEqual(['day-divider', String(above.id), String(watch.anchorId)]);
    expect(watch.maxShift).toBeLessThanOrEqual(1);
  });
});
