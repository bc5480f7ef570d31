import type { Page } from '@playwright/test';

export class SignInPage {
  constructor(private readonly page: Page) {}

  heading = () => this.page.getByRole('heading', { name: /sign in to your inbox/i });
  error = () => this.page.getByRole('alert');

  async signIn(baseUrl: string, token: string) {
    await this.page.getByLabel('Service address').fill(baseUrl);
    await this.page.getByLabel('Access token').fill(token);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }
}
