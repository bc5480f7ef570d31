// Catch-up of the whole cache after a gap: the app is cut off from the service while 2,000
// messages arrive across 50 cached conversations; on reconnect one catch-up brings every one of
// them into the cache exactly once, with histories left whole (no gaps), in exactly the number of
// requests the service's cursor limits allow. Once through the changes feed (our service), once
// the list way (`updated_within` + one `after`/`before` page per conversation), as against a
// real Chatwoot installation. The minimum is computed from the service's own data and printed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../../shared/bridge/contract';
import { InboxDb } from '../../renderer/src/db/schema';
import { saveConversations } from '../../renderer/src/db/save';
import { callOrThrow } from '../../renderer/src/platform/call';
import { BETWEEN_PAGE, catchUp, FEED_PAGE, SYNC_KEYS } from '../../renderer/src/sync/catch-up';
import { refreshLatest } from '../../renderer/src/sync/history';
import { conversationByDisplayId } from '../../server/store/conversations';
import { createMessage } from '../../server/store/writes';
import { DEMO_NOW, demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { demoBridge } from './support/demo-bridge';
import { agentConversations } from './support/outbox-harness';
import { uniqueDbName } from './fixtures';

const CONVERSATIONS = 50;
const MESSAGES = 2_000;
/** Chatwoot's list page: a longer answer than this to `updated_within` is the unpaginated one. */
const LIST_PAGE = 25;

let svc: DemoService;
beforeAll(async () => {
  svc = await demoService();
});
afterAll(() => svc.close());

/** A bridge that counts the requests that reach the service (main's own answers are not requests). */
function counting(bridge: Bridge) {
  const calls: string[] = [];
  return {
    calls,
    bridge: { call: (name: string, input: unknown) => (name.startsWith('session.') || calls.push(name), bridge.call(name as never, input as never)), on: bridge.on } as unknown as Bridge,
  };
}

/** The gap: contacts write while the app hears nothing. Returns the new message ids by conversation. */
function contactsWrite(ids: readonly number[], total: number, tag: string): Map<number, number[]> {
  const made = new Map<number, number[]>();
  svc.setNow(DEMO_NOW + 3_600_000 + total);
  for (let i = 0; i < total; i++) {
    const displayId = ids[i % ids.length]!;
    const c = conversationByDisplayId(svc.db, svc.creds.accountId, displayId)!;
    const m = createMessage({ db: svc.db, bus: svc.bus, now: DEMO_NOW + 3_600_000 + i }, { conversation: c, messageType: 0, content: `${tag} ${i}`, sender: { type: 'Contact', id: c.contact_id } });
    made.set(displayId, [...(made.get(displayId) ?? []), m.id]);
  }
  return made;
}

async function cachedWith(db: InboxDb, tag: string) {
  return (await db.messages.toArray()).filter((m) => m.content?.startsWith(`${tag} `));
}

describe('catch-up after 2,000 messages arrived across 50 conversations while cut off', () => {
  for (const extensions of [true, false]) {
    it(extensions ? 'through the changes feed: every message once, no gaps, requests = the minimum' : 'the list way (updated_within, then one page per conversation): every message once, no gaps, requests = the minimum', async () => {
      const demo = await demoBridge(svc, svc.creds.agentToken, { extensions });
      const db = new InboxDb(uniqueDbName('catch-up'));
      const ids = agentConversations(svc, '1 = 1', CONVERSATIONS);
      expect(ids).toHaveLength(CONVERSATIONS);
      const features = async () => {
        const r = await demo.bridge.call('session.features', {});
        return r.ok ? r.value : { idempotencyKey: false, conversationEtag: false, changesFeed: false, presence: false };
      };
      // The app before the gap: a first catch-up (which takes the feed's cursor), then each
      // conversation and its newest page, as opening or prefetching would. The first catch-up of a
      // session reports nothing as arrived "while away" (nothing was missed: the agent just came).
      expect((await catchUp({ bridge: demo.bridge, db, features })).arrived).toEqual([]);
      for (const id of ids) {
        await saveConversations(db, [await callOrThrow(demo.bridge, 'conversations.get', { conversationId: id })]);
        await refreshLatest(db, id, async (q) => (await callOrThrow(demo.bridge, 'messages.list', { conversationId: id, ...q })).payload);
      }
      const cursorBefore = String((await db.sync.get(SYNC_KEYS.feedCursor))?.value ?? '');

      const tag = `catch-up-${extensions ? 'feed' : 'list'}-${Date.now()}`;
      const made = contactsWrite(ids, MESSAGES, tag);

      const counter = counting(demo.bridge);
      const result = await catchUp({ bridge: counter.bridge, db, features });

      const cached = await cachedWith(db, tag);
      expect(cached).toHaveLength(MESSAGES);
      // What came during the gap, for one summary notification: every message the contacts wrote.
      expect(result.arrived.filter((m) => m.content?.startsWith(`${tag} `)).map((m) => m.id).sort((a, b) => a - b)).toEqual([...made.values()].flat().sort((a, b) => a - b));
      expect(new Set(cached.map((m) => m.id)).size).toBe(MESSAGES);
      for (const [id, newIds] of made) {
        const cursor = await db.cursors.get(id);
        expect(cursor, `#${id}`).toMatchObject({ newestId: Math.max(...newIds), gaps: [] });
      }

      let minimum: number;
      if (extensions) {
        // Everything the feed must carry: the conversations and messages changed after the cursor, this agent's to see.
        const seq = Number(cursorBefore.split('.').at(-1));
        const visible = `inbox_id IN (SELECT inbox_id FROM inbox_members WHERE user_id = ${demo.session.user.id})`;
        const conversations = (svc.db.prepare(`SELECT COUNT(*) AS n FROM conversations WHERE account_id = ? AND change_seq > ? AND ${visible}`).get(svc.creds.accountId, seq) as { n: number }).n;
        const messages = (svc.db.prepare(`SELECT COUNT(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.account_id = ? AND m.change_seq > ? AND c.${visible}`).get(svc.creds.accountId, seq) as { n: number }).n;
        minimum = Math.ceil((conversations + messages) / FEED_PAGE);
        console.log(`catch-up through the feed: ${conversations} conversations + ${messages} messages changed; minimum ${minimum} requests (pages of ${FEED_PAGE}); made ${counter.calls.length}: ${counter.calls.join(', ')}`);
        expect(result.mode).toBe('feed');
      } else {
        // One unpaginated list (more than a page's worth of conversations, so no second page is asked), then
        // per conversation with new messages, one between page per 1,000 of them.
        const changed = result.conversations;
        expect(changed).toBeGreaterThan(LIST_PAGE);
        minimum = 1 + [...made.values()].reduce((sum, list) => sum + Math.ceil(list.length / BETWEEN_PAGE), 0);
        console.log(`catch-up the list way: ${changed} conversations changed, ${made.size} with new messages; minimum ${minimum} requests; made ${counter.calls.length}`);
        expect(result.mode).toBe('list');
      }
      expect(counter.calls.length).toBe(minimum);
      expect(result.requests).toBe(minimum);
    }, 60_000);
  }
});
