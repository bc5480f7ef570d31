// Live updates end to end, web mode against the real service CLI: a contact writes through the
// public Client API while the agent has the list and that conversation open; an administrator
// assigns a conversation to the agent; the service stops and comes back on the same port (same
// database file), and what was written while the app could not hear it shows after the catch-up.
// Nothing is reloaded: every change reaches the page through main's socket.
import { startService } from '../../scripts/lib/service-process';
import type { RunningService } from '../../scripts/lib/service-process';
import { axeViolations } from './a11y';
import { clientApi, fileBackedStack, openOldestConversationLive } from './live-support';
import { SessionSwitcher } from './pages/SessionSwitcher';
import { expect, screenshotPath, test } from './fixtures';

test('new messages, an assignment and a service restart reach the open inbox without a reload', async ({ page }) => {
  test.setTimeout(120_000);
  const stack = await fileBackedStack('e2e-live-');
  const { dbFile, creds, host, port } = stack;
  let service: RunningService = stack.service;
  try {
    const client = clientApi(creds.baseUrl, creds);
    // The agent opens the conversation with the oldest activity.
    const { inbox, row, conversationId: danaConversation, contact: dana } = await openOldestConversationLive(page, host.url, creds, dbFile);
    await expect(inbox.rows().first()).not.toHaveAttribute('id', `conversation-row-${danaConversation}`);

    // Dana writes again: the open conversation shows it, and her row shows it too; it holds its
    // place while the agent is on it (the list does not reshuffle under them, finding 6).
    // Places by aria-posinset: the list is virtualized, so the first row in the page is not the top.
    const placeBefore = await row(danaConversation).getAttribute('aria-posinset');
    await client.write(dana, danaConversation, 'Are you there? Order #4411');
    await expect(inbox.messages().last()).toContainText('Are you there? Order #4411');
    await expect(row(danaConversation).locator('.preview')).toHaveText('Are you there? Order #4411');
    await expect(row(danaConversation)).toHaveAttribute('aria-posinset', placeBefore!);
    await page.screenshot({ path: screenshotPath('40-live-message') });

    // A new contact writes in: the conversation appears on top of the list (ties in the second go
    // to the newer conversation).
    const omar = await client.contact(`Omar Live ${Date.now()}`);
    const omarConversation = await client.conversation(omar);
    await client.write(omar, omarConversation, 'Omar says hello');
    // The list stays where the agent is (Dana's row, near the bottom): to its top, as a wheel would.
    await expect.poll(() => inbox.list().evaluate((el) => ((el.scrollTop = 0), el.querySelector('[aria-posinset="1"]')?.id))).toBe(`conversation-row-${omarConversation}`);
    await expect(row(omarConversation).locator('.preview')).toHaveText('Omar says hello');
    // The agent leaves Dana's conversation for Omar's: her row takes its new place, next to the top.
    await inbox.runCommand(`#${omarConversation}`);
    await expect(row(danaConversation)).toHaveAttribute('aria-posinset', '2');
    await inbox.runCommand(`#${danaConversation}`);
    await expect(inbox.messages().last()).toContainText('Are you there? Order #4411');

    // An administrator assigns Omar's conversation to the agent: it shows under Mine at once.
    const agentId = ((await (await fetch(`${creds.baseUrl}/api/v1/profile`, { headers: { api_access_token: creds.agentToken } })).json()) as { id: number }).id;
    await inbox.tab('Mine').click();
    await expect(row(omarConversation)).toHaveCount(0);
    const assigned = await fetch(`${creds.baseUrl}/api/v1/accounts/${creds.accountId}/conversations/${omarConversation}/assignments`, {
      method: 'POST',
      headers: { api_access_token: creds.adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({ assignee_id: agentId }),
    });
    expect(assigned.status).toBe(200);
    await expect(row(omarConversation)).toBeVisible();
    // The tab counts follow, as the service counts them.
    const mine = ((await (await fetch(`${creds.baseUrl}/api/v1/accounts/${creds.accountId}/conversations?status=open&assignee_type=me`, { headers: { api_access_token: creds.agentToken } })).json()) as { data: { meta: { mine_count: number } } }).data.meta.mine_count;
    await expect(inbox.tabCount('Mine')).toHaveText(String(mine));
    await page.screenshot({ path: screenshotPath('41-live-assigned') });

    // The service stops: the indicator says so. Meanwhile Dana writes twice (through another
    // process on the same database, since the app's address is down): no socket could carry it.
    await service.stop();
    await expect(inbox.liveIndicator()).toContainText('Offline');
    await expect(inbox.liveIndicator()).toHaveAttribute('data-state', 'offline');
    await page.screenshot({ path: screenshotPath('42-live-offline') });
    const aside = await startService({ db: dbFile, quiet: true });
    const asideClient = clientApi(aside.baseUrl, creds);
    await asideClient.write(dana, danaConversation, 'Written while you were away (1)');
    await asideClient.write(dana, danaConversation, 'Written while you were away (2)');
    await aside.stop();
    await expect(inbox.messages().last()).toContainText('Are you there? Order #4411');

    // Back on the same port: live again, and the catch-up brings what was missed.
    service = await startService({ db: dbFile, port, quiet: true });
    await expect(inbox.liveIndicator()).toContainText('Live', { timeout: 30_000 });
    await expect(inbox.messages().last()).toContainText('Written while you were away (2)');
    await expect(inbox.messageLog()).toContainText('Written while you were away (1)');
    await inbox.tab('All').click();
    await expect(row(danaConversation).locator('.preview')).toHaveText('Written while you were away (2)');
    await page.screenshot({ path: screenshotPath('43-live-caught-up') });

    // The indicator and the notifications toggle pass axe (no serious or critical violations).
    const switcher = new SessionSwitcher(page);
    await switcher.open();
    const toggle = switcher.panel().getByRole('checkbox', { name: 'Desktop notifications' });
    await expect(toggle).toBeVisible();
    await page.screenshot({ path: screenshotPath('44-notifications-toggle') });
    expect(await axeViolations(page, { include: '.live-indicator', impacts: ['serious', 'critical'] })).toEqual([]);
    expect(await axeViolations(page, { include: '#session-switcher-panel', impacts: ['serious', 'critical'] })).toEqual([]);
  } finally {
    await host.close();
    await service.stop();
  }
});
