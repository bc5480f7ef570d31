// Receiving files end to end, web mode against the real service CLI: a contact's API channel sends
// a screenshot, an invoice and HTML disguised as a picture (multipart, as an API integration sends
// them) while the agent has the conversation open. The screenshot shows as a preview that opens
// larger, the invoice as a PDF card that opens and saves, the disguised page as a file to save,
// never as an image. The contact's picture shows in the contact panel. The page itself requests
// nothing but the app's own host: main fetched every byte.
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { htmlPage, pdfDocument, pngImage } from '../support/sample-files';
import { axeViolations } from './a11y';
import { expect, screenshotPath, test } from './fixtures';
import { fileBackedStack, oldestApiConversation, openOldestConversationLive } from './live-support';

/** The contact of conversation `displayId`, from the service's database file. */
function contactOf(dbFile: string, accountId: number, displayId: number): number {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT contact_id FROM conversations WHERE account_id = ? AND display_id = ?').get(accountId, displayId) as { contact_id: number }).contact_id;
  } finally {
    db.close();
  }
}

test('receive and open an image and a PDF', async ({ page }) => {
  test.setTimeout(120_000);
  const { dbFile, service, creds, host } = await fileBackedStack('e2e-files-');
  // Everything the page asks for over the network: only the app's own host may appear.
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  try {
    // The contact has a picture on the service (uploaded before the agent opens the conversation).
    const { id: displayId } = oldestApiConversation(dbFile, creds);
    const contactId = contactOf(dbFile, creds.accountId, displayId);
    const avatar = new FormData();
    avatar.append('avatar', new Blob([new Uint8Array(pngImage(64, 64, [[168, 85, 247], [14, 165, 233]]))], { type: 'image/png' }), 'me.png');
    const pictured = await fetch(`${creds.baseUrl}/api/v1/accounts/${creds.accountId}/contacts/${contactId}`, { method: 'PATCH', headers: { api_access_token: creds.adminToken }, body: avatar });
    expect(pictured.status).toBe(200);

    const { inbox, conversationId } = await openOldestConversationLive(page, host.url, creds, dbFile);
    expect(conversationId).toBe(displayId);
    // Initials beside each of the contact's messages; the picture in the contact panel, from main's bytes.
    await expect(inbox.messages().locator('.sender .avatar').first()).toBeVisible();
    const panelAvatar = page.getByRole('complementary', { name: 'Contact details' }).locator('img.avatar');
    await expect(panelAvatar).toHaveAttribute('src', /^blob:/);
    await expect.poll(() => panelAvatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);

    const png = pngImage(480, 300);
    const pdf = pdfDocument('Invoice 4411');
    const form = new FormData();
    form.append('content', 'Here is what I see, and the invoice');
    form.append('message_type', 'incoming');
    form.append('attachments[]', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'screenshot.png');
    form.append('attachments[]', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'invoice-4411.pdf');
    form.append('attachments[]', new Blob([new Uint8Array(htmlPage)], { type: 'image/png' }), 'cute-cat.png');
    const sent = await fetch(`${creds.baseUrl}/api/v1/accounts/${creds.accountId}/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { api_access_token: creds.adminToken },
      body: form,
    });
    expect(sent.status).toBe(200);

    const bubble = inbox.messages().last();
    await expect(bubble).toContainText('Here is what I see, and the invoice');
    const attachments = bubble.getByRole('list', { name: 'Attachments' });

    // The screenshot: a decoded preview from a blob: URL (main's bytes), not the service's address.
    const preview = attachments.getByRole('img', { name: 'screenshot.png' });
    await expect(preview).toBeVisible();
    expect(await preview.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);

    // The invoice: a PDF card with its size, Open and Save.
    const invoice = attachments.locator('li', { hasText: 'invoice-4411.pdf' });
    await expect(invoice).toContainText('PDF');
    await expect(invoice).toContainText(`${pdf.length} B`);
    // HTML named .png and sent as image/png: a file to save, never an image.
    const disguised = attachments.locator('li', { hasText: 'cute-cat.png' });
    await expect(disguised.getByRole('link', { name: 'Save cute-cat.png' })).toBeVisible();
    await expect(attachments.getByRole('img')).toHaveCount(1);
    await bubble.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('90-files-received') });
    expect(await axeViolations(page, { impacts: ['serious', 'critical'] }), 'axe on received files').toEqual([]);

    // The larger view, by keyboard: focus the preview, Enter, Escape back.
    await attachments.getByRole('button', { name: 'View screenshot.png larger' }).focus();
    await page.keyboard.press('Enter');
    const viewer = page.getByRole('dialog', { name: 'screenshot.png' });
    await expect(viewer).toBeVisible();
    // Larger than the preview: at its own size (480 px), where the bubble shows it at most 320 px wide.
    const previewWidth = await preview.evaluate((img) => img.getBoundingClientRect().width);
    expect(previewWidth).toBeLessThanOrEqual(320);
    await expect.poll(() => viewer.getByRole('img').evaluate((img: HTMLImageElement) => img.getBoundingClientRect().width)).toBe(480);
    await page.screenshot({ path: screenshotPath('91-files-image-larger') });
    expect(await axeViolations(page, { impacts: ['serious', 'critical'] }), 'axe on the image viewer').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();

    // Open the PDF: the viewer frames main's bytes, typed application/pdf.
    await invoice.getByRole('button', { name: 'Open invoice-4411.pdf' }).click();
    const pdfViewer = page.getByRole('dialog', { name: 'invoice-4411.pdf' });
    await expect(pdfViewer).toBeVisible();
    const frameSrc = (await pdfViewer.locator('iframe').getAttribute('src'))!;
    expect(frameSrc).toMatch(/^blob:/);
    // The same bytes Save hands over (checked below), shown by Chromium's PDF viewer (the page's CSP
    // allows no fetch of a blob: URL, so the frame is inspected rather than read).
    expect(frameSrc).toBe(await invoice.getByRole('link', { name: 'Save invoice-4411.pdf' }).getAttribute('href'));
    await expect.poll(() => pdfViewer.locator('iframe').evaluate((f: HTMLIFrameElement) => f.contentDocument?.contentType ?? '')).toBe('application/pdf');
    await page.screenshot({ path: screenshotPath('92-files-pdf-open') });
    await pdfViewer.getByRole('button', { name: 'Close' }).click();
    await expect(pdfViewer).toBeHidden();

    // Save the PDF: the download carries its name and exactly the bytes the contact sent.
    const download = page.waitForEvent('download');
    await invoice.getByRole('link', { name: 'Save invoice-4411.pdf' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('invoice-4411.pdf');
    expect(readFileSync((await saved.path())!)).toEqual(pdf);

    // The disguised page saves as a file, under a name that cannot run it, with the bytes as sent.
    const htmlDownload = page.waitForEvent('download');
    await disguised.getByRole('link', { name: 'Save cute-cat.png' }).click();
    expect(readFileSync((await (await htmlDownload).path())!)).toEqual(htmlPage);

    // The page fetched nothing from the service: every network request went to the app's host. (Blobs
    // are the page's own memory; chrome: and chrome-extension: are Chromium's PDF viewer, from the browser itself.)
    const network = requested.filter((u) => /^(https?|wss?):/.test(u));
    expect(network.length).toBeGreaterThan(0);
    expect(network.filter((u) => new URL(u).origin !== new URL(host.url).origin)).toEqual([]);
  } finally {
    await host.close();
    await service.stop();
  }
});
