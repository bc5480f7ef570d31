import type { Page } from '@playwright/test';

/** The dialogs over the inbox: re-sign-in after expiry, and the weak-storage question. */
export class SessionDialogs {
  constructor(private readonly page: Page) {}

  expired = () => this.page.getByRole('dialog', { name: 'Your session expired' });
  tokenNeeded = () => this.page.getByRole('dialog', { name: 'Enter your access token' });
  consent = () => this.page.getByRole('alertdialog', { name: 'Keep your access token on this computer?' });

  async signInAgain(token: string) {
    const dialog = this.page.getByRole('dialog');
    await dialog.getByLabel('Access token').fill(token);
    await dialog.getByRole('button', { name: 'Sign in' }).click();
  }
  chooseEachLaunch = () => this.consent().getByRole('button', { name: 'Enter it each launch' }).click();
  chooseWeakStorage = () => this.consent().getByRole('button', { name: 'Keep it with weak protection' }).click();
}
