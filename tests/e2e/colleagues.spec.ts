// Colleagues end to end (issue 11): two agents, each in their own web-mode window against the real
// service CLI. Sam has a conversation open; Alex (a colleague) opens it too: Sam's header says so
// (the service's presence extension), the assign picker shows who is online, and Alex's typing
// reaches Sam as "Alex Rivera is replying…", apart from the contact's own "is typing…", in the
// thread and on the list row. Alex sends, moves on, and Sam's screen follows. Keyboard only.
import { runWebMode } from '../../main/web/cli';
import { expectAccessible } from './a11y';
import { demoServiceOnFile, openOldestConversationLive, readServiceDb } from './live-support';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';
import { TriagePage } from './pages/TriagePage';
import { expect, rendererDir, screenshotPath, test } from './fixtures';

test("a colleague's typing and presence", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const service = await demoServiceOnFile('colleagues');
  const { creds, dbFile } = service;
  const samHost = await runWebMode({ staticDir: rendererDir });
  const alexHost = await runWebMode({ staticDir: rendererDir });
  const alexContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    // Sam opens a conversation of the API inbox.
    const { conversationId, contact, row } = await openOldestConversationLive(page, samHost.url, creds, dbFile);
    const contactName = readServiceDb(dbFile, (db) => db.prepare('SELECT ct.name FROM conversations c JOIN contacts ct ON ct.id = c.contact_id WHERE c.display_id = ?').get(conversationId) as { name: string }).name;
    const header = page.locator('section.conversation .pane-header');
    await expect(page.getByTestId('also-viewing')).toHaveCount(0);

    // Alex, in a window of their own, opens the same one.
    const alexPage = await alexContext.newPage();
    const alex = new InboxPage(alexPage);
    await alexPage.goto(alexHost.url);
    await new SignInPage(alexPage).signIn(creds.baseUrl, creds.adminToken);
    await expect(alex.liveIndicator()).toContainText('Live');
    await alex.settledCount();
    await alex.runCommand(`#${conversationId}`);
    await expect(alex.messages().first()).toBeVisible();

    // Sam sees who else has it open.
    await expect(header.getByTestId('also-viewing')).toHaveText('Also viewing: Alex Rivera');
    await page.screenshot({ path: screenshotPath('90-colleague-viewing') });

    // The assign picker (a) shows each colleague's availability in words: Alex is online, Jordan is not.
    const triage = new TriagePage(page);
    await triage.open('a', 'Assign to');
    const option = (name: string) => triage.pickerOptions('Assign to').filter({ hasText: name });
    await expect(option('Alex Rivera').locator('.availability')).toHaveText('Online');
    await expect(option('Jordan Lee').locator('.availability')).toHaveText('Offline');
    await page.screenshot({ path: screenshotPath('91-assign-availability') });
    await expectAccessible(page, 'the assign picker with availability');
    // Assigned to Alex: the header shows the assignee's availability too.
    await triage.choose('Assign to', 'Alex', 'Alex Rivera');
    await expect(triage.assignee()).toContainText('Alex Rivera');
    await expect(page.getByTestId('assignee-availability')).toHaveText('Online');
    await triage.settled();

    // Alex starts a reply (r, then typing): Sam sees it as a colleague's, in the thread and on the row.
    await alexPage.keyboard.press('r');
    await expect(alex.composer()).toBeFocused();
    await alexPage.keyboard.type('Hi, I am looking into this', { delay: 20 });
    const colleague = page.getByTestId('typing-colleague');
    await expect(colleague).toHaveText('Alex Rivera is replying…');
    await expect(row(conversationId).getByTestId('row-typing')).toHaveText('Alex Rivera is replying…');

    // The contact types as well: shown apart, in the contact's own words.
    const typing = async (on: boolean) => {
      const res = await fetch(`${creds.baseUrl}/public/api/v1/inboxes/${creds.apiInboxIdentifier}/contacts/${contact.source_id}/conversations/${conversationId}/toggle_typing`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ typing_status: on ? 'on' : 'off' }),
      });
      expect(res.status).toBe(200);
    };
    await typing(true);
    await expect(page.getByTestId('typing-contact')).toHaveText(`${contactName} is typing…`);
    await expect(colleague).toHaveText('Alex Rivera is replying…');
    await page.screenshot({ path: screenshotPath('92-colleague-and-contact-typing') });
    await expectAccessible(page, 'the conversation with a colleague and the contact typing');
    await typing(false);
    await expect(page.getByTestId('typing-contact')).toHaveCount(0);

    // Alex sends (Ctrl+Enter): the reply arrives and "replying" ends at once.
    await alexPage.keyboard.press('Control+Enter');
    await expect(page.getByRole('log', { name: 'Messages' }).locator('article').last()).toContainText('Hi, I am looking into this');
    await expect(colleague).toHaveCount(0);
    await expect(row(conversationId).getByTestId('row-typing')).toHaveCount(0);

    // Alex moves on to another conversation (from the palette): nobody else has Sam's open now.
    await alexPage.keyboard.press('Escape');
    const other = readServiceDb(dbFile, (db) => db.prepare('SELECT display_id AS id FROM conversations WHERE display_id != ? ORDER BY display_id LIMIT 1').get(conversationId) as { id: number }).id;
    await alex.runCommand(`#${other}`);
    await expect(alexPage.locator('section.conversation .pane-header')).toContainText(`#${other}`);
    await expect(header.getByTestId('also-viewing')).toHaveCount(0);
    await page.screenshot({ path: screenshotPath('93-colleague-left') });
  } finally {
    await alexContext.close();
    await alexHost.close();
    await samHost.close();
    await service.stop();
  }
});
