// The small things of issue 11 (finding 7 and the polish list), each checked in Chromium against
// the demo: rows that fit their content in both densities; the "Load older messages" button over
// no message text; at 1024 px `i` shows the contact and a visible button goes back; a customer's
// markdown heading at body size; shortcut-sheet key badges not stretched; no favicon.ico request;
// an emoji inserted from the composer's picker by keyboard. Screenshots and axe on each screen.
import { contactClient } from '../support/client-api';
import { expectAccessible } from './a11y';
import { expect, screenshotPath, test } from './fixtures';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';

test('polish: rows, the older-messages button, 1024 px, headings, key badges, favicon, emoji', async ({ page, stack }) => {
  test.setTimeout(150_000);
  const favicon: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/favicon.ico') favicon.push(r.url());
  });
  const inbox = new InboxPage(page);
  const client = contactClient(stack.creds.baseUrl, stack.creds.apiInboxIdentifier);
  const mira = await client.start(`Mira Polish ${Date.now()}`);
  await mira.write('# Export broken\nThe **CSV** export stops at row 4,000.');

  await page.goto(stack.host.url);
  await new SignInPage(page).signIn(stack.creds.baseUrl, stack.creds.agentToken);
  await expect(inbox.tab('Mine')).toBeVisible();
  await inbox.settledCount();

  // Rows fit what they hold: nothing cut off, no band of empty space (it was 84 px with 26 empty).
  const fit = () =>
    inbox.rows().evaluateAll((rows) =>
      rows.slice(0, 8).map((row) => {
        const box = row.getBoundingClientRect();
        const style = getComputedStyle(row);
        const inner = [...row.children].map((c) => c.getBoundingClientRect());
        const bottom = Math.max(...inner.map((r) => r.bottom));
        return { height: box.height, clipped: inner.some((r) => r.bottom > box.bottom - parseFloat(style.borderBottomWidth) + 0.5), empty: box.bottom - parseFloat(style.paddingBottom) - parseFloat(style.borderBottomWidth) - bottom };
      }),
    );
  for (const r of await fit()) {
    expect(r.clipped).toBe(false);
    expect(r.empty).toBeLessThanOrEqual(2);
  }
  await inbox.runCommand('density compact', 'List density: compact');
  await expect(inbox.list()).toHaveAttribute('data-density', 'compact');
  const compact = await fit();
  for (const r of compact) {
    expect(r.clipped).toBe(false);
    expect(r.height).toBeLessThan(50);
  }
  await page.screenshot({ path: screenshotPath('80-rows-compact') });
  await expectAccessible(page, 'compact list');
  // The preference is kept.
  await page.reload();
  await expect(inbox.list()).toHaveAttribute('data-density', 'compact');
  await inbox.runCommand('density comfortable', 'List density: comfortable');

  // A long conversation: at the top of what is held, the older-messages button covers no text.
  await inbox.tab('All').click();
  await inbox.runCommand('all statuses', 'Status: All statuses');
  await inbox.settledCount();
  await page.keyboard.press('g');
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(inbox.messages().first()).toBeVisible();
  const overlap = await inbox.messageLog().evaluate(async (log) => {
    log.scrollTop = 0;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const button = log.querySelector('.load-older');
    if (!button) return 'no button';
    const b = button.getBoundingClientRect();
    const hits = [...log.querySelectorAll('article')].filter((a) => {
      const r = a.getBoundingClientRect();
      return r.top < b.bottom && r.bottom > b.top && r.left < b.right && r.right > b.left;
    });
    return hits.length;
  });
  expect(overlap === 'no button' || overlap === 0).toBe(true);

  // 1024 px: i shows the contact in the conversation's place, and a visible button goes back.
  await page.setViewportSize({ width: 1024, height: 768 });
  await inbox.runCommand(`#${mira.conversation}`, `Open conversation #${mira.conversation}`);
  await expect(inbox.conversationHeading()).toContainText('Mira Polish');
  const panel = page.getByRole('complementary', { name: 'Contact details' });
  await page.keyboard.press('Escape');
  await page.keyboard.press('i');
  await expect(panel).toBeVisible();
  await expect(inbox.conversationHeading()).toBeHidden();
  const back = panel.getByRole('button', { name: 'Back to the conversation' });
  await expect(back).toBeVisible();
  await page.screenshot({ path: screenshotPath('81-contact-1024') });
  await expectAccessible(page, 'contact at 1024 px');
  await back.focus();
  await page.keyboard.press('Enter');
  await expect(inbox.conversationHeading()).toBeVisible();
  await expect(panel).toBeHidden();

  // The customer's "# Export broken" reads at the size of the text around it.
  const heading = inbox.messageLog().locator('article h1');
  await expect(heading).toHaveText('Export broken');
  const sizes = await heading.evaluate((h) => ({ h1: getComputedStyle(h).fontSize, p: getComputedStyle(h.closest('article')!.querySelector('p')!).fontSize }));
  expect(sizes.h1).toBe(sizes.p);

  // An emoji from the composer's picker, by keyboard: the button, type to filter, Enter.
  await page.keyboard.press('r');
  await page.keyboard.type('Thanks for the details ');
  const emojiButton = page.getByRole('button', { name: 'Insert emoji' });
  await emojiButton.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Emoji' });
  await expect(dialog.getByRole('combobox', { name: 'Search emoji' })).toBeFocused();
  await page.keyboard.type('thumbs');
  await page.keyboard.press('ArrowRight');
  await expect(dialog.getByRole('option', { selected: true })).toHaveAccessibleName('thumbs down');
  await page.keyboard.press('ArrowLeft');
  await page.screenshot({ path: screenshotPath('82-emoji-picker') });
  await expectAccessible(page, 'emoji picker');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(inbox.composer()).toBeFocused();
  await expect(inbox.composer()).toHaveValue('Thanks for the details 👍');

  // The shortcut sheet's key badges are as tall as one line, not stretched to the row.
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press('?');
  await expect(inbox.shortcutsSheet()).toBeVisible();
  const badges = await inbox.shortcutsSheet().locator('kbd').evaluateAll((els) => els.map((k) => k.getBoundingClientRect().height));
  expect(Math.max(...badges) - Math.min(...badges)).toBeLessThanOrEqual(1);
  expect(Math.max(...badges)).toBeLessThan(24);
  await page.screenshot({ path: screenshotPath('83-shortcuts-badges') });
  await page.keyboard.press('Escape');

  // The page carries its icon inline: the browser never asked for /favicon.ico.
  expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
  expect(favicon).toEqual([]);
});
