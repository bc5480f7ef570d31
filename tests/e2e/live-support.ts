// Helpers for the live-update end-to-end tests: a contact's own Client API calls, and the
// conversation to open, read from the service's database file.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { runWebMode } from '../../main/web/cli';
import { startService } from '../../scripts/lib/service-process';
import type { DemoCredentialsFile, RunningService } from '../../scripts/lib/service-process';
import type { ContactRef } from '../support/client-api';
import { contactClient } from '../support/client-api';
import { expect, rendererDir } from './fixtures';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';

export type Contact = ContactRef;

/** The public Client API, as a contact's own client would call it (no agent credentials). */
export const clientApi = (baseUrl: string, creds: DemoCredentialsFile) => contactClient(baseUrl, creds.apiInboxIdentifier);

/**
 * The demo service CLI on a database file of its own (`name` names the folder), so a test can read
 * that file, and stop the service and start it again on the same port (`restart`).
 */
export async function demoServiceOnFile(name: string) {
  const dir = mkdtempSync(join(tmpdir(), `e2e-${name}-`));
  const dbFile = join(dir, 'service.sqlite');
  const first: RunningService = await startService({ db: dbFile, demo: true, credentialsOut: join(dir, 'credentials.json'), quiet: true });
  const creds = first.credentials!;
  const port = Number(new URL(creds.baseUrl).port);
  let current = first;
  return {
    dbFile,
    creds,
    stop: () => current.stop(),
    /** The service again, on the same port and file (after `stop`). */
    restart: async () => void (current = await startService({ db: dbFile, port, quiet: true })),
  };
}

/** One read of the service's database file (read-only, closed after). */
export function readServiceDb<T>(dbFile: string, read: (db: Database.Database) => T): T {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/**
 * The demo service CLI on a database file (so it can stop and start again on the same port with
 * the same data, and the test can read that file), and web mode's host. The caller closes both.
 */
export async function fileBackedStack(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const dbFile = join(dir, 'service.sqlite');
  const service = await startService({ db: dbFile, demo: true, credentialsOut: join(dir, 'credentials.json'), quiet: true });
  const creds = service.credentials!;
  const host = await runWebMode({ staticDir: rendererDir });
  return { dbFile, service, creds, port: Number(new URL(creds.baseUrl).port), host };
}

/**
 * The open conversation of the API inbox with the oldest activity, and its contact's source id
 * (what the Client API needs), read from the service's database file. Its row starts at the
 * bottom of the list, so moving to the top is a visible change.
 */
export function oldestApiConversation(dbFile: string, creds: DemoCredentialsFile): { id: number; contact: Contact } {
  const row = readServiceDb(dbFile, (db) =>
    db
      .prepare(
        `SELECT c.display_id AS id, ci.source_id FROM conversations c JOIN contact_inboxes ci ON ci.id = c.contact_inbox_id
         WHERE c.account_id = ? AND c.inbox_id = ? AND c.status = 'open' ORDER BY c.last_activity_at ASC LIMIT 1`,
      )
      .get(creds.accountId, creds.apiInboxId),
  ) as { id: number; source_id: string };
  return { id: row.id, contact: { source_id: row.source_id } };
}

/**
 * Signs the agent in at the web host, waits for Live, shows All, and opens the API conversation
 * with the oldest activity (by number, from the palette): its row starts at the bottom of the
 * list, so moving to the top is a visible change.
 */
export async function openOldestConversationLive(page: Page, hostUrl: string, creds: DemoCredentialsFile, dbFile: string) {
  const inbox = new InboxPage(page);
  await page.goto(hostUrl);
  await new SignInPage(page).signIn(creds.baseUrl, creds.agentToken);
  await expect(inbox.liveIndicator()).toContainText('Live');
  await inbox.tab('All').click();
  await inbox.settledCount();
  const { id, contact } = oldestApiConversation(dbFile, creds);
  await inbox.runCommand(`#${id}`);
  await expect(inbox.messages().first()).toBeVisible();
  return { inbox, conversationId: id, contact, row: (n: number) => inbox.list().locator(`#conversation-row-${n}`) };
}
