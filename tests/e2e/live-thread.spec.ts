// The live thread, web mode against the demo service: a contact writes through the public Client
// API while the agent has the conversation open. It opens at the "New" separator, stays at the
// bottom through the agent's own send (finding 1: it stopped 23 px short, the agent's own time cut
// off) and the contact's reply, shows "N new messages ↓" when the agent has scrolled up (reached
// and used by keyboard), and shows the service's delivery status on the agent's reply. A reload
// keeps the open conversation, with a URL of its own that never carries the launch secret.
import type { Page } from '@playwright/test';
import { contactClient } from '../support/client-api';
import { expectAccessible } from './a11y';
import { expect, screenshotPath, test } from './fixtures';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';
import { asAdministrator, serviceMessages } from './service-api';

/** How far the message log is from its bottom, in px. */
const fromBottom = (inbox: InboxPage) => inbox.messageLog().evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

async function wheel(page: Page, inbox: InboxPage, dy: number) {
  await inbox.messageLog().hover();
  await page.mouse.wheel(0, dy);
}

test('the thread follows a send and a live reply, and says what arrived while scrolled up', async ({ page, stack }) => {
  test.setTimeout(150_000);
  const inbox = new InboxPage(page);
  const client = contactClient(stack.creds.baseUrl, stack.creds.apiInboxIdentifier);
  // A contact who has written more than a pane holds.
  const lena = await client.start(`Lena Follow ${Date.now()}`);
  for (let i = 1; i <= 14; i++) await lena.write(`Question part ${i}: the export stops at row 4,000 and I cannot see why.`);

  await page.goto(stack.host.url);
  await new SignInPage(page).signIn(stack.creds.baseUrl, stack.creds.agentToken);
  await expect(inbox.tab('Mine')).toBeVisible();
  // Opened by number straight after sign-in, before the list (Mine: it is unassigned) holds it: what
  // was unread comes from the service's record, read before opening marks it read.
  await inbox.runCommand(`#${lena.conversation}`, `Open conversation #${lena.conversation}`);

  // Every message was unread: the "New" separator sits above the first one, at the top, with the
  // day above it; reading starts there rather than at the bottom.
  const separator = inbox.messageLog().getByTestId('new-divider');
  await expect(separator).toBeInViewport();
  await expect(inbox.messageLog().getByTestId('day-divider').first()).toHaveText('Today');
  await expect(inbox.messageLog().locator('article', { hasText: 'Question part 1:' })).toBeInViewport();
  await page.screenshot({ path: screenshotPath('70-thread-new-separator') });

  // To the bottom, then a reply by keyboard: the view stays at the bottom, the time under the
  // agent's own message in full view.
  await wheel(page, inbox, 20_000);
  await expect.poll(() => fromBottom(inbox)).toBeLessThanOrEqual(1);
  await page.keyboard.press('r');
  await expect(inbox.composer()).toBeFocused();
  await page.keyboard.type('Thanks Lena, looking at the export now.');
  await page.keyboard.press('Control+Enter');
  const reply = inbox.messageLog().locator('article', { hasText: 'Thanks Lena, looking at the export now.' });
  await expect(reply.locator('time')).toBeInViewport({ ratio: 1 });
  await expect(reply).not.toHaveAttribute('data-unsent', /.+/);
  await expect.poll(() => fromBottom(inbox)).toBeLessThanOrEqual(1);
  await page.screenshot({ path: screenshotPath('71-thread-after-send') });

  // The contact answers: it lands in view, the view still at the bottom.
  await lena.write('Great, thank you! It is the CSV export from the reports page.');
  const answer = inbox.messageLog().locator('article', { hasText: 'It is the CSV export from the reports page.' });
  await expect(answer.locator('time')).toBeInViewport({ ratio: 1 });
  await expect.poll(() => fromBottom(inbox)).toBeLessThanOrEqual(1);

  // The service reports the reply read (an API inbox's status update): the reply says so.
  const sent = (await serviceMessages(stack, lena.conversation)).find((m) => m.content === 'Thanks Lena, looking at the export now.')!;
  expect(await asAdministrator(stack, 'PATCH', `/conversations/${lena.conversation}/messages/${sent.id}`, { status: 'read' })).toBe(200);
  await expect(reply.getByTestId('delivery')).toHaveText(/Read/);
  await page.screenshot({ path: screenshotPath('72-thread-live-reply-read') });

  // Scrolled up, two more arrive: nothing moves, the pill counts them.
  await wheel(page, inbox, -600);
  await expect(inbox.messageLog()).toHaveAttribute('data-at-bottom', 'false');
  await lena.write('One more thing: it also happens with the XLSX export.');
  await lena.write('And on the mobile app.');
  const pill = page.getByRole('button', { name: /2 new messages/ });
  await expect(pill).toBeVisible();
  await expect(inbox.messageLog().locator('article', { hasText: 'And on the mobile app.' })).not.toBeInViewport();
  await page.screenshot({ path: screenshotPath('73-thread-new-messages-pill') });
  await expectAccessible(page, 'thread with the new-messages pill');

  // By keyboard: from the log, Tab reaches the pill; Enter goes to the newest message.
  await inbox.messageLog().focus();
  await page.keyboard.press('Tab');
  await expect(pill).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(inbox.messageLog().locator('article', { hasText: 'And on the mobile app.' })).toBeInViewport();
  await expect(pill).toBeHidden();
  await expect.poll(() => fromBottom(inbox)).toBeLessThanOrEqual(1);

  // A URL of its own, without the launch secret; a reload keeps the conversation open.
  await expect.poll(() => page.url()).toMatch(new RegExp(`#/conversations/${lena.conversation}$`));
  expect(page.url()).not.toContain('k=');
  await page.reload();
  await expect(inbox.conversationHeading()).toContainText('Lena Follow');
  await expect(inbox.messageLog().locator('article', { hasText: 'And on the mobile app.' })).toBeVisible();
  await page.screenshot({ path: screenshotPath('74-thread-after-reload') });
  await expectAccessible(page, 'conversation after a reload');
});
