// Helpers for the live-update end-to-end tests: a contact's own Client API calls, and the
// conversation to open, read from the service's database file.
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import type { DemoCredentialsFile } from '../../scripts/lib/service-process';
import { expect } from './fixtures';
import { InboxPage } from './pages/InboxPage';
import { SignInPage } from './pages/SignInPage';

export interface Contact {
  source_id: string;
}

/** The public Client API, as a contact's own client would call it (no agent credentials). */
export const clientApi = (baseUrl: string, creds: DemoCredentialsFile) => {
  const at = (path: string) => `${baseUrl}/public/api/v1/inboxes/${creds.apiInboxIdentifier}${path}`;
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(at(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    contact: (name: string) => post<Contact>('/contacts', { name }),
    conversation: async (c: Contact) => (await post<{ id: number }>(`/contacts/${c.source_id}/conversations`, {})).id,
    write: (c: Contact, conversationId: number, content: string) => post(`/contacts/${c.source_id}/conversations/${conversationId}/messages`, { content }),
  };
};

/**
 * The open conversation of the API inbox with the oldest activity, and its contact's source id
 * (what the Client API needs), read from the service's database file. Its row starts at the
 * bottom of the list, so moving to the top is a visible change.
 */
export function oldestApiConversation(dbFile: string, creds: DemoCredentialsFile): { id: number; contact: Contact } {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare(
        `SELECT c.display_id AS id, ci.source_id FROM conversations c JOIN contact_inboxes ci ON ci.id = c.contact_inbox_id
         WHERE c.account_id = ? AND c.inbox_id = ? AND c.status = 'open' ORDER BY c.last_activity_at ASC LIMIT 1`,
      )
      .get(creds.accountId, creds.apiInboxId) as { id: number; source_id: string };
    return { id: row.id, contact: { source_id: row.source_id } };
  } finally {
    db.close();
  }
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
