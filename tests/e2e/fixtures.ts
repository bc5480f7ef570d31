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
import { startListeningDemo } from '../support/listening-demo-service';
import type { ListeningDemo } from '../support/listening-demo-service';

export interface Stack {
  service: RunningService;
  creds: DemoCredentialsFile;
  host: WebHost;
}

type WebModeHost = Awaited<ReturnType<typeof runWebMode>>;

export const rendererDir = resolve(import.meta.dirname, '../../dist/renderer');

export const test = base.extend<{
  /** Seed the stack's demo as of this time (epoch ms) instead of now: `test.use({ demoAt })`. */
  demoAt: number | undefined;
  stack: Stack;
  /** The demo service in this process (its database at hand), for sessions tests. */
  liveDemo: ListeningDemo;
  /** Starts web mode (closed after the test); `dataDir` keeps tokens and saved sessions on disk. */
  webMode: (opts?: { dataDir?: string }) => Promise<WebModeHost>;
}>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  liveDemo: async ({}, use) => {
    const demo = await startListeningDemo();
    await use(demo);
    await demo.close();
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  webMode: async ({}, use) => {
    const hosts: WebModeHost[] = [];
    await use(async (opts = {}) => {
      const host = await runWebMode({ staticDir: rendererDir, ...opts });
      hosts.push(host);
      return host;
    });
    for (const h of hosts) await h.close();
  },
  demoAt: [undefined, { option: true }],
  stack: async ({ demoAt }, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'e2e-'));
    const service = await startService({ db: ':memory:', demo: true, ...(demoAt === undefined ? {} : { demoAt }), credentialsOut: join(dir, 'credentials.json'), quiet: true });
    const host = await runWebMode({ staticDir: rendererDir });
    await use({ service, creds: service.credentials!, host });
    await host.close();
    await service.stop();
  },
});

export { expect } from '@playwright/test';

export const screenshotPath = (name: string) => resolve(import.meta.dirname, '../../test-results/screens', `${name}.png`);
