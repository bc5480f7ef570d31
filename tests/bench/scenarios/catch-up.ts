// Catch-up: the app is cut off from the service (web mode's host stopped: no bridge, no live
// socket) while contacts write N messages into 50 conversations; then the host comes back on the
// same port and the page takes it back by itself. Measured: the catch-up's requests (changes feed
// pages, counted from the bridge frames the page sends) against the minimum the cursor allows
// (everything changed after the page's stored feed cursor, visible to the agent, in pages of
// 1,000, counted in the service's own database), and the time from the page's new connection to
// every new message in the cache.
import type { Page, WebSocket } from '@playwright/test';
import Database from 'better-sqlite3';
import { FEED_PAGE, SYNC_KEYS } from '../../../renderer/src/sync/catch-up';
import type { Figure } from '../../../scripts/bench/figures';
import { absolute, against } from '../../../scripts/bench/figures';
import type { RunningWebHost } from '../../../scripts/lib/web-host-process';
import { startWebHostProcess } from '../../../scripts/lib/web-host-process';
import { epochNow } from '../page-probes';
import type { ClientApi } from './live';
import { contactConversation } from './live';

export interface CatchUpSetup {
  api: ClientApi;
  dbFile: string;
  agentToken: string;
  host: RunningWebHost;
  secretFile: string;
  credentialsFile: string;
  conversations: number;
  messages: number;
}

/** Reads one value of the page's `sync` table (raw IndexedDB: no app code involved). */
function syncValue(page: Page, key: string) {
  return page.evaluate(async (k) => {
    const name = (await indexedDB.databases()).find((d) => d.name?.startsWith('inbox:'))!.name!;
    const db = await new Promise<IDBDatabase>((ok) => {
      const req = indexedDB.open(name);
      req.onsuccess = () => ok(req.result);
    });
    const value = await new Promise<unknown>((ok) => {
      const req = db.transaction('sync').objectStore('sync').get(k);
      req.onsuccess = () => ok((req.result as { value?: unknown } | undefined)?.value);
    });
    db.close();
    return value as string | number | undefined;
  }, key);
}

