// Writes a synthetic cache straight into the app's IndexedDB (the session's `inbox:*` database, at
// whatever version the app opened it), shaped as the cache's rows: conversations (list rows),
// their messages and history cursors. Text is generated from a seeded generator, so every run
// indexes and searches the same words.
import type { Page } from '@playwright/test';

export interface CachePlan {
  conversations: number;
  /** Messages in all, spread over the conversations after the special ones. */
  messages: number;
  /** Conversations given exactly this many messages (the switch figure's). */
  big: { id: number; count: number }[];
  /** Conversations holding one given message after a few ordinary ones (hostile rendering). */
  special: { id: number; text: string }[];
  /**
   * Words only one message holds: the newest (the highest id, which the index builds first) and the
   * oldest (the lowest, built last: once search finds it, the index holds everything).
   */
  markers: { newest: string; oldest: string };
}

/** Message ids start here, far above anything the demo service hands out. */
export const FIRST_MESSAGE_ID = 50_000_000;

/** Every message id the plan gives conversation `id`, for reading back its last one. */
export interface SeededCache {
  lastMessageOf: Record<number, number>;
  messages: number;
}

export async function seedCache(page: Page, plan: CachePlan): Promise<SeededCache> {
  return page.evaluate(
    async ({ plan, firstId }) => {
      const dbs = await indexedDB.databases();
      const name = dbs.find((d) => d.name?.startsWith('inbox:'))?.name;
      if (!name) throw new Error('the app has not created its cache yet');
      const db = await new Promise<IDBDatabase>((ok, fail) => {
        const req = indexedDB.open(name);
        req.onsuccess = () => ok(req.result);
        req.onerror = () => fail(req.error);
      });
      const write = (stores: string[], fill: (tx: IDBTransaction) => void) =>
        new Promise<void>((ok, fail) => {
          const tx = db.transaction(stores, 'readwrite');
          fill(tx);
          tx.oncomplete = () => ok();
          tx.onerror = () => fail(tx.error);
        });
      // A small linear congruential generator: the same text every run.
      let seed = 42;
      const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
      // Words as people write them: a few very common, most rare (Zipf's law over 5,000 words:
      // the 150 of a support inbox first, then made-up ones for the long tail).
      const vocab = (
        'the a to and i you it is for my of on in this that we have not can with be order account please thanks help but your from at was will are do just ' +
        'refund invoice billing payment card charge subscription plan upgrade cancel trial password login error export import csv report dashboard ' +
        'shipping delivery package tracking number email phone notification settings integration webhook api token access admin team agent customer support ' +
        'ticket priority urgent issue bug crash slow mobile desktop browser chrome safari firefox android iphone update version release feature request ' +
        'feedback today tomorrow yesterday week month again still never always works broken fixed'
      ).split(' ');
      const syllables = ['ka', 'lo', 'mi', 'ter', 'son', 'ex', 'pro', 'ver', 'tal', 'bi', 'on', 're', 'sta', 'nor', 'pel', 'cu', 'dra', 'fin', 'gor', 'hu'];
      while (vocab.length < 5_000) {
        let w = '';
        for (let i = 2 + Math.floor(rand() * 3); i > 0; i--) w += syllables[Math.floor(rand() * syllables.length)];
        vocab.push(w);
      }
      const weights: number[] = [];
      let weight = 0;
      for (let r = 1; r <= vocab.length; r++) weights.push((weight += 1 / r));
      const word = () => {
        const x = rand() * weight;
        let lo = 0;
        let hi = weights.length - 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (weights[mid]! < x) lo = mid + 1;
          else hi = mid;
        }
        return vocab[lo]!;
      };
      const names = ['Ava Nguyen', 'Noah Okafor', 'Mia Schmidt', 'Liam Garcia', 'Zoe Kowalski', 'Ethan Haddad', 'Aisha Tanaka', 'Mateo Silva'];
      const labels = ['billing', 'bug', 'vip', 'refund', 'onboarding'];
      const now = Math.floor(Date.now() / 1000);
      const sentence = () => {
        const n = 6 + Math.floor(rand() * 40);
        const out: string[] = [];
        for (let i = 0; i < n; i++) out.push(word());
        // An order number: the kind of token agents search for, and one the index has to hold many of.
        out.splice(Math.floor(rand() * n), 0, `#${100_000 + Math.floor(rand() * 900_000)}`);
        return out.join(' ');
      };

      const n = plan.conversations;
      // Two in three conversations have unread messages from the contact, and wait for a reply since
      // their last one, as in a working inbox: their rows show the waiting chip (since 2026-12-05;
      // before, no row waited and no chip was drawn).
      await write(['conversations'], (tx) => {
        const store = tx.objectStore('conversations');
        store.clear();
        for (let i = 1; i <= n; i++) {
          const contactName = `${names[i % names.length]} ${i}`;
          store.put({
            id: i, status: 'open', inboxId: 1 + (i % 4), assigneeId: 0, teamId: 0, contactId: 100_000 + i, labels: [labels[i % labels.length]], priority: null, priorityRank: -1,
            lastActivityAt: now - i * 60, createdAt: now - i * 120, waitingSince: i % 3 ? now - i * 60 : 0, unreadCount: i % 3, contactName, contactEmail: `contact${i}@example.com`, assigneeName: '',
            preview: `Message preview number ${i}: the export to CSV produces an empty file when the date range spans a month`,
          });
        }
      });

      // How many messages each conversation gets: the big ones exactly, the special ones five
      // ordinary ones and their own, the rest share what is left.
      const counts = new Map<number, number>();
      for (const b of plan.big) counts.set(b.id, b.count);
      for (const s of plan.special) counts.set(s.id, 5);
      const fixed = [...counts.values()].reduce((a, b) => a + b, 0) + plan.special.length;
      const others = Array.from({ length: n }, (_, i) => i + 1).filter((id) => !counts.has(id));
      const left = Math.max(0, plan.messages - fixed);
      others.forEach((id, i) => counts.set(id, Math.floor(left / others.length) + (i < left % others.length ? 1 : 0)));
      const specials = new Map(plan.special.map((s) => [s.id, s.text]));

      let nextId = firstId;
      let total = 0;
      const lastMessageOf: Record<number, number> = {};
      const ids = [...counts.keys()].sort((a, b) => a - b);
      const BATCH = 10_000;
      let batch: { messages: unknown[]; cursors: unknown[] } = { messages: [], cursors: [] };
      const flush = () => {
        const b = batch;
        batch = { messages: [], cursors: [] };
        return write(['messages', 'cursors'], (tx) => {
          const m = tx.objectStore('messages');
          for (const row of b.messages) m.put(row);
          const c = tx.objectStore('cursors');
          for (const row of b.cursors) c.put(row);
        });
      };
      await write(['messages', 'cursors'], (tx) => {
        tx.objectStore('messages').clear();
        tx.objectStore('cursors').clear();
      });
      for (const id of ids) {
        const count = counts.get(id)!;
        const special = specials.get(id);
        const texts = Array.from({ length: count }, sentence);
        if (special !== undefined) texts.push(special);
        // The newest message of all (the highest id) and the oldest (the lowest) hold the markers.
        if (id === ids.at(-1) && texts.length) texts[texts.length - 1] = `${texts.at(-1)} ${plan.markers.newest}`;
        if (id === ids[0] && texts.length) texts[0] = `${texts[0]} ${plan.markers.oldest}`;
        const oldest = nextId;
        texts.forEach((content, k) => {
          const incoming = k % 3 !== 2;
          batch.messages.push({
            id: nextId, content, inbox_id: 1 + (id % 4), conversation_id: id, message_type: incoming ? 0 : 1, content_type: 'text', status: 'sent', content_attributes: {},
            created_at: now - id * 60 - (texts.length - k) * 30, private: false, source_id: null, attachments: [],
            sender: incoming ? { id: 100_000 + id, name: `${names[id % names.length]} ${id}`, type: 'contact' } : { id: 1, name: 'Priya Shah', available_name: 'Priya Shah', type: 'user' },
          });
          nextId++;
          total++;
        });
        lastMessageOf[id] = nextId - 1;
        batch.cursors.push({ conversationId: id, oldestId: oldest, newestId: nextId - 1, hasOlder: false, gaps: [], completeAt: Date.now() });
        if (batch.messages.length >= BATCH) await flush();
      }
      await flush();
      db.close();
      // Show all open conversations: the view the app reopens with.
      localStorage.setItem('inbox.view', JSON.stringify({ state: { view: { tab: 'all', status: 'open', sortBy: 'last_activity_at_desc' } }, version: 1 }));
      return { lastMessageOf, messages: total };
    },
    { plan, firstId: FIRST_MESSAGE_ID },
  );
}

