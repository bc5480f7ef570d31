// Notifications end to end, web mode against the real service: the browser's Notification API is
// captured in the page (granted, recording every notification with its tag, click and close), and
// the page is told the window does not have the agent's attention (as when the agent is in another
// app). A contact writes through the public Client API: a notification with who, where and what;
// clicking it opens the conversation. A burst of 30 messages in 5 conversations: at most 5
// notifications (one per conversation, updated in place). Paused: nothing; resumed: one summary.
// The app cut off while contacts write: on reconnect, one summary instead of a flood.
// With the window focused on another conversation: an in-app toast. Screenshots and axe on the
// settings screen and the toast.
import type { Page } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../../scripts/lib/service-process';
import { startWebHostProcess } from '../../scripts/lib/web-host-process';
import type { DemoCredentialsFile } from '../../scripts/lib/service-process';
import type { CapturedNotification } from '../support/notification-capture';
import { notificationCapture } from '../support/notification-capture';
import { contactClient } from '../support/client-api';
import { axeViolations } from './a11y';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';
import { expect, screenshotPath, test } from './fixtures';
import type { Stack } from './fixtures';

const shown = (page: Page) => page.evaluate(() => (window as unknown as { __shown: CapturedNotification[] }).__shown);

const contacts = (creds: DemoCredentialsFile) => contactClient(creds.baseUrl, creds.apiInboxIdentifier);

async function signedIn(page: Page, stack: Stack, focused = false) {
  await page.addInitScript(notificationCapture(focused));
  await page.goto(stack.host.url);
  await new SignInPage(page).signIn(stack.creds.baseUrl, stack.creds.agentToken);
  const inbox = new InboxPage(page);
  await expect(inbox.liveIndicator()).toContainText('Live');
  await inbox.settledCount();
  return inbox;
}

test('a contact writes: a notification says who, where and what; clicking it opens the conversation', async ({ page, stack }) => {
  const inbox = await signedIn(page, stack);
  const nadia = await contacts(stack.creds).start('Nadia Probe');
  await nadia.write('Is my **parcel** lost?');
  await expect.poll(async () => (await shown(page)).length, { timeout: 10_000 }).toBe(1);
  const [n] = await shown(page);
  // Who, which conversation in which inbox (the demo's API inbox), and the text as plain text.
  expect(n).toMatchObject({ title: `Nadia Probe (#${nadia.conversation} · Mobile app)`, body: 'Is my parcel lost?', tag: `conversation-${nadia.conversation}` });
  // The agent clicks it: the conversation opens, and its notification goes.
  await page.evaluate(() => (window as unknown as { __notes: { onclick(): void }[] }).__notes[0]!.onclick());
  await expect(inbox.conversationHeading()).toContainText('Nadia Probe');
  await expect.poll(async () => (await shown(page))[0]!.closed).toBe(true);
});

test('a burst of 30 messages in 5 conversations: at most 5 notifications, each updated in place with a count', async ({ page, stack }) => {
  await signedIn(page, stack);
  const people = await Promise.all(['Ava Burst', 'Ben Burst', 'Cai Burst', 'Dee Burst', 'Eli Burst'].map((name) => contacts(stack.creds).start(name)));
  for (let i = 0; i < 30; i++) await people[i % 5]!.write(`burst message ${i}`);
  // Every message has reached the page when each conversation's notification counts its six.
  await expect
    .poll(async () => {
      const latest = new Map((await shown(page)).map((s) => [s.tag, s.body]));
      return [...latest.values()].filter((b) => b.startsWith('6 new ·')).length;
    }, { timeout: 20_000 })
    .toBe(5);
  const all = await shown(page);
  const tags = new Set(all.map((s) => s.tag));
  expect(tags.size).toBe(5);
  // New alerts (not updates of one already shown): one per conversation.
  expect(all.filter((s) => !/^\d+ new ·/.test(s.body))).toHaveLength(5);
});

