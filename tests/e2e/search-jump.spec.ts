// Search that takes you there: a message in the middle of one of the demo's long conversations,
// found by its words, opens scrolled to it and highlighted, with only the pages around it loaded
// (not the whole thread); the snippet shows the text around the match. Keyboard throughout.
import { expectAccessible } from './a11y';
import { expect, screenshotPath, test } from './fixtures';
import { ConversationPage } from './pages/ConversationPage';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';
import { longDemoConversation } from './service-api';

test('search to a message in the middle of a long thread: opened at it, highlighted, in view', async ({ page, stack }) => {
  test.setTimeout(120_000);
  const inbox = new InboxPage(page);
  const view = new ConversationPage(page);
  const long = await longDemoConversation(stack);
  // A message from the middle: the numbered text "(#n)" is unique to it in this conversation.
  const middle = long.messages.filter((m) => m.message_type !== 2 && !m.private && /\(#\d+\)$/.test(m.content ?? ''))[Math.floor(long.messages.length / 2)]!;
  const number = /\((#\d+)\)$/.exec(middle.content!)![1]!;

  await page.goto(stack.host.url);
  await new SignInPage(page).signIn(stack.creds.baseUrl, stack.creds.agentToken);
  await expect(inbox.tab('Mine')).toBeVisible();

  await page.keyboard.press('/');
  await expect(inbox.searchField()).toBeFocused();
  await page.keyboard.type(middle.content!);
  const hit = inbox.searchResults().locator('.hit', { hasText: `#${long.id}` }).filter({ hasText: number }).first();
  await expect(hit).toBeVisible({ timeout: 20_000 });
  await expect(hit.locator('.preview')).toContainText(number);
  await page.screenshot({ path: screenshotPath('75-search-hit') });
  // ↓ to the results, then to this hit, Enter opens it.
  await page.keyboard.press('ArrowDown');
  while (!(await hit.evaluate((el) => el === document.activeElement))) await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');

  const target = view.message(middle.id);
  await expect(target).toBeInViewport();
  await expect(target).toHaveAttribute('data-highlighted', 'true');
  await expect(target).toBeFocused();
  await page.screenshot({ path: screenshotPath('76-search-opened-at-hit') });
  await expectAccessible(page, 'conversation opened at a search hit');

  // Only the pages around it are held, not the thread between it and the newest message.
  const held = await view.renderedIds();
  expect(held).toContain(middle.id);
  const cached = await page.evaluate(async (conversationId) => {
    const names = (await indexedDB.databases()).map((d) => d.name!).filter((n) => n.startsWith('inbox'));
    let count = 0;
    for (const name of names) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(name);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      if (!db.objectStoreNames.contains('messages')) continue;
      const all = await new Promise<{ conversation_id: number }[]>((resolve) => {
        const r = db.transaction('messages').objectStore('messages').getAll();
        r.onsuccess = () => resolve(r.result as { conversation_id: number }[]);
      });
      count += all.filter((m) => m.conversation_id === conversationId).length;
      db.close();
    }
    return count;
  }, long.id);
  expect(cached).toBeLessThan(long.messages.length - 40);
});
