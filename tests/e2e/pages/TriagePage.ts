import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';

export type PickerName = 'Assign to' | 'Move to team' | 'Labels' | 'Priority' | 'Snooze' | 'Snooze until a date and time';

/** Triage on the open conversation and the list: pickers, the bulk bar, message states. */
export class TriagePage {
  constructor(readonly page: Page) {}

  picker = (name: PickerName) => this.page.getByRole('dialog', { name, exact: true });
  pickerOptions = (name: PickerName) => this.picker(name).getByRole('option');
  bulkBar = () => this.page.getByRole('toolbar', { name: 'Bulk actions' });
  checkedRows = () => this.page.getByRole('listbox', { name: /conversations,/ }).locator('[role="option"][aria-checked="true"]');
  conversationStatus = () => this.page.getByTestId('conversation-status');
  snoozedUntil = () => this.page.getByTestId('snoozed-until');
  assignee = () => this.page.getByTestId('conversation-assignee');
  outboxStatus = () => this.page.getByTestId('outbox-status');
  /** The open conversation's number, from its header. */
  openId = async () => Number(((await this.page.locator('section.conversation .pane-header .muted').first().textContent()) ?? '').replace('#', ''));
  bubble = (text: string) => this.page.getByRole('log', { name: 'Messages' }).locator('article').filter({ hasText: text });
  /** The row the keyboard cursor is on. */
  activeRowId = async () => Number(await this.page.locator('#conversation-listbox [role="option"][aria-selected="true"]').getAttribute('data-conversation-id'));
  rowIds = () => this.page.locator('#conversation-listbox [role="option"]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-conversation-id'))));

  /** Presses a triage key and waits for its picker. */
  async open(key: string, name: PickerName) {
    await this.page.keyboard.press(key);
    await expect(this.picker(name)).toBeVisible();
  }

  /** Filters the open picker by typing and chooses the first match with Enter. */
  async choose(name: PickerName, filter: string, expectFirst: string | RegExp) {
    await this.page.keyboard.type(filter);
    await expect(this.pickerOptions(name).first()).toContainText(expectFirst);
    await this.page.keyboard.press('Enter');
    await expect(this.picker(name)).toBeHidden();
  }

  /** Waits until every queued change reached the service. */
  async settled() {
    await expect(this.outboxStatus()).toHaveText('', { timeout: 20_000 });
  }
}
