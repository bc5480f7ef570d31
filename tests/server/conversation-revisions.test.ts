// Conversation revisions (SYNC-PROTOCOL.md, "Conversation revisions: ETag and If-Match"): a revision kept
// by triggers moves with every state an agent can set and nothing else; GET answers it as a strong
// ETag; the conversation writes accept If-Match and write nothing (412) when it is stale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_NOW, demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { clientPath } from '../support/public-api';
import { accountPath, AGENT_EMAIL, conversationRow, expectSpecErrorShape, recordEvents, userIdOf } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

const used = new Set<number>();
/** A conversation no other test here has touched, in the demo's API inbox (so incoming messages are allowed). */
function fresh(where = '1 = 1', ...args: unknown[]): number {
  const row = svc.db
    .prepare(`SELECT c.display_id FROM conversations c WHERE c.account_id = ? AND c.inbox_id = ? AND ${where} AND c.display_id NOT IN (${[...used].join(',') || 0}) ORDER BY c.id LIMIT 1`)
    .get(svc.creds.accountId, svc.creds.apiInboxId, ...args) as { display_id: number } | undefined;
  if (!row) throw new Error(`no unused conversation where ${where}`);
  used.add(row.display_id);
  return row.display_id;
}
const revision = (id: number) => conversationRow(svc, id).revision as number;
const etagOf = async (id: number) => {
  const res = await svc.request({ url: `${A}/conversations/${id}`, token: svc.creds.adminToken });
  expect(res.status).toBe(200);
  return res.headers.etag as string;
};
const send = (method: string, path: string, payload: unknown, ifMatch?: string) =>
  svc.request({ method, url: `${A}${path}`, token: svc.creds.adminToken, ...(payload === undefined ? {} : { payload }), headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });
const teamId = () => (svc.db.prepare('SELECT id FROM teams WHERE account_id = ? ORDER BY id').get(svc.creds.accountId) as { id: number }).id;

/** Every write that takes If-Match, as a request that changes something on conversation `id`. */
function writes(id: number): [string, string, string, unknown][] {
  const c = `/conversations/${id}`;
  return [
    ['toggle_status', 'POST', `${c}/toggle_status`, { status: 'pending' }],
    ['toggle_priority', 'POST', `${c}/toggle_priority`, { priority: 'urgent' }],
    ['PATCH', 'PATCH', c, { priority: 'low' }],
    ['PUT', 'PUT', c, { priority: 'medium' }],
    ['assignments', 'POST', `${c}/assignments`, { team_id: teamId() }],
    ['labels', 'POST', `${c}/labels`, { labels: ['revision-test'] }],
    ['update_last_seen', 'POST', `${c}/update_last_seen`, undefined],
    ['unread', 'POST', `${c}/unread`, undefined],
    ['custom_attributes', 'POST', `${c}/custom_attributes`, { custom_attributes: { plan: `p-${id}` } }],
  ];
}

