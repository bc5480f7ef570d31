// Search: local results as the agent types (from the on-device index), including offline, and
// opening a result. Online the service's hits are merged in; offline the app answers from its own
// index without complaint.
import { expectAccessible } from './a11y';
import { expect, screenshotPath, test } from './fixtures';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';

test('search locally, instantly, also offline', async ({ page, stack }) => {
  test.setTimeout(120_000);
  const inbox = new InboxPage(page);
  await page.goto(stack.host.url);
  await new SignInPage(page).signIn(stack.creds.baseUrl, stack.creds.agentToken);
  // Keys go to the inbox only once it is on screen.
  await expect(inbox.tab('Mine')).toBeVisible();
  // Sync every conversation the agent can see (All, all statuses) into the cache.
  await page.keyboard.press('3');
  await inbox.runCommand('all statuses', 'Status: All statuses');
  const total = await inbox.settledCount();
  expect(total).toBeGreaterThan(100);

  // Open one conversation so its messages are cached, and pick a contact to look for.
  const contact = await inbox.openConversation(2);
  await expect(inbox.messages().first()).toBeVisible();
  const lastName = contact.split(' ').at(-1)!;

  await page.keyboard.press('Escape');
  await page.keyboard.press('/');
  await expect(inbox.searchField()).toBeFocused();
  await page.keyboard.type(lastName.slice(0, 4));
  // Local results appear without waiting for the service.
  await expect(inbox.searchResults().getByRole('button').first()).toBeVisible({ timeout: 1_000 });
  await page.keyboard.type(lastName.slice(4));
  await expect(inbox.searchResults().getByRole('button', { name: new RegExp(contact) }).first()).toBeVisible();
  // Online, the service's search (GET /search) is merged in after the local hits.
  await expect(inbox.searchResults().getByRole('status')).toContainText('Including results from the service');
  await expect(page.getByRole('alert')).toHaveCount(0);
  // The index runs in its worker (index-runner.ts), not on the page after falling back: the app's
  // content security policy and origin let the worker start and open the cache.
  expect(page.workers().map((w) => w.url()).filter((u) => /index-worker/.test(u))).toHaveLength(1);
  await page.screenshot({ path: screenshotPath('30-search') });
  await expectAccessible(page, 'search results');
  // Escape goes back to the list as it was (kept under the results), with the focus on it.
  await inbox.searchField().press('Escape');
  await expect(page.locator('#conversation-listbox')).toBeFocused();
  await expect(inbox.listStatus()).toContainText(`${total} conversation`);
  await expect(inbox.searchResults()).toHaveCount(0);

  // Message text is searchable too: the phrase the demo's billing replies use.
  await inbox.searchField().fill('refunded');
  await expect(inbox.searchResults().locator('.hit').first()).toBeVisible();

  // Offline: the service goes away; search still answers from the device, and a hit opens.
  // (A query searched online keeps the service's earlier answer; this one was never sent.)
  await stack.service.stop();
  await inbox.searchField().fill(contact);
  const hit = inbox.searchResults().getByRole('button', { name: new RegExp(contact) }).first();
  await expect(hit).toBeVisible({ timeout: 1_000 });
  await expect(inbox.searchResults().getByRole('status')).toContainText('Results saved on this computer');
  await hit.click();
  await expect(inbox.conversationHeading()).toHaveText(contact);
  await expect(inbox.messages().first()).toBeVisible();
  await page.screenshot({ path: screenshotPath('31-search-offline-open') });
});
