import type { Page } from '@playwright/test';

export class InboxPage {
  constructor(private readonly page: Page) {}

  list = () => this.page.getByRole('listbox', { name: 'Open conversations' });
  rows = () => this.list().getByRole('option');
  messageLog = () => this.page.getByRole('log', { name: 'Messages' });
  messages = () => this.messageLog().locator('article');
  offlineBanner = () => this.page.getByRole('status').filter({ hasText: 'Offline' }).first();

  async openConversation(index: number) {
    const row = this.rows().nth(index);
    const contact = (await row.locator('.contact').textContent()) ?? '';
    await row.click();
    return contact;
  }
}

/** Names of the IndexedDB databases the page's origin holds. */
export const indexedDbNames = (page: Page) => page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''));