describe('the revision', () => {
  it('GET answers it as a strong ETag, "<revision>"', async () => {
    const id = fresh();
    const res = await svc.request({ url: `${A}/conversations/${id}`, token: svc.creds.agentToken });
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe(`"${revision(id)}"`);
    expect(res.headers.etag).toMatch(/^"\d+"$/);
  });

  it('moves with each state an agent can set, through the API', async () => {
    const id = fresh("c.status = 'open' AND c.assignee_id IS NULL");
    const sam = userIdOf(svc, AGENT_EMAIL);
    const steps: [string, string, string, unknown][] = [
      ['status', 'POST', 'toggle_status', { status: 'resolved' }],
      ['snoozed_until', 'POST', 'toggle_status', { status: 'snoozed', snoozed_until: Math.floor(DEMO_NOW / 1000) + 600 }],
      ['snoozed_until again', 'POST', 'toggle_status', { status: 'snoozed', snoozed_until: Math.floor(DEMO_NOW / 1000) + 1200 }],
      ['priority', 'POST', 'toggle_priority', { priority: 'high' }],
      ['assignee', 'POST', 'assignments', { assignee_id: sam }],
      ['agent bot assignee', 'POST', 'assignments', { assignee_id: svc.creds.botId, assignee_type: 'AgentBot' }],
      ['team', 'POST', 'assignments', { team_id: teamId() }],
      ['label added', 'POST', 'labels', { labels: ['vip-rev'] }],
      ['label removed', 'POST', 'labels', { labels: [] }],
      ['custom attributes', 'POST', 'custom_attributes', { custom_attributes: { tier: 'gold' } }],
      ['read marker', 'POST', 'update_last_seen', undefined],
      ['unread', 'POST', 'unread', undefined],
    ];
    for (const [what, method, action, payload] of steps) {
      svc.setNow(svc.clock() + 60_000); // read markers take the time of reading: let time pass between steps
      const before = revision(id);
      const res = await send(method, `/conversations/${id}/${action}`, payload);
      expect(res.status, `${what}: ${res.text}`).toBe(200);
      expect(revision(id), what).toBeGreaterThan(before);
      expect(res.headers.etag, what).toBe(`"${revision(id)}"`);
    }
    svc.setNow(DEMO_NOW);
  });

  it('moves for every listed column and label rows, whatever code path writes them (triggers), and for nothing else', () => {
    const id = conversationRow(svc, fresh("c.status = 'open' AND c.assignee_id IS NULL AND c.assignee_agent_bot_id IS NULL AND c.team_id IS NULL AND c.priority IS NOT 'low'")).id;
    const other = conversationRow(svc, fresh()).id;
    const rev = (dbId: number) => (svc.db.prepare('SELECT revision FROM conversations WHERE id = ?').get(dbId) as { revision: number }).revision;
    const set = (column: string, value: unknown) => svc.db.prepare(`UPDATE conversations SET ${column} = ? WHERE id = ?`).run(value, id);
    const bot = svc.creds.botId;
    const user = userIdOf(svc, AGENT_EMAIL);
    const listed: [string, unknown][] = [
      ['status', 'pending'],
      ['snoozed_until', DEMO_NOW + 1],
      ['priority', 'low'],
      ['assignee_id', user],
      ['assignee_agent_bot_id', bot],
      ['team_id', teamId()],
      ['custom_attributes', '{"x":1}'],
      ['agent_last_seen_at', DEMO_NOW + 2],
      ['assignee_last_seen_at', DEMO_NOW + 3],
    ];
    for (const [column, value] of listed) {
      const before = rev(id);
      set(column, value);
      expect(rev(id), column).toBe(before + 1);
      set(column, value); // the same value again is no change
      expect(rev(id), `${column} unchanged`).toBe(before + 1);
    }
    for (const [column, value] of [['last_activity_at', DEMO_NOW + 9], ['updated_at', DEMO_NOW + 9], ['waiting_since', DEMO_NOW + 9], ['contact_last_seen_at', DEMO_NOW + 9], ['first_reply_created_at', DEMO_NOW + 9], ['additional_attributes', '{"browser":"x"}']] as const) {
      const before = rev(id);
      set(column, value);
      expect(rev(id), `${column} is not agent state`).toBe(before);
    }
    const before = rev(id);
    svc.db.prepare('INSERT INTO conversation_labels (conversation_id, title) VALUES (?, ?)').run(id, 'by-sql');
    expect(rev(id)).toBe(before + 1);
    svc.db.prepare('DELETE FROM conversation_labels WHERE conversation_id = ? AND title = ?').run(id, 'by-sql');
    expect(rev(id)).toBe(before + 2);
    const otherBefore = rev(other);
    set('status', 'resolved');
    expect(rev(other)).toBe(otherBefore);
  });

  it('a message does not move it unless it changes agent state: replies and notes do not, an incoming message reopening a resolved conversation does', async () => {
    const id = fresh("c.status = 'open'");
    const before = revision(id);
    for (const payload of [{ content: 'a reply' }, { content: 'a note', private: true }, { content: 'in', message_type: 'incoming' }]) {
      expect((await send('POST', `/conversations/${id}/messages`, payload)).status).toBe(200);
    }
    expect(revision(id)).toBe(before);
    expect(await etagOf(id)).toBe(`"${before}"`);
    // The contact reading it (Client API) is not agent state either.
    const row = conversationRow(svc, id);
    const source = (svc.db.prepare('SELECT source_id FROM contact_inboxes WHERE id = ?').get(row.contact_inbox_id) as { source_id: string }).source_id;
    const seen = await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${source}/conversations/${id}/update_last_seen`), payload: {} });
    expect(seen.status).toBe(200);
    expect(revision(id)).toBe(before);

    expect((await send('POST', `/conversations/${id}/toggle_status`, { status: 'resolved' })).status).toBe(200);
    const resolved = revision(id);
    expect((await send('POST', `/conversations/${id}/messages`, { content: 'are you there?', message_type: 'incoming' })).status).toBe(200);
    expect(conversationRow(svc, id).status).toBe('open');
    expect(revision(id)).toBeGreaterThan(resolved);
  });
});

describe('If-Match on the conversation writes', () => {
  it('the current ETag: every write lands and answers the new ETag', async () => {
    const id = fresh("c.status = 'open'");
    for (const [what, method, path, payload] of writes(id)) {
      const tag = await etagOf(id);
      const res = await send(method, path, payload, tag);
      expect(res.status, `${what}: ${res.text}`).toBe(200);
      expect(res.headers.etag, what).toBe(await etagOf(id));
      expect(res.headers.etag, what).toBe(`"${revision(id)}"`);
    }
    expect(conversationRow(svc, id)).toMatchObject({ status: 'pending', priority: 'medium', custom_attributes: `{"plan":"p-${id}"}` });
  });

  it('a stale ETag: every write answers 412 {error} with the current ETag, and writes nothing, emits nothing', async () => {
    const id = fresh("c.status = 'open'");
    const stale = await etagOf(id);
    expect((await send('POST', `/conversations/${id}/toggle_priority`, { priority: 'high' })).status).toBe(200);
    const current = await etagOf(id);
    expect(current).not.toBe(stale);
    const row = conversationRow(svc, id);
    const messages = () => (svc.db.prepare('SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?').get(row.id) as { n: number }).n;
    const count = messages();
    const labels = () => svc.db.prepare('SELECT title FROM conversation_labels WHERE conversation_id = ? ORDER BY title').all(row.id);
    const labelsBefore = labels();
    const rec = recordEvents(svc);
    for (const [what, method, path, payload] of writes(id)) {
      const res = await send(method, path, payload, stale);
      expect(res.status, `${what}: ${res.text}`).toBe(412);
      expect(res.body, what).toEqual({ error: 'The conversation has changed since it was read' });
      expectSpecErrorShape(res.body, what);
      expect(res.headers.etag, what).toBe(current);
    }
    expect(conversationRow(svc, id)).toEqual(row);
    expect(messages()).toBe(count);
    expect(labels()).toEqual(labelsBefore);
    expect(rec.events).toEqual([]);
    rec.off();
  });

  it('also when the write would change nothing (no priority in PATCH, no assignee in assignments)', async () => {
    const id = fresh();
    const stale = `"${revision(id) - 1}"`;
    expect((await send('PATCH', `/conversations/${id}`, { other: 1 }, stale)).status).toBe(412);
    expect((await send('POST', `/conversations/${id}/assignments`, {}, stale)).status).toBe(412);
    const ok = await send('PATCH', `/conversations/${id}`, { other: 1 }, await etagOf(id));
    expect(ok.status).toBe(200);
    expect(ok.headers.etag).toBe(`"${revision(id)}"`);
  });

  it('* matches any current state; a list matches if any tag does; a weak tag never matches; a malformed value is 400 and writes nothing', async () => {
    const id = fresh("c.status = 'open'");
    const path = `/conversations/${id}/toggle_priority`;
    expect((await send('POST', path, { priority: 'high' }, '*')).status).toBe(200);
    const current = await etagOf(id);
    expect((await send('POST', path, { priority: 'low' }, `"999999", ${current}`)).status).toBe(200);
    const now = await etagOf(id);
    expect((await send('POST', path, { priority: 'urgent' }, `W/${now}`)).status).toBe(412);
    for (const bad of ['12', '"12" "13"', 'W/', '"unterminated', ',', '']) {
      const res = await send('POST', path, { priority: 'urgent' }, bad);
      expect(res.status, bad).toBe(400);
      expectSpecErrorShape(res.body, bad);
    }
    expect(conversationRow(svc, id).priority).toBe('low');
  });

  it('a stale request held back cannot overwrite a later change: read, B lands with the ETag, late A with the same ETag is 412, the state is B\'s', async () => {
    const id = fresh("c.status = 'open'");
    const read = await etagOf(id);
    // A is sent first but held (a slow proxy); B goes through.
    const late = () => send('POST', `/conversations/${id}/toggle_status`, { status: 'resolved' }, read);
    const b = await send('POST', `/conversations/${id}/toggle_status`, { status: 'pending' }, read);
    expect(b.status).toBe(200);
    const a = await late();
    expect(a.status).toBe(412);
    expect(a.headers.etag).toBe(b.headers.etag);
    expect(conversationRow(svc, id).status).toBe('pending');
  });

  it('two writes sent together with the same ETag: exactly one lands, the other is 412, and the state is the winner\'s', async () => {
    const id = fresh("c.status = 'open'");
    const tag = await etagOf(id);
    const [x, y] = await Promise.all([send('POST', `/conversations/${id}/toggle_priority`, { priority: 'high' }, tag), send('POST', `/conversations/${id}/toggle_priority`, { priority: 'low' }, tag)]);
    expect([x.status, y.status].sort()).toEqual([200, 412]);
    expect(conversationRow(svc, id).priority).toBe(x.status === 200 ? 'high' : 'low');
  });

  it('without If-Match every write still lands, however stale the client is (the spec\'s behaviour)', async () => {
    const id = fresh("c.status = 'open'");
    await send('POST', `/conversations/${id}/toggle_priority`, { priority: 'high' });
    for (const [what, method, path, payload] of writes(id)) {
      const res = await send(method, path, payload);
      expect(res.status, `${what}: ${res.text}`).toBe(200);
    }
    expect(conversationRow(svc, id)).toMatchObject({ status: 'pending', priority: 'medium' });
  });
});
