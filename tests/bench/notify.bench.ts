// npm run bench:notify (also part of npm run bench) — a contact's message to the agent's notification: the message is sent
// through the public Client API (the clock read just before the request), and the time is when
// the page made the notification (the browser's Notification API, captured; both clocks are this
// machine's). Web mode in Chromium against the demo service on loopback, the window without the
// agent's attention. Each message opens a conversation of its own (so none is folded into an
// earlier one), at most 60 a minute (the agent's cap raised for the run). Prints p50/p95/max;
// asserts nothing.
import { chromium } from '@playwright/test';
import type { Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runWebMode } from '../../main/web/cli';
import { chromiumArgs, chromiumPath } from '../../playwright.config';
import { percentile } from '../../scripts/bench/figures';
import { startService } from '../../scripts/lib/service-process';
import { contactClient } from '../support/client-api';
import type { CapturedNotification } from '../support/notification-capture';
import { notificationCapture } from '../support/notification-capture';

const RUNS = 40;
const root = resolve(import.meta.dirname, '../..');

const shownCount = (page: Page) => page.evaluate(() => (window as unknown as { __shown: CapturedNotification[] }).__shown.length);

/** The agent's settings for the run: no folding, the highest cap. */
async function benchSettings(page: Page) {
  await page.evaluate(async () => {
    const name = (await indexedDB.databases()).map((d) => d.name ?? '').find((n) => n.startsWith('inbox:'))!;
    await new Promise<void>((done, fail) => {
      const open = indexedDB.open(name);
      open.onerror = () => fail(open.error);
      open.onsuccess = () => {
        const tx = open.result.transaction('settings', 'readwrite');
        tx.objectStore('settings').put({ key: 'notifications', value: { perMinute: 60, coalesceSeconds: 0 } });
        tx.oncomplete = () => (open.result.close(), done());
      };
    });
  });
}

export async function measureNotifyLatency(runs = RUNS) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-notify-'));
  const service = await startService({ db: ':memory:', demo: true, credentialsOut: join(dir, 'credentials.json'), quiet: true });
  const creds = service.credentials!;
  const host = await runWebMode({ staticDir: join(root, 'dist/renderer'), signIn: { baseUrl: creds.baseUrl, accessToken: creds.agentToken } });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(notificationCapture(false));
    await page.goto(host.url);
    await page.locator('.live-indicator[data-state="connected"]').waitFor({ timeout: 30_000 });
    await page.getByRole('listbox', { name: /conversations,/ }).waitFor({ timeout: 30_000 });
    await benchSettings(page);
    const client = contactClient(creds.baseUrl, creds.apiInboxIdentifier);
    const people = [];
    for (let i = 0; i < runs; i++) people.push(await client.start(`Bench Contact ${i}`));
    // Conversation creation notifies nothing by itself; let its events settle.
    await page.waitForTimeout(1_000);
    const latencies: number[] = [];
    for (const [i, person] of people.entries()) {
      const before = await shownCount(page);
      const sentAt = Date.now();
      await person.write(`bench message ${i}`);
      await page.waitForFunction((n) => (window as unknown as { __shown: unknown[] }).__shown.length > n, before, { timeout: 10_000 });
      const made = await page.evaluate((n) => (window as unknown as { __shown: CapturedNotification[] }).__shown[n]!.at, before);
      latencies.push(made - sentAt);
    }
    return { runs, p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95), maxMs: Math.max(...latencies), minMs: Math.min(...latencies) };
  } finally {
    await browser.close();
    await host.close();
    await service.stop();
  }
}

const isEntry = process.argv[1] && resolve(process.argv[1]).endsWith('tests/bench/notify.bench.ts');
if (isEntry) {
  const r = await measureNotifyLatency();
  console.log(`\nNotification benchmark: contact message (Client API) → notification made in the page, web mode, loopback, ${r.runs} messages`);
  console.log(`  p50 ${r.p50Ms} ms, p95 ${r.p95Ms} ms (min ${r.minMs}, max ${r.maxMs})`);
  const out = join(root, 'test-results/bench');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'notify.json'), JSON.stringify(r, null, 2));
}