/** In the page: resolves with the epoch time at which the cache holds `count` messages starting with `tag`. */
function cachedAll(page: Page, tag: string, count: number) {
  return page.evaluate(
    async ({ tag, count }) => {
      const name = (await indexedDB.databases()).find((d) => d.name?.startsWith('inbox:'))!.name!;
      const db = await new Promise<IDBDatabase>((ok) => {
        const req = indexedDB.open(name);
        req.onsuccess = () => ok(req.result);
      });
      for (;;) {
        const rows = await new Promise<{ content?: string | null }[]>((ok) => {
          const req = db.transaction('messages').objectStore('messages').getAll();
          req.onsuccess = () => ok(req.result as { content?: string | null }[]);
        });
        if (rows.filter((m) => m.content?.startsWith(tag)).length >= count) {
          db.close();
          return performance.timeOrigin + performance.now();
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    { tag, count },
  );
}

/** The fewest feed requests that can carry everything visible to the agent changed after `seq`. */
function feedMinimum(dbFile: string, userId: number, accountId: number, seq: number) {
  const db = new Database(dbFile, { readonly: true });
  try {
    const visible = 'inbox_id IN (SELECT inbox_id FROM inbox_members WHERE user_id = ?)';
    const conversations = (db.prepare(`SELECT COUNT(*) AS n FROM conversations WHERE account_id = ? AND change_seq > ? AND ${visible}`).get(accountId, seq, userId) as { n: number }).n;
    const messages = (db.prepare(`SELECT COUNT(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.account_id = ? AND m.change_seq > ? AND c.${visible}`).get(accountId, seq, userId) as { n: number }).n;
    return { conversations, messages, requests: Math.max(1, Math.ceil((conversations + messages) / FEED_PAGE)) };
  } finally {
    db.close();
  }
}

export async function benchCatchUp(page: Page, s: CatchUpSetup): Promise<{ figures: Figure[]; host: RunningWebHost }> {
  const profile = (await (await fetch(`${s.api.baseUrl}/api/v1/profile`, { headers: { api_access_token: s.agentToken } })).json()) as { id: number; account_id: number };
  const conversations: Awaited<ReturnType<typeof contactConversation>>[] = [];
  for (let i = 0; i < s.conversations; i++) conversations.push(await contactConversation(s.api, `Catch-up ${i}`));
  for (const c of conversations) await c.say(`first words ${c.id}`);
  // A reload catches up (and takes the feed's cursor) with those conversations in the cache.
  await page.reload();
  await page.locator('#conversation-listbox [role="option"]').first().waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => !/syncing/.test(document.querySelector('.list-status')?.textContent ?? 'syncing'), undefined, { timeout: 60_000 });
  await page.waitForTimeout(2_000);
  const cursor = String((await syncValue(page, SYNC_KEYS.feedCursor)) ?? '');
  const seq = Number(cursor.split('.').at(-1));
  if (!cursor || !Number.isFinite(seq)) throw new Error(`the page holds no feed cursor (${cursor})`);

  // Cut off: the host goes, and with it the page's bridge and main's live socket.
  await s.host.stop();
  const tag = `catch-up-${Date.now()}`;
  for (let i = 0; i < s.messages; i += 8) {
    await Promise.all(conversations.slice(0, 8).map((_, k) => i + k < s.messages && conversations[(i + k) % conversations.length]!.say(`${tag} ${i + k}`)));
  }
  const minimum = feedMinimum(s.dbFile, profile.id, profile.account_id, seq);

  // Back: the page reconnects by itself; every call it sends is recorded from its new connection on.
  // Reconnected is the first frame the page sends (its hello), not its first socket made: one made
  // while the host was still starting fails, and the page's next try waits on its backoff (250 ms
  // doubling to 5 s, platform/web-transport.ts), which the figure took in as catch-up time (0-4 s).
  const calls: { at: number; name: string }[] = [];
  let connectedAt: number | undefined;
  let sockets = 0;
  const onSocket = (ws: WebSocket) => {
    sockets++;
    ws.on('framesent', (f) => {
      connectedAt ??= epochNow();
      try {
        const name = (JSON.parse(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8')) as { name?: string }).name;
        if (name) calls.push({ at: epochNow(), name });
      } catch {
        // Not a bridge call.
      }
    });
  };
  page.on('websocket', onSocket);
  const converged = cachedAll(page, tag, s.messages);
  const host = await startWebHostProcess({ port: s.host.port, secretFile: s.secretFile, signIn: s.credentialsFile, quiet: true });
  const hostUpAt = epochNow();
  const doneAt = await converged;
  // Anything the catch-up still asks for after the cache holds everything counts too.
  await page.waitForTimeout(3_000);
  page.off('websocket', onSocket);
  const feed = calls.filter((c) => c.name === 'changes.list');
  // Each call the page sent after reconnecting, ms from its first frame (its hello): what a slow catch-up asked for.
  if (process.env.BENCH_VERBOSE) console.error(`catch-up calls: ${calls.map((c) => `${c.name}@${(c.at - (connectedAt ?? c.at)).toFixed(0)}`).join(' ')}; every message cached @${(doneAt - (connectedAt ?? doneAt)).toFixed(0)}`);
  const note = `${s.messages} messages in ${s.conversations} conversations; minimum from the service's data: ${minimum.conversations} conversations + ${minimum.messages} messages changed after the page's cursor, pages of ${FEED_PAGE}; ${calls.length} bridge calls in all after reconnecting (${[...new Set(calls.map((c) => c.name))].join(', ')}); timed from the page's first frame on its new socket, ${connectedAt === undefined ? '?' : (connectedAt - hostUpAt).toFixed(0)} ms after the host's start had returned (${sockets} ${sockets === 1 ? 'socket' : 'sockets'} made by the page from the host's restart on)`;
  return {
    host,
    figures: [
      against('catch-up: feed requests to converge', feed.length, 'requests', { limit: minimum.requests, limitName: 'cursor minimum' }, '= the minimum', (v) => v === minimum.requests, note),
      absolute('catch-up: page reconnected → every message cached', doneAt - (connectedAt ?? doneAt), 'ms', '', undefined, note),
    ],
  };
}
