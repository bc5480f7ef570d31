// Triage a queue by keyboard alone (after signing in): open, reply, label, resolve and go to the
// next, snooze, assign, and so on through the Mine/Open queue; then a bulk action; then a private
// note with an @mention. Every change is checked twice: on screen, and through the service's own
// API (landed, and exactly once). Screenshots of each new screen, axe on each of them.
import type { Page } from '@playwright/test';
import { expectAccessible } from './a11y';
import { expect, screenshotPath, test } from './fixtures';
import type { Stack } from './fixtures';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';
import { TriagePage } from './pages/TriagePage';
import { asAdministrator, listMeta, serviceConversation, serviceGet, serviceMessages } from './service-api';

async function signedIn(page: Page, stack: Stack) {
  const inbox = new InboxPage(page);
  await page.goto(stack.host.url);
  await new SignInPage(page).signIn(stack.creds.baseUrl, stack.creds.agentToken);
  await expect(inbox.tab('Mine')).toBeVisible();
  await inbox.settledCount();
  return { inbox, triage: new TriagePage(page) };
}

/** Waits until nothing is left to send (the header's outbox status is empty). Check the service with polls: this may pass before a just-taken action shows in the status. */
async function landed(triage: TriagePage) {
  await triage.settled();
}

test('triage a queue by keyboard: reply, label, resolve and next, snooze, assign, priority, team', async ({ page, stack }) => {
  test.setTimeout(180_000);
  const { inbox, triage } = await signedIn(page, stack);
  const agents = await serviceGet<{ id: number; name: string }[]>(stack, '/agents');
  const jordan = agents.find((a) => a.name === 'Jordan Lee')!;

  // g: to the list; j: the first conversation; Enter: open it.
  await page.keyboard.press('g');
  await expect(inbox.list()).toBeFocused();
  await page.keyboard.press('j');
  const queue = await triage.rowIds();
  await page.keyboard.press('Enter');
  await expect(inbox.messages().first()).toBeVisible();
  const a = await triage.openId();
  expect(a).toBe(queue[0]);

  // r: reply, typed and sent with Ctrl+Enter. It shows at once; the service gets it once.
  const reply = `Thanks for your patience, this is fixed now (${Date.now()}).`;
  await page.keyboard.press('r');
  await expect(inbox.composer()).toBeFocused();
  await page.keyboard.type(reply);
  await page.keyboard.press('Control+Enter');
  await expect(inbox.composer()).toHaveValue('');
  await expect(triage.bubble(reply)).toBeVisible();
  await expect(triage.bubble(reply)).not.toHaveAttribute('data-unsent', /.+/);
  await page.screenshot({ path: screenshotPath('20-triage-reply-sent') });
  await page.keyboard.press('Escape');

  // l: labels. Type to filter, Space ticks, Enter applies: the service gets the full set.
  const before = await serviceConversation(stack, a);
  const label = ['vip', 'urgent-followup', 'feature-request', 'bug'].find((l) => !before.labels.includes(l))!;
  await triage.open('l', 'Labels');
  await page.keyboard.type(label);
  await expect(triage.pickerOptions('Labels').first()).toHaveAttribute('data-option-id', label);
  await page.keyboard.press('Space');
  await expect(triage.pickerOptions('Labels').first()).toHaveAttribute('aria-checked', 'true');
  await page.screenshot({ path: screenshotPath('21-labels-picker') });
  await expectAccessible(page, 'labels picker');
  await page.keyboard.press('Enter');
  await expect(triage.picker('Labels')).toBeHidden();
  await expect.poll(async () => (await serviceConversation(stack, a)).labels).toEqual([...before.labels, label].sort());

  // Shift+E: resolve and open the next one in the queue.
  await page.keyboard.press('Shift+E');
  await expect.poll(() => triage.openId()).toBe(queue[1]);
  await expect(inbox.list().locator(`[data-conversation-id="${a}"]`)).toHaveCount(0);
  await expect.poll(async () => (await serviceConversation(stack, a)).status).toBe('resolved');
  await landed(triage);
  // The tab counts follow once the change landed.
  const openNow = await listMeta(stack, 'status=open');
  await expect(inbox.tabCount('Mine')).toHaveText(String(openNow.mine_count));
  expect((await serviceMessages(stack, a)).filter((m) => m.content === reply)).toHaveLength(1);
  await page.screenshot({ path: screenshotPath('22-resolved-next-opened') });

  // s: snooze the second one until tomorrow 9:00; the header says so.
  const b = queue[1]!;
  await triage.open('s', 'Snooze');
  await page.screenshot({ path: screenshotPath('23-snooze-dialog') });
  await expectAccessible(page, 'snooze dialog');
  await page.keyboard.type('date');
  await page.keyboard.press('Enter');
  await expect(triage.picker('Snooze until a date and time')).toBeVisible();
  await expect(page.getByLabel('Date and time (your time zone)')).toBeFocused();
  await page.screenshot({ path: screenshotPath('24-snooze-custom-time') });
  await expectAccessible(page, 'custom snooze time');
  await page.keyboard.press('Escape');
  await triage.open('s', 'Snooze');
  await triage.choose('Snooze', 'tomorrow', 'Until tomorrow');
  await expect(triage.snoozedUntil()).toHaveText(/^Snoozed until \w+ 9:00/);
  const tomorrow = await page.evaluate(() => {
    const d = new Date();
    d.setDate(d.getDate() + 1);
    d.setHours(9, 0, 0, 0);
    return d.toISOString();
  });
  await expect.poll(async () => serviceConversation(stack, b)).toMatchObject({ status: 'snoozed', snoozed_until: tomorrow });

  // To the list for the next one: a (assign to Jordan), p (priority), t (team), then Shift+E.
  await page.keyboard.press('g');
  await page.keyboard.press('Enter');
  const c = await triage.openId();
  expect(c).toBe(queue[2]);
  await triage.open('a', 'Assign to');
  await page.screenshot({ path: screenshotPath('25-assign-picker') });
  await expectAccessible(page, 'assign picker');
  await triage.choose('Assign to', 'jord', 'Jordan Lee');
  await expect(triage.assignee()).toHaveText('Jordan Lee');
  await triage.open('p', 'Priority');
  await expectAccessible(page, 'priority picker');
  await triage.choose('Priority', 'urg', 'Urgent');
  await triage.open('t', 'Move to team');
  await page.screenshot({ path: screenshotPath('26-team-picker') });
  await expectAccessible(page, 'team picker');
  await triage.choose('Move to team', 'techn', 'technical support');
  // Jordan is in technical support, so the service keeps him when the team changes.
  await expect
    .poll(async () => {
      const afterC = await serviceConversation(stack, c);
      return { priority: afterC.priority, team: afterC.meta.team?.name, assignee: afterC.meta.assignee?.id };
    })
    .toEqual({ priority: 'urgent', team: 'technical support', assignee: jordan.id });
  await expect(triage.assignee()).toHaveText('Jordan Lee');

  // ? lists the triage keys too.
  await page.keyboard.press('?');
  await expect(inbox.shortcutsSheet()).toContainText('Resolve and open the next conversation');
  await page.screenshot({ path: screenshotPath('27-shortcuts-with-triage') });
  await page.keyboard.press('Escape');

  // Dark, and at 200% zoom: a picker still reads and works.
  await page.emulateMedia({ colorScheme: 'dark' });
  await triage.open('l', 'Labels');
  await page.screenshot({ path: screenshotPath('28-labels-picker-dark') });
  await expectAccessible(page, 'labels picker, dark');
  await page.keyboard.press('Escape');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 640, height: 400 });
  await triage.open('a', 'Assign to');
  await expect(triage.pickerOptions('Assign to').first()).toBeVisible();
  await page.screenshot({ path: screenshotPath('29-assign-picker-zoom-200') });
  await expectAccessible(page, 'assign picker at 200%');
  await page.keyboard.press('Escape');
  await expect(triage.picker('Assign to')).toBeHidden();
});

