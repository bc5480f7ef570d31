// The changes feed, GET A/changes (SYNC-PROTOCOL.md, "The changes feed"): one opaque cursor orders
// conversations, messages and removals together; pages of at most `limit` items with `more`; each
// conversation once per page in its current REST shape; only what the caller may read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { clientPath } from '../support/public-api';
import { accountPath, agentConversation, conversationRow, expectSpecErrorShape, hiddenFromAgent, pickConversation } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

interface Feed {
  meta: { cursor: string; more: boolean };
  payload: { conversations: ({ id: number; revision: number } & Record<string, unknown>)[]; messages: ({ id: number; conversation_id: number } & Record<string, unknown>)[]; removed: number[] };
}
async function feed(query: Record<string, string | number> = {}, token = svc.creds.adminToken, account = A) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const res = await svc.request({ url: `${account}/changes${qs ? `?${qs}` : ''}`, token });
  expect(res.status, res.text).toBe(200);
  return res.body as Feed;
}
const now = async (token = svc.creds.adminToken, account = A) => (await feed({}, token, account)).meta.cursor;
const admin = (method: string, path: string, payload?: unknown) => svc.request({ method, url: `${A}${path}`, token: svc.creds.adminToken, ...(payload === undefined ? {} : { payload }) });
const reply = async (id: number, content: string) => {
  const res = await admin('POST', `/conversations/${id}/messages`, { content });
  expect(res.status).toBe(200);
  return (res.body as { id: number }).id;
};
const lastMessageId = (displayId: number) => (svc.db.prepare('SELECT MAX(id) AS id FROM messages WHERE conversation_id = ?').get(conversationRow(svc, displayId).id) as { id: number }).id;

/** Every item after `since`, page by page (`limit` a page), as `m<id>`, `c<display id>`, `r<display id>` in change order. */
async function walk(since: string, limit: number, token = svc.creds.adminToken) {
  const items: string[] = [];
  const pages: Feed[] = [];
  let cursor = since;
  for (let i = 0; i < 100; i++) {
    const page = await feed({ since: cursor, limit }, token);
    pages.push(page);
    const p = page.payload;
    expect(p.conversations.length + p.messages.length + p.removed.length).toBeLessThanOrEqual(limit);
    // Within a page the lists are each in change order; across kinds, limit=1 pages give the order.
    items.push(...p.messages.map((m) => `m${m.id}`), ...p.conversations.map((c) => `c${c.id}`), ...p.removed.map((r) => `r${r}`));
    cursor = page.meta.cursor;
    if (!page.meta.more) return { items, pages, cursor };
  }
  throw new Error('the feed never ended');
}

describe('GET A/changes without since', () => {
  it('answers the cursor for now and empty lists; the cursor moves when something changes', async () => {
    const first = await feed();
    expect(first).toEqual({ meta: { cursor: expect.any(String), more: false }, payload: { conversations: [], messages: [], removed: [] } });
    expect(await now()).toBe(first.meta.cursor);
    await reply(agentConversation(svc), 'moves the cursor');
    expect(await now()).not.toBe(first.meta.cursor);
  });
});

