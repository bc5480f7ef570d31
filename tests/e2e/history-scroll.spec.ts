// Loading old history by scrolling, in one of the demo's long conversations: scroll up until the
// service has nothing older, the first message is on screen, and the message the agent was
// looking at never moved while older pages were prepended (watched on every frame).
import { expect, screenshotPath, test } from './fixtures';
import { ConversationPage } from './pages/ConversationPage';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';
import { serviceGet } from './service-api';

interface Conv {
  id: number;
  last_non_activity_message: { content: string | null } | null;
}

/** A conversation with hundreds of messages: the demo numbers their text "(#n)". */
async function longConversation(stack: Parameters<typeof serviceGet>[0]): Promise<{ id: number; count: number }> {
  for (let page = 1; page < 40; page++) {
    const list = (await serviceGet<{ data: { payload: Conv[] } }>(stack, `/conversations?status=all&page=${page}`)).data.payload;
    if (!list.length) break;
    for (const c of list) {
      const n = Number(/\(#(\d+)\)$/.exec(c.last_non_activity_message?.content ?? '')?.[1]);
      if (n >= 180) return { id: c.id, count: n };
    }
  }
  throw new Error('the demo has no long conversation visible to the agent');
}

test('load old history by scrolling up, without the position jumping', async ({ page, stack }) => {
  test.setTimeout(180_000);
  const inbox = new InboxPage(page);
  const view = new ConversationPage(page);
  const long = await longConversation(stack);
  const history = await serviceGet<{ payload: { id: number }[] }>(stack, `/conversations/${long.id}/messages?after=0&before=2147483647`);
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

  // Every older page was prepended without moving what the agent was reading.
  expect(loads).toBeGreaterThanOrEqual(Math.floor((history.payload.length - 20) / 20));
  expect(Math.max(...shifts)).toBeLessThanOrEqual(1);
});