test('bulk by keyboard: x and Shift+J select, p sets the priority of all, e resolves all', async ({ page, stack }) => {
  test.setTimeout(120_000);
  const { inbox, triage } = await signedIn(page, stack);
  await page.keyboard.press('3'); // All
  await inbox.settledCount();
  await page.keyboard.press('g');
  await page.keyboard.press('j');
  await page.keyboard.press('x');
  await page.keyboard.press('Shift+J');
  await page.keyboard.press('Shift+J');
  await expect(triage.bulkBar()).toContainText('3 selected');
  const picked = await triage.checkedRows().evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-conversation-id'))));
  expect(picked).toHaveLength(3);
  await page.screenshot({ path: screenshotPath('30-bulk-bar') });
  await expectAccessible(page, 'bulk bar');

  await triage.open('p', 'Priority');
  await expect(triage.picker('Priority')).toContainText('For 3 conversations');
  await triage.choose('Priority', 'low', 'Low');
  await expect.poll(async () => Promise.all(picked.map(async (id) => (await serviceConversation(stack, id)).priority))).toEqual(['low', 'low', 'low']);

  await page.keyboard.press('e');
  await expect(triage.bulkBar()).toBeHidden();
  for (const id of picked) await expect(inbox.list().locator(`[data-conversation-id="${id}"]`)).toHaveCount(0);
  await expect.poll(async () => Promise.all(picked.map(async (id) => (await serviceConversation(stack, id)).status))).toEqual(['resolved', 'resolved', 'resolved']);
  await page.screenshot({ path: screenshotPath('31-bulk-resolved') });
});