describe('GET A/changes?since=', () => {
  it('lists conversations, messages and removals after the cursor in one change order; a conversation once, at its latest change', async () => {
    const x = pickConversation(svc, "c.status = 'open'");
    const y = pickConversation(svc, "c.status = 'open' AND c.display_id != ? AND (c.priority IS NULL OR c.priority != 'urgent')", x);
    const w = pickConversation(svc, 'c.display_id NOT IN (?, ?)', x, y);
    const since = await now();
    const mx1 = await reply(x, 'first');
    expect((await admin('PATCH', `/conversations/${y}`, { priority: 'urgent' })).status).toBe(200);
    const my = lastMessageId(y); // the activity message the priority change wrote
    expect((await admin('DELETE', `/conversations/${w}`)).status).toBe(200);
    const mx2 = await reply(x, 'second');

    const { items, pages } = await walk(since, 1);
    expect(items).toEqual([`m${mx1}`, `m${my}`, `c${y}`, `r${w}`, `m${mx2}`, `c${x}`]);
    expect(pages.map((p) => p.meta.more)).toEqual([true, true, true, true, true, false]);

    const all = await feed({ since });
    expect(all.meta.more).toBe(false);
    expect(all.payload.conversations.map((c) => c.id)).toEqual([y, x]);
    expect(all.payload.messages.map((m) => m.id)).toEqual([mx1, my, mx2]);
    expect(all.payload.removed).toEqual([w]);
    // After the last page nothing is left: the cursor it gave is the end.
    expect(await feed({ since: all.meta.cursor })).toEqual({ meta: { cursor: all.meta.cursor, more: false }, payload: { conversations: [], messages: [], removed: [] } });
  });

  it('conversations in their current REST shape (as GET A/conversations/{id}) plus their revision; messages in their REST shape with the display id', async () => {
    const id = agentConversation(svc, "c.status = 'open'");
    const since = await now();
    const mid = await reply(id, 'shape check');
    await admin('POST', `/conversations/${id}/labels`, { labels: ['feed-shape'] });
    const page = await feed({ since });
    const shown = await svc.request({ url: `${A}/conversations/${id}`, token: svc.creds.adminToken });
    const listed = page.payload.conversations.find((c) => c.id === id)!;
    expect(listed).toEqual({ ...(shown.body as object), revision: conversationRow(svc, id).revision });
    expect(shown.headers.etag).toBe(`"${listed.revision}"`);
    expect(listed.labels).toEqual(['feed-shape']);
    const history = (await svc.request({ url: `${A}/conversations/${id}/messages?after=${mid - 1}`, token: svc.creds.adminToken })).body as { payload: { id: number }[] };
    expect(page.payload.messages.find((m) => m.id === mid)).toEqual(history.payload.find((m) => m.id === mid));
    expect(page.payload.messages.find((m) => m.id === mid)!.conversation_id).toBe(id);
  });

  it('lists a message updated after the cursor (soft delete) in its current state, and changes made through the Client API', async () => {
    const id = pickConversation(svc, 'c.inbox_id = ?', svc.creds.apiInboxId);
    const mid = await reply(id, 'to be deleted');
    const since = await now();
    expect((await admin('DELETE', `/conversations/${id}/messages/${mid}`)).status).toBe(200);
    const row = conversationRow(svc, id);
    const source = (svc.db.prepare('SELECT source_id FROM contact_inboxes WHERE id = ?').get(row.contact_inbox_id) as { source_id: string }).source_id;
    const sent = await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${source}/conversations/${id}/messages`), payload: { content: 'from the contact' } });
    expect(sent.status).toBe(200);
    const page = await feed({ since });
    expect(page.payload.messages.map((m) => [m.id, m.content])).toEqual([
      [mid, 'This message was deleted'],
      [(sent.body as { id: number }).id, 'from the contact'],
    ]);
    expect(page.payload.conversations.map((c) => c.id)).toEqual([id]);
  });

  it('label, assignment and read-marker changes list the conversation (no message needed)', async () => {
    const id = agentConversation(svc);
    for (const [path, payload] of [
      [`/conversations/${id}/labels`, { labels: ['feed-label'] }],
      [`/conversations/${id}/update_last_seen`, undefined],
      [`/conversations/${id}/custom_attributes`, { custom_attributes: { feed: 1 } }],
    ] as const) {
      const since = await now();
      expect((await admin('POST', path, payload)).status).toBe(200);
      expect((await feed({ since })).payload.conversations.map((c) => c.id), path).toEqual([id]);
    }
  });

  it('pages of `limit` items: more until the last page, which needs no empty follow-up; the pages add up to the whole', async () => {
    const since = await now();
    const ids = [agentConversation(svc), hiddenFromAgent(svc)];
    for (let i = 0; i < 7; i++) await reply(ids[i % 2]!, `bulk ${i}`);
    const whole = await feed({ since });
    const count = whole.payload.conversations.length + whole.payload.messages.length + whole.payload.removed.length;
    expect(count).toBe(9);
    for (const limit of [1, 2, 4, 9, 10]) {
      const { items, pages } = await walk(since, limit);
      expect(items.sort(), `limit ${limit}`).toEqual([...whole.payload.messages.map((m) => `m${m.id}`), ...whole.payload.conversations.map((c) => `c${c.id}`)].sort());
      expect(pages.length, `limit ${limit}`).toBe(Math.ceil(count / limit));
      expect(pages.slice(0, -1).every((p) => p.meta.more) && !pages.at(-1)!.meta.more).toBe(true);
    }
  });

  it('a page never holds more than 1000 items, the default', async () => {
    const since = await now();
    const id = agentConversation(svc);
    const c = conversationRow(svc, id);
    // 1001 messages in one transaction (the write path is not what is under test here).
    svc.db.transaction(() => {
      const insert = svc.db.prepare("INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, created_at, updated_at) VALUES (?, ?, ?, 1, 'bulk', ?, ?)");
      for (let i = 0; i < 1001; i++) insert.run(c.account_id, c.inbox_id, c.id, svc.clock(), svc.clock());
    })();
    const first = await feed({ since });
    expect(first.payload.messages.length).toBe(1000);
    expect(first.meta.more).toBe(true);
    const second = await feed({ since: first.meta.cursor });
    expect(second.payload.messages.length).toBe(1);
    expect(second.meta.more).toBe(false);
    expect((await feed({ since, limit: 1000 })).payload.messages.length).toBe(1000);
  });

  it('only what the caller may read: an agent sees changes and removals in their inboxes only; another account sees nothing; a bot is refused', async () => {
    const agent = svc.creds.agentToken;
    const since = await now(agent);
    const otherAccount = accountPath(svc, svc.creds.otherAccountId);
    const otherSince = await now(svc.creds.otherAccountAdminToken, otherAccount);
    const visible = agentConversation(svc);
    const hidden = hiddenFromAgent(svc);
    const mv = await reply(visible, 'seen by the agent');
    const mh = await reply(hidden, 'not seen by the agent');
    const removedHidden = pickConversation(svc, `c.inbox_id NOT IN (SELECT inbox_id FROM inbox_members WHERE user_id = (SELECT id FROM users WHERE email = 'sam@acme.example')) AND c.display_id != ?`, hidden);
    const removedVisible = agentConversation(svc, 'c.display_id != ?', visible);
    expect((await admin('DELETE', `/conversations/${removedHidden}`)).status).toBe(200);
    expect((await admin('DELETE', `/conversations/${removedVisible}`)).status).toBe(200);

    const seen = await feed({ since }, agent);
    expect(seen.payload.conversations.map((c) => c.id)).toEqual([visible]);
    expect(seen.payload.messages.map((m) => m.id)).toEqual([mv]);
    expect(seen.payload.removed).toEqual([removedVisible]);
    const everything = await feed({ since });
    expect(everything.payload.conversations.map((c) => c.id)).toEqual([visible, hidden]);
    expect(everything.payload.messages.map((m) => m.id)).toEqual([mv, mh]);
    expect(everything.payload.removed).toEqual([removedHidden, removedVisible]);
    // The agent's cursor is past what it may not see: nothing is left for it.
    expect((await feed({ since: seen.meta.cursor }, agent)).payload).toEqual({ conversations: [], messages: [], removed: [] });

    const other = await feed({ since: otherSince }, svc.creds.otherAccountAdminToken, otherAccount);
    expect(other.payload).toEqual({ conversations: [], messages: [], removed: [] });
    const bot = await svc.request({ url: `${A}/changes`, token: svc.creds.botToken });
    expect(bot.status).toBe(401);
  });

  it('a malformed, foreign or future cursor, and a limit outside 1..1000, are 400 {error}', async () => {
    const cursor = await now();
    const [epoch, value] = cursor.split('.') as [string, string];
    const foreign = `${epoch === '0000000000000000' ? '1111111111111111' : '0000000000000000'}.${value}`;
    for (const query of [
      { since: 'x' },
      { since: '' },
      { since: value },
      { since: `${epoch}.` },
      { since: `${epoch}.-1` },
      { since: `${epoch}.${Number(value) + 1}` },
      { since: foreign },
      { since: `${cursor}${'0'.repeat(200)}` },
      { since: cursor, limit: 0 },
      { since: cursor, limit: 1001 },
      { since: cursor, limit: 'ten' },
      { since: cursor, limit: -1 },
    ]) {
      const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
      const res = await svc.request({ url: `${A}/changes?${qs}`, token: svc.creds.adminToken });
      expect(res.status, qs).toBe(400);
      expectSpecErrorShape(res.body, qs);
    }
    expect((await feed({ since: cursor, limit: 1 })).meta.more).toBe(false);
  });
});
