// The small things of issue 11 (finding 7 and the polish list), each checked in Chromium against
// the demo: rows that fit their content in both densities, with avatars (initials, or the
// contact's picture from main); the "Load older messages" button over
// no message text; at 1024 px `i` shows the contact and a visible button goes back; a customer's
// markdown heading at body size; shortcut-sheet key badges not stretched; no favicon.ico request;
// an emoji inserted from the composer's picker by keyboard. Screenshots and axe on each screen.
import { contactClient } from '../support/client-api';
import { pngImage } from '../support/sample-files';
import { expectAccessible } from './a11y';
import { expect, screenshotPath, test } from './fixtures';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';
import { serviceGet } from './service-api';

test('polish: rows and their avatars, the older-messages button, 1024 px, headings, key badges, favicon, emoji', async ({ page, stack }) => {
  test.setTimeout(150_000);
  const favicon: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/favicon.ico') favicon.push(r.url());
  });
  const inbox = new InboxPage(page);
  const client = contactClient(stack.creds.baseUrl, stack.creds.apiInboxIdentifier);
  const mira = await client.start(`Mira Polish ${Date.now()}`);
  await mira.write('# Export broken\nThe **CSV** export stops at row 4,000.');
  // The contact of the agent's newest conversation has a picture on the service.
  const [newest] = (await serviceGet<{ data: { payload: { id: number; meta: { sender: { id: number } } }[] } }>(stack, '/conversations?assignee_type=me&status=open')).data.payload;
  const picture = new FormData();
  picture.append('avatar', new Blob([new Uint8Array(pngImage(64, 64, [[168, 85, 247], [14, 165, 233]]))], { type: 'image/png' }), 'me.png');
  const pictured = await fetch(`${stack.creds.baseUrl}/api/v1/accounts/${stack.creds.accountId}/contacts/${newest!.meta.sender.id}`, { method: 'PATCH', headers: { api_access_token: stack.creds.adminToken }, body: picture });
  expect(pictured.status).toBe(200);

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
  // Avatars: one per row, initials or the contact's picture (main's bytes, a blob: URL), decorative,
  // in the same box either way.
  const avatars = () => inbox.rows().evaluateAll((rows) => rows.slice(0, 8).map((row) => row.querySelectorAll('.avatar').length));
  expect(new Set(await avatars())).toEqual(new Set([1]));
  const rowPicture = inbox.list().locator(`#conversation-row-${newest!.id} img.avatar`);
  await expect(rowPicture).toHaveAttribute('src', /^blob:/);
  await expect(rowPicture).toHaveAttribute('alt', '');
  await expect.poll(() => rowPicture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
  const boxOf = (sel: string) => inbox.list().locator(sel).first().evaluate((el) => [el.getBoundingClientRect().width, el.getBoundingClientRect().height]);
  expect(await boxOf('img.avatar')).toEqual(await boxOf('span.avatar'));
  await page.screenshot({ path: screenshotPath('79-list-avatars') });
  await expectAccessible(page, 'list with avatars');
  await inbox.runCommand('density compact', 'List density: compact');
  await expect(inbox.list()).toHaveAttribute('data-density', 'compact');
  const compact = await fit();
  for (const r of compact) {
    expect(r.clipped).toBe(false);
    expect(r.height).toBeLessThan(50);
  }
  // A smaller avatar in compact rows, inside the row.
  expect((await boxOf('img.avatar'))[1]).toBeLessThan(30);
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

  // The page carries its icon inline: the browser never asked for /favicon.ico. With unread
  // conversations it is the count drawn over index.html's own icon (a PNG).
  const icon = (await page.locator('link[rel="icon"]').getAttribute('href')) ?? '';
  expect(icon).toMatch(/^data:image\/svg\+xml,/);
  expect(decodeURIComponent(icon)).toMatch(/<image href="data:image\/png;base64,[^"]+" width="64" height="64"\/><circle /);
  expect(favicon).toEqual([]);
});
