// Writes synthetic conversations straight into the app's IndexedDB (the session's `inbox:*`
// database, at whatever version the app opened it), shaped as the cache's rows.
import type { Page } from '@playwright/test';

export async function seedConversations(page: Page, count: number): Promise<void> {
  await page.evaluate(async (n) => {
    const dbs = await indexedDB.databases();
    const name = dbs.find((d) => d.name?.startsWith('inbox:'))?.name;
    if (!name) throw new Error('the app has not created its cache yet');
    const db = await new Promise<IDBDatabase>((ok, fail) => {
      const req = indexedDB.open(name);
      req.onsuccess = () => ok(req.result);
      req.onerror = () => fail(req.error);
    });
    const names = ['Ava Nguyen', 'Noah Okafor', 'Mia Schmidt', 'Liam Garcia', 'Zoe Kowalski', 'Ethan Haddad', 'Aisha Tanaka', 'Mateo Silva'];
    const labels = ['billing', 'bug', 'vip', 'refund', 'onboarding'];
    const now = Math.floor(Date.now() / 1000);
    await new Promise<void>((ok, fail) => {
      const tx = db.transaction('conversations', 'readwrite');
      const store = tx.objectStore('conversations');
      store.clear();
      for (let i = 1; i <= n; i++) {
        const contactName = `${names[i % names.length]} ${i}`;
        store.put({
          id: i, status: 'open', inboxId: 1 + (i % 4), assigneeId: 0, teamId: 0, contactId: 100_000 + i, labels: [labels[i % labels.length]], priority: null, priorityRank: -1,
          lastActivityAt: now - i * 60, createdAt: now - i * 120, waitingSince: 0, unreadCount: i % 3, contactName, contactEmail: `contact${i}@example.com`, assigneeName: '',
          preview: `Message preview number ${i}: the export to CSV produces an empty file when the date range spans a month`,
        });
      }
      tx.oncomplete = () => ok();
      tx.onerror = () => fail(tx.error);
    });
    db.close();
    // Show all open conversations (Unassigned would do too): the view the app reopens with.
    localStorage.setItem('inbox.view', JSON.stringify({ state: { view: { tab: 'all', status: 'open', sortBy: 'last_activity_at_desc' } }, version: 1 }));
  }, count);
}
