// A contact writes in through the Client API with a right-to-left override in its name, its
// attributes and its message (outside security review, finding 2). In Chromium the app shows each
// hidden character as a token where it sits, in its own direction-isolated run, so nothing reads
// "Invoiceexe.pdf"; the window title is untouched. Screenshot: test-results/screens/untrusted-text.png.
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';
import { expect, screenshotPath, test } from './fixtures';

const RLO_NAME = 'Invoice\u202Efdp.exe';
const SHOWN = 'Invoice⟨U+202E⟩fdp.exe';

test('bidi overrides and invisible characters from a contact show as what they are: list, header, contact panel, message', async ({ page, stack }) => {
  const { baseUrl, apiInboxIdentifier } = stack.creds;
  const post = async <T,>(path: string, body: unknown) => {
    const res = await fetch(`${baseUrl}/public/api/v1/inboxes/${apiInboxIdentifier}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  const contact = await post<{ source_id: string }>('/contacts', {
    name: RLO_NAME,
    email: 'invoices@contact.example',
    custom_attributes: { 'file\u202Etxt.exe': RLO_NAME, plan: 'pro\u200B \u2066admin\u2069', city: 'Tel Aviv תל אביב' },
  });
  const conversation = await post<{ id: number }>(`/contacts/${contact.source_id}/conversations`, {});
  await post(`/contacts/${contact.source_id}/conversations/${conversation.id}/messages`, {
    content: `Please open ${RLO_NAME} today.\n\nمرحبا، الفاتورة مرفقة. Family 👨\u200D👩\u200D👧\n\n\`/*\u202E } \u2066if (isAdmin)\u2069 \u2066 begin admins only */\``,
  });

  const inbox = new InboxPage(page);
  await page.goto(stack.host.url);
  await new SignInPage(page).signIn(baseUrl, stack.creds.adminToken);
  await inbox.tab('All').click();
  const row = inbox.list().locator(`[data-conversation-id="${conversation.id}"]`);
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(row.locator('.contact')).toHaveText(SHOWN);
  // The token sits between the two halves on screen too: nothing was reordered.
  const order = await row.locator('.contact bdi').evaluate((bdi) => {
    const range = document.createRange();
    const boxes = [...bdi.childNodes].map((n) => {
      range.selectNodeContents(n);
      const r = range.getBoundingClientRect();
      return { text: n.textContent, left: Math.round(r.left) };
    });
    return boxes.sort((a, b) => a.left - b.left).map((b) => b.text);
  });
  expect(order).toEqual(['Invoice', '⟨U+202E⟩', 'fdp.exe']);

  await row.click();
  await expect(inbox.conversationHeading()).toHaveText(SHOWN);
  await expect(page.getByRole('region', { name: `Conversation with ${SHOWN}` })).toBeVisible();
  await expect(inbox.messages().last()).toContainText(`Please open ${SHOWN} today.`);
  await expect(inbox.messages().last()).toContainText('مرحبا، الفاتورة مرفقة');
  await expect(inbox.messages().last().locator('code')).toHaveText('/*⟨U+202E⟩ } ⟨U+2066⟩if (isAdmin)⟨U+2069⟩ ⟨U+2066⟩ begin admins only */');
  await expect(inbox.messages().last().getByRole('img', { name: 'hidden character: right-to-left override (U+202E)' }).first()).toBeVisible();

  // The panel opens beside the conversation by default; the toggle says whether it is open.
  const toggle = page.getByRole('button', { name: 'Contact', exact: true });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const panel = page.getByRole('complementary', { name: 'Contact details' });
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText(SHOWN);
  await expect(panel).toContainText('file⟨U+202E⟩txt.exe');
  await expect(panel).toContainText('pro⟨U+200B⟩ ⟨U+2066⟩admin⟨U+2069⟩');
  await expect(panel).toContainText('Tel Aviv תל אביב');

  // No raw override anywhere the agent reads, and the title is the app's (with the unread count).
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B\u061C]/);
  // The app's name, after the unread count when there is one ("(3) Agent Inbox", issue 13).
  expect(await page.title()).toMatch(/^(\(\d+\+?\) )?Agent Inbox$/);
  await page.screenshot({ path: screenshotPath('untrusted-text') });
});
