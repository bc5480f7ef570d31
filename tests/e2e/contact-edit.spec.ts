// Editing a contact offline (issue 11), web mode against the real service CLI: the service goes
// away, the agent edits the contact's details and custom attributes (Shift+I), changes its labels
// and adds a note; everything shows at once and waits in the outbox. The service comes back on the
// same port: each change lands once, and the service then says what the screen says. A change the
// service refuses (a phone number not in E.164) is shown beside its field, in the service's words;
// a note is deleted.
import { runWebMode } from '../../main/web/cli';
import type { DemoCredentialsFile } from '../../scripts/lib/service-process';
import { expectAccessible } from './a11y';
import { demoServiceOnFile, openOldestConversationLive, readServiceDb } from './live-support';
import { expect, rendererDir, screenshotPath, test } from './fixtures';

interface ServiceContact {
  name: string;
  email: string | null;
  phone_number: string | null;
  custom_attributes: Record<string, unknown>;
}

/** The service's own answer, read as an agent (never a step of the journey). */
async function fromService<T>(creds: DemoCredentialsFile, path: string): Promise<T> {
  const res = await fetch(`${creds.baseUrl}/api/v1/accounts/${creds.accountId}${path}`, { headers: { api_access_token: creds.agentToken } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

test('edit a contact offline and see it land', async ({ page }) => {
  test.setTimeout(120_000);
  const service = await demoServiceOnFile('contact');
  const { creds, dbFile } = service;
  const host = await runWebMode({ staticDir: rendererDir });
  try {
    const { inbox, conversationId } = await openOldestConversationLive(page, host.url, creds, dbFile);
    const contactId = readServiceDb(dbFile, (db) => db.prepare('SELECT contact_id AS id FROM conversations WHERE display_id = ?').get(conversationId) as { id: number }).id;
    const panel = page.getByRole('complementary', { name: 'Contact details' });
    await expect(panel.getByText('Email')).toBeVisible();
    const before = await fromService<{ payload: ServiceContact }>(creds, `/contacts/${contactId}`);
    const stamp = Date.now().toString(36);
    const name = `Leila Marsh ${stamp}`;
    const email = `leila.${stamp}@example.org`;

    // The service goes away.
    await service.stop();
    await expect(inbox.liveIndicator()).toHaveAttribute('data-state', 'offline');

    // Shift+I opens the form with the caret in Name; Tab moves through the fields; Enter saves.
    await page.keyboard.press('Shift+I');
    const form = panel.getByRole('form', { name: 'Edit contact' });
    await expect(form.getByLabel('Name')).toBeFocused();
    await page.keyboard.press('Control+a');
    await page.keyboard.type(name);
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Email')).toBeFocused();
    await page.keyboard.press('Control+a');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('+447700900123');
    await form.getByLabel('New attribute').fill('tier');
    await form.getByLabel('Value', { exact: true }).fill('gold');
    await form.getByLabel('Value', { exact: true }).press('Enter');
    await expect(form).toBeHidden();

    // At once on screen, and said to be waiting for the service.
    await expect(panel.locator('header h2')).toHaveText(name);
    await expect(panel.getByText(email)).toBeVisible();
    await expect(panel.getByText('+447700900123')).toBeVisible();
    await expect(panel.getByRole('definition').filter({ hasText: 'gold' })).toBeVisible();
    await expect(page.getByTestId('contact-saving')).toContainText('Saving 1 change');

    // A label of the contact's own, and a note for the team.
    await panel.getByRole('button', { name: 'Change labels' }).click();
    const labels = panel.getByRole('form', { name: 'Change contact labels' });
    await labels.getByLabel('New label').fill('vip-offline');
    await labels.getByLabel('New label').press('Enter');
    await expect(panel.locator('.chip.label', { hasText: 'vip-offline' })).toBeVisible();
    const note = `Prefers email, asked twice about the refund (${stamp})`;
    await panel.getByLabel('Note about this contact (only your team sees it)').fill(note);
    await panel.getByRole('button', { name: 'Add note' }).click();
    await expect(panel.getByTestId('contact-note').filter({ hasText: note })).toContainText('Saving…');
    await page.screenshot({ path: screenshotPath('94-contact-edited-offline') });

    // Back on the same port: everything lands, once.
    await service.restart();
    await expect(inbox.liveIndicator()).toHaveAttribute('data-state', 'connected', { timeout: 30_000 });
    await expect(page.getByTestId('contact-saving')).toHaveCount(0, { timeout: 30_000 });
    await expect(panel.getByTestId('contact-note').filter({ hasText: note })).not.toContainText('Saving…', { timeout: 30_000 });
    await expect(panel.getByTestId('contact-note').filter({ hasText: note })).toContainText('Sam Patel');
    const after = (await fromService<{ payload: ServiceContact }>(creds, `/contacts/${contactId}`)).payload;
    expect(after).toMatchObject({ name, email, phone_number: '+447700900123', custom_attributes: { ...before.payload.custom_attributes, tier: 'gold' } });
    expect((await fromService<{ payload: string[] }>(creds, `/contacts/${contactId}/labels`)).payload).toContain('vip-offline');
    const notes = await fromService<{ content: string }[]>(creds, `/contacts/${contactId}/notes`);
    expect(notes.filter((n) => n.content === note)).toHaveLength(1);
    await expect(panel.locator('header h2')).toHaveText(name);
    await page.screenshot({ path: screenshotPath('95-contact-landed') });

    // A phone number the service refuses: said beside the field, in the service's words; Discard puts the saved one back.
    await page.keyboard.press('Shift+I');
    await expect(form.getByLabel('Name')).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(form.getByLabel('Phone')).toBeFocused();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('0770 0900');
    await page.keyboard.press('Enter');
    const refused = panel.getByTestId('contact-field-error');
    await expect(refused).toContainText(/Not saved: .*e164/i, { timeout: 20_000 });
    await page.screenshot({ path: screenshotPath('96-contact-refused') });
    await expectAccessible(page, 'the contact panel with a refused change');
    await refused.getByRole('button', { name: 'Discard' }).click();
    await expect(panel.getByTestId('contact-field-error')).toHaveCount(0);
    await expect(panel.getByText('+447700900123')).toBeVisible();
    expect((await fromService<{ payload: ServiceContact }>(creds, `/contacts/${contactId}`)).payload.phone_number).toBe('+447700900123');

    // The note is deleted: gone from the panel, and from the service.
    await panel.getByTestId('contact-note').filter({ hasText: note }).getByRole('button', { name: 'Delete' }).click();
    await expect(panel.getByTestId('contact-note').filter({ hasText: note })).toHaveCount(0, { timeout: 20_000 });
    await expect.poll(async () => (await fromService<{ content: string }[]>(creds, `/contacts/${contactId}/notes`)).filter((n) => n.content === note).length, { timeout: 20_000 }).toBe(0);
  } finally {
    await host.close();
    await service.stop();
  }
});
