// The walking skeleton end to end: service → main core → bridge → renderer → Dexie, and back
// from Dexie alone once the service is gone.
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';
import { expect, screenshotPath, test } from './fixtures';

test('sign in, see the list, open a conversation, then read it offline from the cache', async ({ page, stack }) => {
  const signIn = new SignInPage(page);
  const inbox = new InboxPage(page);

  await page.goto(stack.host.url);
  await expect(signIn.heading()).toBeVisible();
  // The launch secret is taken out of the address bar once the page has it.
  expect(page.url()).not.toContain('#k=');
  await page.screenshot({ path: screenshotPath('01-sign-in') });

  await signIn.signIn(stack.creds.baseUrl, 'not-the-token');
  await expect(signIn.error()).toContainText('did not accept');

  await signIn.signIn(stack.creds.baseUrl, stack.creds.agentToken);
  await expect(inbox.rows().first()).toBeVisible();
  // Every open conversation the agent can see arrives, page after page (the list is virtualized:
  // its status line and aria-setsize count them, not the rows in the DOM).
  const openCount = await fetch(`${stack.creds.baseUrl}/api/v1/accounts/${stack.creds.accountId}/conversations?status=open`, {
    headers: { api_access_token: stack.creds.agentToken },
  }).then(async (r) => ((await r.json()) as { data: { meta: { all_count: number } } }).data.meta.all_count);
  await inbox.tab('All').click();
  expect(await inbox.settledCount()).toBe(openCount);
  await expect(inbox.rows().first()).toHaveAttribute('aria-setsize', String(openCount));
  await page.screenshot({ path: screenshotPath('02-conversation-list') });

  const contact = await inbox.openConversation(0);
  await expect(inbox.conversationHeading()).toHaveText(contact);
  await expect(inbox.messages().first()).toBeVisible();
  const seen = await inbox.messages().count();
  expect(seen).toBeGreaterThan(0);
  // An unread conversation opens at its first unread message: to the newest one, as the agent would.
  await inbox.messageLog().hover();
  await page.mouse.wheel(0, 100_000);
  await expect(inbox.messageLog()).toHaveAttribute('data-at-bottom', 'true');
  const lastText = await inbox.messages().last().textContent();
  await page.screenshot({ path: screenshotPath('03-conversation') });

  // The service goes away; the page reloads and still shows what was fetched, from IndexedDB.
  await stack.service.stop();
  await page.reload();
  // The view (All, open) was kept; its rows come from IndexedDB.
  await expect(inbox.tab('All')).toHaveAttribute('aria-selected', 'true');
  await expect(inbox.rows().first()).toHaveAttribute('aria-setsize', String(openCount));
  await expect(inbox.offlineBanner()).toBeVisible();
  // The head's early script (platform/early-start.ts) ran under the page's CSP and began the cache's
  // open and the bridge's socket; the app took both over (nothing of them is left behind).
  expect(await page.evaluate(() => {
    const start = (window as { __inboxEarlyStart?: object }).__inboxEarlyStart;
    return start && Object.keys(start);
  })).toEqual([]);
  await inbox.openConversation(0);
  await expect(inbox.messages().last()).toHaveText(lastText ?? '');
  await page.screenshot({ path: screenshotPath('04-offline-from-cache') });
});
