// The real desktop app, where an Electron binary exists: it opens its window on app://inbox,
// locked down (no Node in the page, only the bridge exposed; the window options themselves are
// checked in tests/unit/electron-glue.test.ts), refuses
// navigation, and signs in through IPC to the demo service. Where no binary exists (here, CI with
// ELECTRON_SKIP_BINARY_DOWNLOAD=1), it is skipped and the reason is printed in the test summary.
import { _electron as electron } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildElectron } from '../../scripts/lib/build';
import { electronBinary } from '../../scripts/lib/electron-binary';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';
import { expect, rendererDir, test } from './fixtures';

const binary = electronBinary();
// File level, so no fixture starts for nothing; the runner prints this reason in its summary.
test.skip(!('path' in binary), `Electron smoke test skipped: ${'reason' in binary ? binary.reason : ''}`);

test('Electron smoke: the locked-down window signs in through IPC', async ({ liveDemo }) => {
  if (!('path' in binary)) return;
  await buildElectron();
  const app = await electron.launch({
    executablePath: binary.path,
    args: [resolve(import.meta.dirname, '../../dist/main/electron-main.cjs')],
    env: { ...process.env, AGENT_INBOX_USER_DATA: mkdtempSync(join(tmpdir(), 'electron-user-data-')), AGENT_INBOX_RENDERER: rendererDir },
  });
  try {
    const page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
    expect(page.url()).toBe('app://inbox/index.html');

    // No Node in the page; the bridge (call, on) is all the preload exposes.
    expect(await page.evaluate(() => [typeof (globalThis as { require?: unknown }).require, typeof (globalThis as { process?: unknown }).process])).toEqual(['undefined', 'undefined']);
    expect(await page.evaluate(() => Object.keys((window as unknown as { inboxBridge: object }).inboxBridge).sort())).toEqual(['call', 'on']);
    // Navigation away and script URLs in new windows are refused.
    await page.evaluate(() => {
      location.href = 'https://example.com/';
    });
    // A bridge round trip later the page is still ours (a navigation would have replaced it).
    expect(await page.evaluate(() => (window as unknown as { inboxBridge: { call(n: string, i: object): Promise<{ ok: boolean }> } }).inboxBridge.call('session.get', {}).then((r) => r.ok))).toBe(true);
    expect(page.url()).toBe('app://inbox/index.html');
    expect(await page.evaluate(() => window.open('javascript:alert(1)') === null)).toBe(true);

    const signIn = new SignInPage(page);
    await signIn.signIn(liveDemo.baseUrl, liveDemo.creds.agentToken);
    await expect(new InboxPage(page).rows().first()).toBeVisible();
  } finally {
    await app.close();
  }
});
