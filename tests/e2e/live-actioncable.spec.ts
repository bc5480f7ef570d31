// Live updates end to end over ActionCable: web mode against the service CLI started with
// --no-socketio, so /cable is the only way a change can reach the page, as against a real
// Chatwoot installation. A contact writes while the agent has the list and that conversation open;
// a new contact's first message and an assignment raise notifications (the page's browser
// Notification API is recorded, and the window is in the background); the service stops, a
// contact writes meanwhile, the service comes back on the same port without socket.io, and the
// catch-up shows what was missed. Nothing is reloaded.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWebMode } from '../../main/web/cli';
import { startService } from '../../scripts/lib/service-process';
import type { RunningService } from '../../scripts/lib/service-process';
import type { CapturedNotification } from '../support/notification-capture';
import { notificationCapture } from '../support/notification-capture';
import { clientApi, openOldestConversationLive } from './live-support';
import { expect, rendererDir, screenshotPath, test } from './fixtures';


test('over ActionCable only: live messages, notifications and a catch-up after a restart', async ({ page }) => {
  test.setTimeout(150_000);
  // The browser's Notification API, granted and recorded; and the window in the background, where
  // the app raises notifications (it shows a toast while the agent is looking).
  await page.addInitScript(notificationCapture(false));
  const raised = async () => (await page.evaluate(() => (window as unknown as { __shown: CapturedNotification[] }).__shown)).map(({ title, body }) => ({ title, body }));

  const dir = mkdtempSync(join(tmpdir(), 'e2e-cable-'));
  const dbFile = join(dir, 'service.sqlite');
  let service: RunningService = await startService({ db: dbFile, demo: true, credentialsOut: join(dir, 'credentials.json'), quiet: true, noSocketIo: true });
  const creds = service.credentials!;
  const port = Number(new URL(creds.baseUrl).port);
  // Really without socket.io: its handshake path is not there.
  expect((await fetch(`${creds.baseUrl}/socket.io/?EIO=4&transport=polling`)).status).toBe(404);
  const host = await runWebMode({ staticDir: rendererDir });
  try {
    const client = clientApi(creds.baseUrl, creds);
    // The open conversation and the list follow a contact's message.
    const { inbox, row, conversationId: danaConversation, contact: dana } = await openOldestConversationLive(page, host.url, creds, dbFile);
    // Her row shows it and holds its place while the agent is on it (the list does not reshuffle
    // under them; places by aria-posinset, the list being virtualized).
    const placeBefore = await row(danaConversation).getAttribute('aria-posinset');
    await client.write(dana, danaConversation, 'Over the cable: order #5120?');
    await expect(inbox.messages().last()).toContainText('Over the cable: order #5120?');
    await expect(row(danaConversation).locator('.preview')).toHaveText('Over the cable: order #5120?');
    await expect(row(danaConversation)).toHaveAttribute('aria-posinset', placeBefore!);

    // A new contact's first message (unassigned, in the agent's inbox) raises a notification.
    const name = `Ola Cable ${Date.now()}`;
    const ola = await client.contact(name);
    const olaConversation = await client.conversation(ola);
    await client.write(ola, olaConversation, 'Hello from Ola');
    // The list stays where the agent is (Dana's row, near the bottom): to its top, as a wheel would.
    await expect.poll(() => inbox.list().evaluate((el) => ((el.scrollTop = 0), el.querySelector('[aria-posinset="1"]')?.id))).toBe(`conversation-row-${olaConversation}`);
    await expect(row(olaConversation).locator('.preview')).toHaveText('Hello from Ola');
    await expect.poll(raised).toContainEqual({ title: `${name} (#${olaConversation} · Mobile app)`, body: 'Hello from Ola' });

    // An administrator assigns it to the agent: the assignment notification comes over /cable too.
    const agentId = ((await (await fetch(`${creds.baseUrl}/api/v1/profile`, { headers: { api_access_token: creds.agentToken } })).json()) as { id: number }).id;
    const assigned = await fetch(`${creds.baseUrl}/api/v1/accounts/${creds.accountId}/conversations/${olaConversation}/assignments`, {
      method: 'POST',
      headers: { api_access_token: creds.adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({ assignee_id: agentId }),
    });
    expect(assigned.status).toBe(200);
    await expect.poll(async () => (await raised()).some((n) => new RegExp(`assigned #${olaConversation} to you$|^#${olaConversation} was assigned to you$`).test(n.title))).toBe(true);
    await page.screenshot({ path: screenshotPath('45-cable-live') });

    // The service stops; a contact writes meanwhile (another process on the same database file).
    await service.stop();
    await expect(inbox.liveIndicator()).toHaveAttribute('data-state', 'offline');
    const aside = await startService({ db: dbFile, quiet: true, noSocketIo: true });
    await clientApi(aside.baseUrl, creds).write(dana, danaConversation, 'Written while the cable was down');
    await aside.stop();

    // Back on the same port, still without socket.io: live again, and the catch-up brings it.
    service = await startService({ db: dbFile, port, quiet: true, noSocketIo: true });
    await expect(inbox.liveIndicator()).toContainText('Live', { timeout: 30_000 });
    await expect(inbox.messages().last()).toContainText('Written while the cable was down');
    await inbox.tab('All').click();
    // Her row holds its place while she is open, wherever that is in the virtualized list: scroll to it.
    await expect
      .poll(() =>
        inbox.list().evaluate(async (el, id) => {
          for (let top = 0; top <= el.scrollHeight; top += el.clientHeight / 2) {
            el.scrollTop = top;
            await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
            if (el.querySelector(`#${id}`)) return true;
          }
          return false;
        }, `conversation-row-${danaConversation}`),
      )
      .toBe(true);
    await expect(row(danaConversation).locator('.preview')).toHaveText('Written while the cable was down');
    // And live once more after the restart.
    await client.write(dana, danaConversation, 'Still here after the restart');
    await expect(inbox.messages().last()).toContainText('Still here after the restart');
    await page.screenshot({ path: screenshotPath('46-cable-caught-up') });
  } finally {
    await host.close();
    await service.stop();
  }
});
