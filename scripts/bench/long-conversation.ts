// What a long conversation costs the service per event and per list row, against a short one.
//
// A message's live event carries its conversation's unread count, and so does every conversation a
// list or the changes feed presents. An agent who has read a conversation of 10,000 messages to its
// last few asks SQLite for the incoming messages after that moment; without an index of type and
// time it read the conversation's every message from the oldest (about 0.5 ms a count: bench/README,
// thirty-second stop). The service bench's own creates never showed it: its conversations were new
// and never read. Measured here in-process on the service's own database setup (openDatabase, the
// demo data), the payload builders the hub and the list call, each against the same in a
// conversation of SHORT messages read the same way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseReleased, openDatabase, stmt } from '../../server/db/open';
import type { Db } from '../../server/db/open';
import { seedDemo } from '../../server/demo/seed';
import { liveDelivery } from '../../server/live/payloads';
import { conversationRest } from '../../server/presenters/conversation';
import type { ConversationRow } from '../../server/store/conversations';
import { markAgentSeen } from '../../server/store/read-markers';
import type { Figure } from './figures';
import { against, median } from './figures';

const LONG = 10_000;
const SHORT = 100;
/** Messages after the agent's read marker: the conversation is read to its last few. */
const UNREAD = 5;

/** Fills conversation `c` to `count` messages (two in three from the contact, a second apart), read by its agent up to the last UNREAD. */
function fill(db: Db, c: ConversationRow, count: number, now: number, agentId: number): { conversation: ConversationRow; lastMessageId: number } {
  const insert = stmt(
    db,
    `INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content_type, content, private, status, content_attributes, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'text', ?, 0, 'sent', '{}', ?, ?)`,
  );
  const { have, newest } = stmt(db, 'SELECT COUNT(*) AS have, MAX(created_at) AS newest FROM messages WHERE conversation_id = ?').get(c.id) as { have: number; newest: number | null };
  // Its own messages after any it had: the read marker falls among them.
  const first = Math.max(now - count * 1000, (newest ?? 0) + 1000);
  let lastMessageId = 0;
  db.transaction(() => {
    for (let i = have; i < count; i++) {
      const at = first + i * 1000;
      lastMessageId = Number(insert.run(c.account_id, c.inbox_id, c.id, i % 3 === 2 ? 1 : 0, `message ${i}`, at, at).lastInsertRowid);
    }
  })();
  if (!lastMessageId) throw new Error(`conversation ${c.id} already had ${have} messages, not fewer than ${count}`);
  // The agent read it then (the store's own read marker).
  return { conversation: markAgentSeen(db, c, agentId, first + (count - UNREAD) * 1000 - 500), lastMessageId };
}

/** µs per call: the median of 7 batches of `calls`, after one batch unmeasured. */
function timed(calls: number, f: () => unknown): number {
  const batches: number[] = [];
  for (let b = 0; b < 8; b++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) f();
    if (b > 0) batches.push(Number(process.hrtime.bigint() - t) / 1000 / calls);
  }
  return median(batches);
}

export async function benchLongConversation(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-long-'));
  const db = openDatabase(join(dir, 'long.sqlite'));
  try {
    const now = Date.now();
    seedDemo(db, now);
    // The two with the fewest messages: each is filled to its length from there.
    const [a, b] = stmt(
      db,
      'SELECT c.* FROM conversations c WHERE c.contact_inbox_id IS NOT NULL ORDER BY (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id), c.id LIMIT 2',
    ).all() as ConversationRow[];
    if (!a || !b) throw new Error('the demo data has no two conversations with a contact inbox');
    const viewer = { user: { id: (stmt(db, 'SELECT user_id FROM account_users WHERE account_id = ? LIMIT 1').get(a.account_id) as { user_id: number }).user_id } };
    const long = fill(db, a, LONG, now, viewer.user.id);
    const short = fill(db, b, SHORT, now, viewer.user.id);
    const event = (x: typeof long) => ({ name: 'message.created' as const, accountId: x.conversation.account_id, conversationId: x.conversation.id, messageId: x.lastMessageId });
    const measure = (x: typeof long) => ({
      live: timed(200, () => liveDelivery(db, event(x))),
      row: timed(200, () => conversationRest(db, x.conversation, viewer)),
      unread: conversationRest(db, x.conversation, viewer).unread_count,
    });
    const l = measure(long);
    const s = measure(short);
    const how = `in-process (long-conversation.ts), the service's database setup and the demo data; each conversation read by its agent up to its last ${UNREAD} messages (unread count ${l.unread} and ${s.unread}); the median of 7 batches of 200 calls`;
    const figure = (name: string, value: number, limit: number, what: string) => {
      const f = against(name, value, 'µs', { limit, limitName: `the same, a conversation of ${SHORT} messages` }, '', () => true, `${what}; ${how}`);
      return { ...f, met: null };
    };
    return [
      figure(`service: a message's live event, its payload and rooms, in a conversation of ${LONG.toLocaleString('en-US')} messages`, l.live, s.live, 'liveDelivery, what the hub builds once per message event'),
      figure(`service: a conversation as a list presents it, one of ${LONG.toLocaleString('en-US')} messages`, l.row, s.row, 'conversationRest, what the conversation list and the changes feed build per conversation'),
    ];
  } finally {
    db.close();
    await databaseReleased(db);
    rmSync(dir, { recursive: true, force: true });
  }
}