test('paused: nothing shows; resumed: one summary of what came meanwhile', async ({ page, stack }) => {
  const inbox = await signedIn(page, stack);
  await inbox.runCommand('Pause notifications', 'Pause notifications for 1 hour');
  const one = await contacts(stack.creds).start('Fay Quiet');
  const two = await contacts(stack.creds).start('Gus Quiet');
  await one.write('first while paused');
  await one.write('second while paused');
  await two.write('third while paused');
  // They reached the app (the list shows them), and nothing was raised.
  await inbox.tab('All').click();
  await expect(inbox.list().locator(`#conversation-row-${two.conversation}`)).toContainText('third while paused', { timeout: 10_000 });
  await expect(inbox.list().locator(`#conversation-row-${one.conversation}`)).toContainText('second while paused');
  expect(await shown(page)).toEqual([]);
  await inbox.runCommand('Resume notifications', 'Resume notifications');
  // One notification (a message decided late joins it, updated in place under its tag): what the
  // agent sees is the latest of each tag.
  await expect
    .poll(async () => [...new Map((await shown(page)).map((s) => [s.tag, [s.title, s.body]])).values()], { timeout: 10_000 })
    .toEqual([['While notifications were paused', '3 new messages in 2 conversations']]);
  expect(new Set((await shown(page)).map((s) => s.title))).toEqual(new Set(['While notifications were paused']));
});

test('looking at another conversation: an in-app toast (with Open); the settings screen; both pass axe', async ({ page, stack }) => {
  const inbox = await signedIn(page, stack, true);
  await inbox.rows().first().click();
  const hana = await contacts(stack.creds).start('Hana Toast');
  await hana.write('Are you there?');
  const toast = page.locator('.toasts .toast');
  await expect(toast).toContainText('Hana Toast');
  await expect(toast).toContainText('Are you there?');
  expect(await shown(page)).toEqual([]);
  await page.screenshot({ path: screenshotPath('60-notification-toast') });
  expect(await axeViolations(page, { include: '.toasts', impacts: ['serious', 'critical'] })).toEqual([]);
  await toast.getByRole('button', { name: 'Open' }).click();
  await expect(inbox.conversationHeading()).toContainText('Hana Toast');

  await inbox.runCommand('Notification settings', 'Notification settings');
  const dialog = page.getByRole('dialog', { name: 'Notification settings' });
  await expect(dialog.getByRole('checkbox', { name: /assigned to me$/ }).first()).toBeChecked();
  await dialog.getByRole('button', { name: 'Add quiet hours' }).click();
  await expect(dialog.getByRole('group', { name: 'Quiet hours 1' })).toBeVisible();
  await page.screenshot({ path: screenshotPath('61-notification-settings') });
  expect(await axeViolations(page, { impacts: ['serious', 'critical'] })).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('after a gap (the app could not hear the service), one summary instead of a flood', async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'e2e-wake-'));
  const credentials = join(dir, 'credentials.json');
  const secretFile = join(dir, 'data', 'web-launch-secret');
  const service = await startService({ db: join(dir, 'service.sqlite'), demo: true, credentialsOut: credentials, quiet: true });
  let host = await startWebHostProcess({ secretFile, signIn: credentials, quiet: true });
  try {
    await page.addInitScript(notificationCapture(false));
    const inbox = new InboxPage(page);
    await page.goto(host.url);
    await inbox.settledCount();
    await expect(inbox.liveIndicator()).toHaveAttribute('data-state', 'connected');
    // The app's host goes (as a laptop sleeps, or the app is closed); contacts write meanwhile.
    await host.stop('SIGKILL');
    await expect(inbox.liveIndicator()).toHaveAttribute('data-state', 'offline', { timeout: 10_000 });
    const client = contactClient(service.credentials!.baseUrl, service.credentials!.apiInboxIdentifier);
    const people = await Promise.all(['Ivo Away', 'Jun Away', 'Kai Away', 'Lia Away'].map((name) => client.start(name)));
    for (let i = 0; i < 12; i++) await people[i % 4]!.write(`while you were away ${i}`);
    // Back: the page reconnects by itself, catches up, and says so once.
    host = await startWebHostProcess({ port: host.port, secretFile, signIn: credentials, quiet: true });
    await expect(inbox.liveIndicator()).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });
    await expect.poll(async () => (await shown(page)).map((s) => [s.title, s.body]), { timeout: 20_000 }).toEqual([['While you were away', '12 new messages in 4 conversations']]);
  } finally {
    await host.stop();
    await service.stop();
  }
});
