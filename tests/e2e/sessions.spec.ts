// Sessions end to end in Chromium, web mode: the token never comes back over the bridge; the
// account picker, adding and switching accounts, signing out (which deletes the account's
// IndexedDB cache); the weak-storage question; expiry and re-sign-in keeping the session and
// its cache; and the screens checked with axe.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BridgeFrames } from './pages/BridgeFrames';
import { InboxPage, indexedDbNames } from './pages/InboxPage';
import { SessionDialogs } from './pages/SessionDialogs';
import { SessionSwitcher } from './pages/SessionSwitcher';
import { SignInPage } from './pages/SignInPage';
import { axeViolations } from './a11y';
import { expect, screenshotPath, test } from './fixtures';

const lastSessionId = (frames: BridgeFrames) => {
  const states = frames.eventsNamed('session.changed') as { status: string; session?: { id: string } }[];
  return states.filter((s) => s.session).at(-1)?.session?.id;
};

test('the token crosses the bridge once, in the sign-in call, and never comes back; sign-out deletes the cache', async ({ page, stack }) => {
  const frames = new BridgeFrames(page);
  const signIn = new SignInPage(page);
  const inbox = new InboxPage(page);
  const token = stack.creds.agentToken;

  await page.goto(stack.host.url);
  await signIn.signIn(stack.creds.baseUrl, token);
  await expect(inbox.rows().first()).toBeVisible();
  await inbox.openConversation(0);
  await expect(inbox.messages().first()).toBeVisible();
  const sessionId = lastSessionId(frames)!;
  expect(sessionId).toMatch(/#u\d+#a\d+$/);
  await expect.poll(() => indexedDbNames(page)).toContain(`inbox:${sessionId}`);

  await new SessionSwitcher(page).signOut();
  await expect(signIn.heading()).toBeVisible();
  await expect.poll(() => indexedDbNames(page)).not.toContain(`inbox:${sessionId}`);
  expect(frames.eventsNamed('session.cacheObsolete')).toEqual([{ sessionIds: [sessionId] }]);

  // Every frame, both ways: the token is in exactly one, the sign-in call the page sent.
  const received = frames.frames.filter((f) => f.direction === 'received');
  expect(received.length).toBeGreaterThan(10);
  expect(received.some((f) => f.text.includes('"conversations.list"') || f.text.includes('"payload"'))).toBe(true);
  expect(frames.containing(token)).toEqual(frames.callsNamed('session.signIn'));
  expect(frames.containing(token)).toHaveLength(1);
  expect(received.filter((f) => f.text.includes(token))).toEqual([]);
  expect(await page.content()).not.toContain(token);
});

test('several accounts: pick one, add another, switch between them, sign out back to the saved list', async ({ page, liveDemo, webMode }) => {
  const host = await webMode();
  const signIn = new SignInPage(page);
  const inbox = new InboxPage(page);
  const switcher = new SessionSwitcher(page);
  const multi = liveDemo.multiAccountUser();

  await page.goto(host.url);
  await signIn.signIn(liveDemo.baseUrl, multi.token);
  await expect(signIn.accountPicker()).toBeFocused();
  await expect(signIn.accountChoices()).toHaveCount(2);
  expect(await axeViolations(page, { include: '.sign-in' })).toEqual([]);
  await page.screenshot({ path: screenshotPath('10-account-picker') });
  await signIn.chooseAccount('Globex Corp');
  await expect(page.getByRole('heading', { level: 1, name: 'Globex Corp' })).toBeVisible();

  await switcher.addAccount();
  await expect(signIn.addAccountHeading()).toBeVisible();
  await signIn.signIn(liveDemo.baseUrl, liveDemo.creds.agentToken);
  await expect(page.getByRole('heading', { level: 1, name: 'Acme Support' })).toBeVisible();
  await expect(inbox.rows().first()).toBeVisible();

  await switcher.open();
  await expect(switcher.switchTargets()).toHaveCount(1);
  expect(await axeViolations(page, { include: '.session-switcher' })).toEqual([]);
  await page.screenshot({ path: screenshotPath('11-account-switcher') });
  await switcher.switchTo('Globex Corp');
  await expect(page.getByRole('heading', { level: 1, name: 'Globex Corp' })).toBeVisible();

  await switcher.signOut();
  await expect(signIn.heading()).toBeVisible();
  await expect(signIn.savedAccounts().getByRole('button')).toHaveCount(1);
  await signIn.openSaved('Acme Support');
  await expect(page.getByRole('heading', { level: 1, name: 'Acme Support' })).toBeVisible();
});

test('no keyring: the agent is asked before the token is stored; expiry keeps the session and its cache', async ({ page, liveDemo, webMode }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'web-data-'));
  const host = await webMode({ dataDir });
  const frames = new BridgeFrames(page);
  const signIn = new SignInPage(page);
  const inbox = new InboxPage(page);
  const dialogs = new SessionDialogs(page);
  const userId = liveDemo.userIdOf(liveDemo.creds.agentToken);

  await page.goto(host.url);
  await signIn.signIn(liveDemo.baseUrl, liveDemo.creds.agentToken);
  await expect(dialogs.consent()).toBeVisible();
  await expect(dialogs.consent().getByRole('button', { name: 'Enter it each launch' })).toBeFocused();
  expect(await axeViolations(page, { include: '.modal' })).toEqual([]);
  await page.screenshot({ path: screenshotPath('12-weak-storage-consent') });
  await dialogs.chooseEachLaunch();
  await expect(dialogs.consent()).toBeHidden();
  await expect(inbox.rows().first()).toBeVisible();
  // The list is virtualized: compare how many conversations it holds, not how many rows it draws.
  const held = await inbox.settledCount();
  const sessionId = lastSessionId(frames)!;

  // The service stops accepting the token: the next call marks the session expired.
  liveDemo.revokeTokens(userId);
  await page.reload();
  await expect(dialogs.expired()).toBeVisible();
  await expect(page.getByLabel('Access token')).toBeFocused();
  // The cache (and with it any queued work) is still there, shown behind the dialog.
  await expect(inbox.listStatus()).toContainText(`${held} conversation`);
  expect(await indexedDbNames(page)).toContain(`inbox:${sessionId}`);
  expect(await axeViolations(page, { include: '.modal' })).toEqual([]);
  await page.screenshot({ path: screenshotPath('13-session-expired') });

  await dialogs.signInAgain('not-a-valid-token');
  await expect(page.getByRole('dialog').getByRole('alert')).toContainText('did not accept');
  await dialogs.signInAgain(liveDemo.issueToken(userId));
  await expect(dialogs.expired()).toBeHidden();
  expect(lastSessionId(frames)).toBe(sessionId);
  expect(await inbox.settledCount()).toBe(held);
  expect(frames.eventsNamed('session.cacheObsolete')).toEqual([]);

  // Next launch: the session is remembered, its token is not (the agent chose "each launch").
  await host.close();
  const next = await webMode({ dataDir });
  await page.goto(next.url);
  await expect(dialogs.tokenNeeded()).toBeVisible();
});

test('the sign-in screen passes axe', async ({ page, stack }) => {
  await page.goto(stack.host.url);
  await expect(new SignInPage(page).heading()).toBeVisible();
  expect(await axeViolations(page, { include: '.sign-in' })).toEqual([]);
});
