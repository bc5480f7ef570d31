import type { Page } from '@playwright/test';

export class SignInPage {
  constructor(private readonly page: Page) {}

  heading = () => this.page.getByRole('heading', { name: /sign in to your inbox/i });
  addAccountHeading = () => this.page.getByRole('heading', { name: 'Add an account' });
  error = () => this.page.getByRole('alert');
  savedAccounts = () => this.page.getByRole('region', { name: 'Saved accounts' });
  accountPicker = () => this.page.getByRole('heading', { name: 'Choose an account' });
  accountChoices = () => this.page.getByRole('group', { name: 'Account' }).getByRole('radio');

  async signIn(baseUrl: string, token: string) {
    await this.page.getByLabel('Service address').fill(baseUrl);
    await this.page.getByLabel('Access token').fill(token);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }

  async chooseAccount(name: string) {
    await this.page.getByRole('radio', { name: new RegExp(name) }).check();
    await this.page.getByRole('button', { name: 'Continue' }).click();
  }

  async openSaved(accountName: string) {
    await this.savedAccounts().getByRole('button', { name: new RegExp(accountName) }).click();
  }
}
