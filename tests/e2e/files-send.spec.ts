// Sending files end to end, web mode against the real service CLI: with the service down, the agent
// pastes a screenshot and drops an invoice on the composer (kept with the draft: a reload brings
// them back), writes a caption and sends. The message waits in the outbox (its files in IndexedDB:
// a reload does not lose them); when the service is back it goes as one multipart create, and the service holds it exactly once, with both files, which
// the app then shows from the service's copy.
import type { Page } from '@playwright/test';
import { startService } from '../../scripts/lib/service-process';
import type { RunningService } from '../../scripts/lib/service-process';
import { pdfDocument, pngImage } from '../support/sample-files';
import { axeViolations } from './a11y';
import { expect, screenshotPath, test } from './fixtures';
import { fileBackedStack, openOldestConversationLive } from './live-support';

/** Fires `type` (paste, or dragover then drop) at the composer with a file made in the page from `bytes`. */
async function giveFile(page: Page, how: 'paste' | 'drop', file: { name: string; type: string; bytes: Buffer }) {
  await page.getByRole('combobox', { name: 'Reply to the contact' }).evaluate(
    (area, { how, name, type, b64 }) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type }));
      if (how === 'paste') {
        area.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      } else {
        area.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
        area.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }
    },
    { how, name: file.name, type: file.type, b64: file.bytes.toString('base64') },
  );
}

/** Rows in the page's IndexedDB store `store`, over every database that has it. */
function storedRows(page: Page, store: string): Promise<number> {
  return page.evaluate(async (store) => {
    const names = (await indexedDB.databases()).map((d) => d.name!).filter(Boolean);
    let count = 0;
    for (const name of names) {
      const db = await new Promise<IDBDatabase>((ok, ko) => {
        const r = indexedDB.open(name);
        r.onsuccess = () => ok(r.result);
        r.onerror = () => ko(r.error);
      });
      if (db.objectStoreNames.contains(store)) {
        count += await new Promise<number>((ok) => {
          const r = db.transaction(store).objectStore(store).count();
          r.onsuccess = () => ok(r.result);
        });
      }
      db.close();
    }
    return count;
  }, store);
}

interface ServiceMessage {
  id: number;
  content: string | null;
  attachments?: { file_type: string; file_size: number }[];
}

test('send two files by paste and by drag and drop, offline then online, arriving once', async ({ page }) => {
  test.setTimeout(150_000);
  const stack = await fileBackedStack('e2e-files-send-');
  const { dbFile, creds, host, port } = stack;
  let service: RunningService = stack.service;
  try {
    const { inbox, conversationId } = await openOldestConversationLive(page, host.url, creds, dbFile);
    const messagesOnService = async () =>
      ((await (await fetch(`${creds.baseUrl}/api/v1/accounts/${creds.accountId}/conversations/${conversationId}/messages?after=0&before=2147483647`, { headers: { api_access_token: creds.adminToken } })).json()) as { payload: ServiceMessage[] }).payload;

    // The service goes away.
    await service.stop();
    await expect(inbox.liveIndicator()).toContainText('Offline');

    const png = pngImage(200, 120, [[22, 163, 74], [244, 63, 94]]);
    const pdf = pdfDocument('Refund confirmation');
    await inbox.composer().click();
    await giveFile(page, 'paste', { name: 'pasted-screenshot.png', type: 'image/png', bytes: png });
    await giveFile(page, 'drop', { name: 'refund-confirmation.pdf', type: 'application/pdf', bytes: pdf });
    const pending = page.getByRole('list', { name: 'Files to send' });
    await expect(pending.getByRole('listitem')).toHaveCount(2);
    await expect(pending).toContainText('pasted-screenshot.png');
    await expect(pending).toContainText('refund-confirmation.pdf');
    // Not sent yet, they are kept with the draft: a reload (the conversation is in the address)
    // brings them back.
    await expect.poll(() => storedRows(page, 'draftFiles')).toBe(1);
    await page.reload();
    await expect(pending.getByRole('listitem')).toHaveCount(2, { timeout: 20_000 });
    await expect(pending).toContainText('pasted-screenshot.png');
    await inbox.composer().click();
    const caption = `Here is the confirmation ${Date.now()}`;
    await page.keyboard.type(caption);
    await page.screenshot({ path: screenshotPath('93-files-composer') });
    expect(await axeViolations(page, { impacts: ['serious', 'critical'] }), 'axe on the composer with files').toEqual([]);
    await page.keyboard.press('Control+Enter');

    // At once in the thread, with both files by name, waiting for the service; the composer is empty.
    const bubble = inbox.messages().filter({ hasText: caption });
    await expect(bubble).toHaveCount(1);
    await expect(bubble).toHaveAttribute('data-unsent', /queued|sending/);
    await expect(bubble).toContainText('pasted-screenshot.png');
    await expect(bubble).toContainText('refund-confirmation.pdf');
    await expect(pending).toHaveCount(0);
    // Tried and failed (the service cannot be reached), waiting to try again.
    await expect(bubble).toContainText(/Not sent yet. Will retry automatically.|Not confirmed yet/, { timeout: 30_000 });
    await page.screenshot({ path: screenshotPath('94-files-queued-offline') });

    // A reload while offline: the message and its files are still queued (IndexedDB).
    // (The conversation is in the address, so the reload reopens it.)
    await page.reload();
    await expect(inbox.messages().filter({ hasText: caption })).toContainText('refund-confirmation.pdf', { timeout: 20_000 });

    // The service is back on the same address: the message goes, once, with both files.
    // (The outbox retries on its own schedule; it does not wait for the live connection.)
    service = await startService({ db: dbFile, port, quiet: true });
    const arrived = inbox.messages().filter({ hasText: caption });
    await expect(arrived).not.toHaveAttribute('data-unsent', /.+/, { timeout: 60_000 });
    await expect(arrived.getByRole('img', { name: 'pasted-screenshot.png' })).toBeVisible();
    await expect.poll(() => arrived.getByRole('img', { name: 'pasted-screenshot.png' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(200);
    await expect(arrived.locator('li', { hasText: 'refund-confirmation.pdf' })).toContainText('PDF');
    const onService = (await messagesOnService()).filter((m) => m.content === caption);
    expect(onService).toHaveLength(1);
    expect(onService[0]!.attachments?.map((a) => [a.file_type, a.file_size])).toEqual([['image', png.length], ['file', pdf.length]]);
    await expect(inbox.messages().filter({ hasText: caption })).toHaveCount(1);
    await arrived.scrollIntoViewIfNeeded();
    // Live again too (the socket reconnects on its own schedule, after the outbox may have sent).
    await expect(inbox.liveIndicator()).toHaveAttribute('data-state', 'connected', { timeout: 60_000 });
    await page.screenshot({ path: screenshotPath('95-files-sent-online') });
    expect(await axeViolations(page, { impacts: ['serious', 'critical'] }), 'axe after the files arrived').toEqual([]);
    // The queue kept nothing: the files' bytes went with the confirmation; the draft kept none.
    expect(await storedRows(page, 'outboxFiles')).toBe(0);
    expect(await storedRows(page, 'draftFiles')).toBe(0);
  } finally {
    await host.close();
    await service.stop();
  }
});
