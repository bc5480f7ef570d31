// npm run bench:notify (also part of npm run bench) — a contact's message to the agent's notification: the message is sent
// through the public Client API (the clock read just before the request), and the time is when
// the page made the notification (the browser's Notification API, captured; both clocks are this
// machine's). Web mode in Chromium against the demo service on loopback, the window without the
// agent's attention. Each message opens a conversation of its own (so none is folded into an
// earlier one), at most 60 a minute (the agent's cap raised for the run). Then the same in one
// conversation whose cached history is long (`long.messages` messages written into the cache, all
// from the contact: the agent never took part, so nothing cut a walk of its history short).
// Prints p50/p95/max; asserts nothing.
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

/** The inbox up: its live connection made and its list shown. */
async function inboxUp(page: Page) {
  await page.locator('.live-indicator[data-state="connected"]').waitFor({ timeout: 30_000 });
  await page.getByRole('listbox', { name: /conversations,/ }).waitFor({ timeout: 30_000 });
}

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

/**
 * `count` older messages of conversation `id`, from its contact, written straight into the page's
 * cache. Their ids are far above the service's, so none stands for a message it has.
 */
async function seedHistory(page: Page, id: number, count: number) {
  await page.evaluate(
    async ({ id, count }) => {
      const name = (await indexedDB.databases()).map((d) => d.name ?? '').find((n) => n.startsWith('inbox:'))!;
      const now = Math.floor(Date.now() / 1000);
      await new Promise<void>((done, fail) => {
        const open = indexedDB.open(name);
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('messages', 'readwrite');
          const store = tx.objectStore('messages');
          for (let i = 0; i < count; i++) {
            store.put({
              id: 1_000_000_000 + i, content: `An older message, number ${i}, about the order and its delivery.`, inbox_id: 1, conversation_id: id, message_type: 0, content_type: 'text',
              status: 'sent', content_attributes: {}, created_at: now - 86_400 - (count - i) * 60, private: false, source_id: null, attachments: [],
              sender: { id: 900_000, name: 'Bench Long', type: 'contact' },
            });
          }
          tx.oncomplete = () => (open.result.close(), done());
          tx.onerror = () => fail(tx.error);
        };
      });
    },
    { id, count },
  );
}

/** From the write (Node's clock, just before the request) to the notification the page made. */
async function notified(page: Page, write: () => Promise<unknown>): Promise<number> {
  const before = await shownCount(page);
  const sentAt = Date.now();
  await write();
  await page.waitForFunction((n) => (window as unknown as { __shown: unknown[] }).__shown.length > n, before, { timeout: 10_000 });
  const made = await page.evaluate((n) => (window as unknown as { __shown: CapturedNotification[] }).__shown[n]!.at, before);
  return made - sentAt;
}

const summary = (latencies: number[]) => ({ p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95), maxMs: Math.max(...latencies), minMs: Math.min(...latencies) });

export async function measureNotifyLatency(runs = RUNS, long = { messages: 10_000, runs: 20 }) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-notify-'));
  const service = await startService({ db: ':memory:', demo: true, credentialsOut: join(dir, 'credentials.json'), quiet: true });
  const creds = service.credentials!;
  const host = await runWebMode({ staticDir: join(root, 'dist/renderer'), signIn: { baseUrl: creds.baseUrl, accessToken: creds.agentToken } });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(notificationCapture(false));
    await page.goto(host.url);
    await inboxUp(page);
    await benchSettings(page);
    const client = contactClient(creds.baseUrl, creds.apiInboxIdentifier);
    const people = [];
    for (let i = 0; i < runs; i++) people.push(await client.start(`Bench Contact ${i}`));
    // Conversation creation notifies nothing by itself; let its events settle.
    await page.waitForTimeout(1_000);
    const latencies: number[] = [];
    const startedAt = Date.now();
    for (const [i, person] of people.entries()) latencies.push(await notified(page, () => person.write(`bench message ${i}`)));
    // The long one: its history written into the cache, then its messages (the first notified unmeasured).
    const longOne = await client.start('Bench Long');
    await seedHistory(page, longOne.conversation, long.messages);
    // Then the app opened again, as an agent's opens on a cache that holds the history: written
    // behind the app's back, the history was news to nothing in the running page (what the
    // notification center kept of that conversation when it was made said it was empty).
    await page.reload();
    await inboxUp(page);
    // The cap counts the last minute's notifications (at most 60): a long series that would pass it
    // starts in a new minute.
    await page.waitForTimeout(runs + 1 + long.runs > 60 ? Math.max(1_000, startedAt + 61_000 - Date.now()) : 1_000);
    // The first reads the whole history (nothing kept of it yet); printed, not in the figure.
    const first = await notified(page, () => longOne.write('the first of many'));
    const inLong: number[] = [];
    for (let i = 0; i < long.runs; i++) inLong.push(await notified(page, () => longOne.write(`bench message ${i} in a long conversation`)));
    return { runs, ...summary(latencies), long: { ...long, first, latencies: inLong, ...summary(inLong) } };
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
  console.log(`  in a conversation of ${r.long.messages} cached messages, ${r.long.runs} messages: p50 ${r.long.p50Ms} ms, p95 ${r.long.p95Ms} ms (min ${r.long.minMs}, max ${r.long.maxMs})`);
  const out = join(root, 'test-results/bench');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'notify.json'), JSON.stringify(r, null, 2));
}
