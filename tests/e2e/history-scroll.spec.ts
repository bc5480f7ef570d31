// Loading old history by scrolling, in one of the demo's long conversations: scroll up until the
// service has nothing older, the first message is on screen, and the message the agent was
// looking at never moved while older pages were prepended (watched on every frame).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWebMode } from '../../main/web/cli';
import { startService } from '../../scripts/lib/service-process';
import { expect, rendererDir, screenshotPath, test } from './fixtures';
import { ConversationPage } from './pages/ConversationPage';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';
import { longDemoConversation } from './service-api';

test('load old history by scrolling up, without the position jumping', async ({ page, stack }) => {
  test.setTimeout(180_000);
  const inbox = new InboxPage(page);
  const view = new ConversationPage(page);
  const long = await longDemoConversation(stack);
  const history = { payload: long.messages };
  const firstId = history.payload[0]!.id;
  const lastId = history.payload.at(-1)!.id;

  await page.goto(stack.host.url);
  await new SignInPage(page).signIn(stack.creds.baseUrl, stack.creds.agentToken);
  await expect(inbox.tab('Mine')).toBeVisible();
  await inbox.runCommand(`#${long.id}`, `Open conversation #${long.id}`);

  // Starts at the bottom: the newest message is on screen.
  await expect(view.message(lastId)).toBeInViewport();
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
  test.use({ timezoneId: 'UTC' });

  test('the message being read does not move', async ({ page }) => {
    const dir = mkdtempSync(join(tmpdir(), 'e2e-'));
    const yesterday = new Date(Date.now() - 86_400_000);
    const demoAt = Date.UTC(yesterday.getUTCFullYear(), yesterday.getUTCMonth(), yesterday.getUTCDate(), 22, 20);
    const service = await startService({ db: ':memory:', demo: true, demoAt, credentialsOut: join(dir, 'credentials.json'), quiet: true });
    const host = await runWebMode({ staticDir: rendererDir });
    try {
      const stack = { service, creds: service.credentials!, host };
      const inbox = new InboxPage(page);
      const view = new ConversationPage(page);
      const long = await longDemoConversation(stack);
      await page.goto(host.url);
      await new SignInPage(page).signIn(stack.creds.baseUrl, stack.creds.agentToken);
      await expect(inbox.tab('Mine')).toBeVisible();
      await inbox.runCommand(`#${long.id}`, `Open conversation #${long.id}`);
      await expect(view.message(long.messages.at(-1)!.id)).toBeInViewport();

      const watch = await view.scrollToTopAndWatch();
      expect(watch.loaded).toBe(true);
      // The case itself (else the demo changed, and another time must be chosen): a day divider
      // right above the message above the one being read.
      const above = long.messages[long.messages.findIndex((m) => m.id === watch.anchorId) - 1]!;
      const order = await view.log().evaluate((log) => [...log.querySelectorAll('.message-slot')].map((s) => s.querySelector('[data-message-id]')?.getAttribute('data-message-id') ?? s.firstElementChild?.className ?? ''));
      expect(order.slice(order.indexOf(String(above.id)) - 1, order.indexOf(String(watch.anchorId)) + 1)).toEqual(['day-divider', String(above.id), String(watch.anchorId)]);
      expect(watch.maxShift).toBeLessThanOrEqual(1);
    } finally {
      await host.close();
      await service.stop();
    }
  });
});
