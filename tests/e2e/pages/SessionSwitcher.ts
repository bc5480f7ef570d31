import type { Page } from '@playwright/test';

/** The header's account control (a disclosure button and its panel). */
export class SessionSwitcher {
  constructor(private readonly page: Page) {}

  toggle = () => this.page.getByRole('button', { name: /^Accounts: signed in to/ });
  panel = () => this.page.getByRole('group', { name: 'Accounts' });
  switchTargets = () => this.panel().getByRole('button', { name: /^Switch to/ });

  async open() {
    if ((await this.toggle().getAttribute('aria-expanded')) !== 'true') await this.toggle().click();
  }
  async switchTo(accountName: string) {
    await this.open();
    await this.panel().getByRole('button', { name: new RegExp(`^Switch to ${accountName}`) }).click();
  }
  async addAccount() {
    await this.open();
    await this.panel().getByRole('button', { name: 'Add an account…' }).click();
  }
  async signOut() {
    await this.open();
    await this.panel().getByRole('button', { name: /^Sign out of/ }).click();
  }
}
