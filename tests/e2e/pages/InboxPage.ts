import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';

export type TabName = 'Mine' | 'Unassigned' | 'All';

/** The inbox frame and the conversation list. */
export class InboxPage {
  constructor(readonly page: Page) {}

  list = () => this.page.getByRole('listbox', { name: /conversations,/ });
  rows = () => this.list().getByRole('option');
  activeRow = () => this.list().locator('[role="option"][aria-selected="true"]');
  listStatus = () => this.page.locator('.conversation-list .list-status');
  tab = (name: TabName) => this.page.getByRole('tab', { name: new RegExp(`^${name}`) });
  tabCount = (name: TabName) => this.tab(name).locator('.count');
  filter = (label: 'Status' | 'Inbox' | 'Team' | 'Label' | 'Sort') => this.page.getByRole('combobox', { name: label, exact: true });
  messageLog = () => this.page.getByRole('log', { name: 'Messages' });
  messages = () => this.messageLog().locator('article');
  offlineBanner = () => this.page.getByRole('status').filter({ hasText: 'Offline: showing what was saved' }).first();
  /** The header's live-update indicator (Live, Connecting…, Offline). */
  liveIndicator = () => this.page.locator('.live-indicator');
  typingIndicator = () => this.page.locator('.typing-indicator');
  conversationHeading = () => this.page.locator('section.conversation h2');
  searchField = () => this.page.getByRole('searchbox', { name: /Search conversations/ });
  searchResults = () => this.page.getByRole('navigation', { name: 'Search results' });
  palette = () => this.page.getByRole('dialog', { name: 'Command palette' });
  shortcutsSheet = () => this.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  composer = () => this.page.getByRole('combobox', { name: /Reply to the contact|Private note for your team/ });

  /** Waits until the list has synced, then answers how many conversations it holds. */
  async settledCount(): Promise<number> {
    await expect(this.listStatus()).not.toContainText('syncing', { timeout: 20_000 });
    await expect(this.listStatus()).toContainText(/\d+ conversation/);
    return Number(/(\d+) conversation/.exec((await this.listStatus().textContent()) ?? '')?.[1]);
  }

  async openConversation(index: number) {
    const row = this.rows().nth(index);
    const contact = (await row.locator('.contact').textContent()) ?? '';
    await row.click();
    return contact;
  }

  /** Runs a command through the palette (Ctrl+K), picking the first match for `query`. */
  async runCommand(query: string, expectFirst?: string | RegExp) {
    await this.page.keyboard.press('Control+k');
    await expect(this.palette()).toBeVisible();
    await this.page.keyboard.type(query);
    if (expectFirst) await expect(this.palette().getByRole('option').first()).toContainText(expectFirst);
    await this.page.keyboard.press('Enter');
    await expect(this.palette()).toBeHidden();
  }
}

/** Names of the IndexedDB databases the page's origin holds. */
export const indexedDbNames = (page: Page) => page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''));