/** Shows all open conversations when the app next opens (so new conversations of any assignee are in the list). */
export async function showAllOpen(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.setItem('inbox.view', JSON.stringify({ state: { view: { tab: 'all', status: 'open', sortBy: 'last_activity_at_desc' } }, version: 1 })));
}

/**
 * Waits until the app's cache holds the account's directory (the triage pickers' labels and
 * agents). The app refreshes it from the service once its first rows are on screen (client/
 * first-rows-gate.ts), so the run must not stop the service right behind the first row: the
 * refresh would be cut off, and the cache left with whatever it had (nothing, on a first run).
 */
export async function directoryCached(page: Page): Promise<void> {
  await page.waitForFunction(
    async () => {
      const name = (await indexedDB.databases()).find((d) => d.name?.startsWith('inbox:'))?.name;
      if (!name) return false;
      const db = await new Promise<IDBDatabase>((ok, fail) => {
        const req = indexedDB.open(name);
        req.onsuccess = () => ok(req.result);
        req.onerror = () => fail(req.error);
      });
      try {
        const count = (store: string) =>
          new Promise<number>((ok, fail) => {
            const req = db.transaction(store).objectStore(store).count();
            req.onsuccess = () => ok(req.result);
            req.onerror = () => fail(req.error);
          });
        return (await count('labels')) > 0 && (await count('agents')) > 0;
      } finally {
        db.close();
      }
    },
    undefined,
    { timeout: 60_000, polling: 100 },
  );
}
