// Browsing by keyboard alone: tabs with the service's counts, status, inbox and label filters
// and sort through the command palette, j/k and Enter to open, r/n into the composer, ? for the
// shortcuts sheet. Screenshots of each screen, axe on each, in light and dark, and at 200% zoom.
import { expectAccessible } from './a11y';
import { expect, screenshotPath, test } from './fixtures';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';
import { listMeta, serviceGet } from './service-api';

test('browse tabs and filters by keyboard', async ({ page, stack }) => {
  test.setTimeout(120_000);
  const inbox = new InboxPage(page);
  await page.goto(stack.host.url);
  await new SignInPage(page).signIn(stack.creds.baseUrl, stack.creds.agentToken);

  // Mine / Unassigned / All carry the service's counts for open conversations.
  const open = await listMeta(stack, 'status=open');
  await expect(inbox.tab('Mine')).toHaveAttribute('aria-selected', 'true');
  await expect(inbox.tabCount('Mine')).toHaveText(String(open.mine_count));
  await expect(inbox.tabCount('Unassigned')).toHaveText(String(open.unassigned_count));
  await expect(inbox.tabCount('All')).toHaveText(String(open.all_count));
  expect(await inbox.settledCount()).toBe(open.mine_count);
  await page.screenshot({ path: screenshotPath('10-list-mine') });
  await expectAccessible(page, 'conversation list');

  await page.keyboard.press('2');
  await expect(inbox.tab('Unassigned')).toHaveAttribute('aria-selected', 'true');
  expect(await inbox.settledCount()).toBe(open.unassigned_count);
  for (const chip of await inbox.rows().locator('.chip.assignee').allTextContents()) expect(chip).toBe('Unassigned');

  await page.keyboard.press('3');
  expect(await inbox.settledCount()).toBe(open.all_count);

  // Status through the palette.
  await inbox.runCommand('status pending', 'Status: Pending');
  await expect(inbox.filter('Status')).toHaveValue('pending');
  const pending = await listMeta(stack, 'status=pending');
  expect(await inbox.settledCount()).toBe(pending.all_count);
  await expect(inbox.tabCount('Mine')).toHaveText(String(pending.mine_count));

  // All statuses, one inbox, one label.
  await inbox.runCommand('all statuses', 'Status: All statuses');
  const inboxes = (await serviceGet<{ payload: { id: number; name: string }[] }>(stack, '/inboxes')).payload;
  const email = inboxes.find((i) => i.name === 'Email support')!;
  await inbox.runCommand('inbox email', 'Inbox: Email support');
  const byInbox = await listMeta(stack, `status=all&inbox_id=${email.id}`);
  expect(await inbox.settledCount()).toBe(byInbox.all_count);
  for (const chip of await inbox.rows().locator('.chip.inbox-name').allTextContents()) expect(chip).toBe('Email support');

  await inbox.runCommand('label vip', 'Label: vip');
  const vip = await listMeta(stack, `status=all&inbox_id=${email.id}&labels[]=vip`);
  expect(await inbox.settledCount()).toBe(vip.all_count);
  await page.screenshot({ path: screenshotPath('11-list-filtered') });

  // Sort, then clear the filters.
  await inbox.runCommand('clear filters', 'Clear inbox, team and label filters');
  await inbox.runCommand('sort priority highest', 'Sort by priority: highest');
  await expect(inbox.filter('Sort')).toHaveValue('priority_desc');
  await inbox.settledCount();
  await expect(inbox.rows().first().locator('.chip.priority-urgent')).toBeVisible();

  // The palette itself, screenshotted and scanned while open.
  await page.keyboard.press('Control+k');
  await page.keyboard.type('go to');
  await page.screenshot({ path: screenshotPath('12-command-palette') });
  await expectAccessible(page, 'command palette');
  await page.keyboard.press('Escape');
  await expect(inbox.palette()).toBeHidden();

  // j/k move the cursor, Enter opens.
  await inbox.list().focus();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await expect(inbox.activeRow()).toHaveAttribute('aria-posinset', '1');
  await page.keyboard.press('j');
  const second = (await inbox.activeRow().locator('.contact').textContent()) ?? '';
  await page.keyboard.press('Enter');
  await expect(inbox.conversationHeading()).toHaveText(second);
  await expect(inbox.messages().first()).toBeVisible();

  // r / n focus the composer; typing there does not trigger shortcuts; Esc leaves it.
  await page.keyboard.press('n');
  await expect(inbox.composer()).toBeFocused();
  await expect(page.getByRole('button', { name: 'Private note' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('jk? 3');
  await expect(inbox.composer()).toHaveValue('jk? 3');
  await expect(inbox.tab('All')).toHaveAttribute('aria-selected', 'true');
  await expect(inbox.shortcutsSheet()).toBeHidden();
  await page.keyboard.press('Escape');
  await page.keyboard.press('r');
  await expect(inbox.composer()).toBeFocused();
  await expect(page.getByRole('button', { name: 'Reply' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Escape');
  await page.screenshot({ path: screenshotPath('13-conversation') });
  await expectAccessible(page, 'conversation');

  // ? shows the sheet generated from the registry.
  await page.keyboard.press('?');
  await expect(inbox.shortcutsSheet()).toBeVisible();
  await expect(inbox.shortcutsSheet()).toContainText('Next conversation');
  await page.screenshot({ path: screenshotPath('14-shortcuts') });
  await expectAccessible(page, 'shortcuts sheet');
  await page.keyboard.press('Escape');
  await expect(inbox.shortcutsSheet()).toBeHidden();

  // Dark theme follows the OS.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: screenshotPath('15-conversation-dark') });
  await expectAccessible(page, 'conversation, dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // 200% zoom on a 1280×800 window leaves 640×400 CSS px: one pane at a time.
  await page.setViewportSize({ width: 640, height: 400 });
  await expect(inbox.list()).toBeHidden();
  await expect(inbox.messageLog()).toBeVisible();
  await page.screenshot({ path: screenshotPath('16-zoom-200-conversation') });
  await expectAccessible(page, 'conversation at 200%');
  await page.getByRole('button', { name: 'Back to the list' }).click();
  await expect(inbox.list()).toBeVisible();
  await expect(inbox.messageLog()).toBeHidden();
  await page.screenshot({ path: screenshotPath('17-zoom-200-list') });
  await expectAccessible(page, 'list at 200%');
  await page.keyboard.press('Enter');
  await expect(inbox.messageLog()).toBeVisible();
});
