// Web mode's host restarting under an open tab (finding 5 of the fault injector): killed the hard
// way, the tab says offline (never a green "Live" beside it) and keeps what the agent does; started
// again with its kept launch secret, it takes the tab back by itself, what was queued lands, the
// indicator is live again, and a reload opens the inbox (no "Loading…" for good).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startService } from '../../scripts/lib/service-process';
import { startWebHostProcess } from '../../scripts/lib/web-host-process';
import { InboxPage } from './pages/InboxPage';
import { expect, screenshotPath, test } from './fixtures';

test('a killed and restarted web host takes the open tab back; what was done meanwhile lands; the indicators agree', async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'e2e-host-'));
  const dbFile = join(dir, 'service.sqlite');
  const credentials = join(dir, 'credentials.json');
  const secretFile = join(dir, 'data', 'web-launch-secret');
  const service = await startService({ db: dbFile, demo: true, credentialsOut: credentials, quiet: true });
  let host = await startWebHostProcess({ secretFile, signIn: credentials, quiet: true });
  try {
    const inbox = new InboxPage(page);
    await page.goto(host.url);
    await inbox.settledCount();
    await expect(inbox.liveIndicator()).toHaveAttribute('data-state', 'connected');
    const row = inbox.rows().first();
    const id = Number(await row.getAttribute('data-conversation-id'));

    // Killed as a crash would: the page cannot hear main, and says so.
    await host.stop('SIGKILL');
    await expect(inbox.liveIndicator()).toHaveAttribute('data-state', 'offline', { timeout: 10_000 });
    await expect(inbox.liveIndicator()).toContainText('Live updates: Offline');
    await expect(inbox.liveIndicator()).not.toContainText('Live updates: Live');
    await page.screenshot({ path: screenshotPath('50-host-down') });

    // The agent goes on: resolve the highlighted row by keyboard.
    await inbox.list().focus();
    await page.keyboard.press('j');
    await expect(inbox.activeRow()).toHaveAttribute('data-conversation-id', String(id));
    await page.keyboard.press('e');
    await expect(inbox.list().locator(`[data-conversation-id="${id}"]`)).toHaveCount(0);

    // Started again on the same port with its kept secret: the tab reconnects without a reload.
    host = await startWebHostProcess({ port: host.port, secretFile, signIn: credentials, quiet: true });
    await expect(inbox.liveIndicator()).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });
    await expect
      .poll(() => {
        const db = new Database(dbFile, { readonly: true });
        try {
          return (db.prepare('SELECT status FROM conversations WHERE display_id = ?').get(id) as { status: string }).status;
        } finally {
          db.close();
        }
      }, { timeout: 30_000 })
      .toBe('resolved');

    // A reload opens the inbox with the same secret (kept in the page), not "Loading…" for good.
    await page.reload();
    await inbox.settledCount();
    await expect(inbox.liveIndicator()).toHaveAttribute('data-state', 'connected');
    await expect(inbox.list().locator(`[data-conversation-id="${id}"]`)).toHaveCount(0);
  } finally {
    await host.stop();
    await service.stop();
  }
});