test('a private note with an @mention, sent once', async ({ page, stack }) => {
  test.setTimeout(120_000);
  const { inbox, triage } = await signedIn(page, stack);
  const priya = (await serviceGet<{ id: number; name: string }[]>(stack, '/agents')).find((a) => a.name === 'Priya Shah')!;
  await page.keyboard.press('g');
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(inbox.messages().first()).toBeVisible();
  const id = await triage.openId();

  await page.keyboard.press('n');
  await expect(inbox.composer()).toBeFocused();
  const marker = `${Date.now()}`;
  await page.keyboard.type(`Refund approved (${marker}). @pri`);
  await expect(page.getByRole('listbox', { name: 'Agents' })).toContainText('Priya Shah');
  await page.screenshot({ path: screenshotPath('32-note-mention') });
  await expectAccessible(page, 'note with mention suggestions');
  await page.keyboard.press('Enter');
  await page.keyboard.type('can you double-check the amount?');
  await page.keyboard.press('Control+Enter');
  await expect(inbox.composer()).toHaveValue('');
  const note = triage.bubble(marker);
  await expect(note).toHaveAttribute('aria-label', /^Private note from Sam Patel$/);
  await expect(note.locator('.mention')).toHaveText('@Priya Shah');
  await expect.poll(async () => (await serviceMessages(stack, id)).filter((m) => m.content?.includes(marker)).length).toBeGreaterThan(0);
  await landed(triage);
  const sent = (await serviceMessages(stack, id)).filter((m) => m.content?.includes(marker));
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ private: true, message_type: 1 });
  expect(sent[0]!.content).toContain(`[@Priya Shah](mention://user/${priya.id}/Priya%20Shah)`);
  await page.screenshot({ path: screenshotPath('33-note-sent') });
});

test('a reply the service refuses stays on screen, marked, with Retry and Discard', async ({ page, stack }) => {
  test.setTimeout(120_000);
  const { inbox, triage } = await signedIn(page, stack);
  await page.keyboard.press('g');
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(inbox.messages().first()).toBeVisible();
  const id = await triage.openId();
  await landed(triage);

  // An administrator deletes the conversation while the agent writes.
  expect(await asAdministrator(stack, 'DELETE', `/conversations/${id}`)).toBe(200);
  const text = `Are you still there? (${Date.now()})`;
  await page.keyboard.press('r');
  await page.keyboard.type(text);
  await page.keyboard.press('Control+Enter');
  const bubble = triage.bubble(text);
  await expect(bubble).toHaveAttribute('data-unsent', 'failed');
  await expect(bubble).toContainText('Not sent:');
  await expect(bubble.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(triage.outboxStatus()).toContainText('1 message not sent');
  await page.keyboard.press('Escape');
  await page.screenshot({ path: screenshotPath('34-message-not-sent') });
  await expectAccessible(page, 'failed message');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: screenshotPath('35-message-not-sent-dark') });
  await expectAccessible(page, 'failed message, dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Discarding it is a palette command too.
  await inbox.runCommand('discard', 'Discard messages that were not sent');
  await expect(bubble).toHaveCount(0);
  await expect(triage.outboxStatus()).toHaveText('');
});
