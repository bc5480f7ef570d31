// End-to-end fixtures: the real service CLI (`--demo`, in-memory SQLite) as a child process, and
// web mode's host (the same main core as Electron) serving the built renderer to Chromium.
import { test as base } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runWebMode } from '../../main/web/cli';
import type { WebHost } from '../../main/web/host';
import { startService } from '../../scripts/lib/service-process';
import type { DemoCredentialsFile, RunningService } from '../../scripts/lib/service-process';

export interface Stack {
  service: RunningService;
  creds: DemoCredentialsFile;
  host: WebHost;
}

export const test = base.extend<{ stack: Stack }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  stack: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'e2e-'));
    const service = await startService({ db: ':memory:', demo: true, credentialsOut: join(dir, 'credentials.json'), quiet: true });
    const host = await runWebMode({ staticDir: resolve(import.meta.dirname, '../../dist/renderer') });
    await use({ service, creds: service.credentials!, host });
    await host.close();
    await service.stop();
  },
});

export { expect } from '@playwright/test';

export const screenshotPath = (name: string) => resolve(import.meta.dirname, '../../test-results/screens', `${name}.png`);
