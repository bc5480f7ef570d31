// `waiting_since` (chatwoot-compat §2.1): how long a contact has waited for a reply, which the
// app shows on every row and sorts by. Resolving a conversation stops the wait, as Chatwoot does
// (`Conversation#handle_resolved_status_change` clears it without an event of its own), so the
// waiting sort never puts a resolved conversation among the waiting ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, agentConversation, conversationRow } from './fixtures';
import { clientPath, createClientContact } from '../support/public-api';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

const toggle = (id: number, status: string) => svc.request({ method: 'POST', url: `${A}/conversations/${id}/toggle_status`, token: svc.creds.agentToken, payload: { status } });
type Row = { id: number; status: string; waiting_since: number };
const list = async (q: string) => ((await svc.request({ url: `${A}/conversations?${q}`, token: svc.creds.adminToken })).body as { data: { payload: Row[] } }).data.payload;

describe('waiting_since', () => {
  it('is cleared when an agent resolves the conversation, and stays cleared on reopening until the contact writes again', async () => {
    const id = agentConversation(svc, "c.status = 'open' AND c.waiting_since IS NOT NULL");
    expect((await toggle(id, 'resolved')).status).toBe(200);
    expect(conversationRow(svc, id).waiting_since).toBeNull();
    expect((await toggle(id, 'open')).status).toBe(200);
    expect(conversationRow(svc, id).waiting_since).toBeNull();
  });

  it('is kept while snoozed or pending (the contact is still owed a reply)', async () => {
    const id = agentConversation(svc, "c.status = 'open' AND c.waiting_since IS NOT NULL");
    const before = conversationRow(svc, id).waiting_since;
    await toggle(id, 'snoozed');
    expect(conversationRow(svc, id).waiting_since).toBe(before);
    await toggle(id, 'pending');
    expect(conversationRow(svc, id).waiting_since).toBe(before);
  });

  it('is cleared when the contact resolves it through the Client API', async () => {
    const contact = await createClientContact(svc, svc.creds.apiInboxIdentifier, { name: 'Waiting Contact' });
    const base = `/contacts/${contact.source_id}/conversations`;
    const id = ((await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, base), payload: {} })).body as { id: number }).id;
    await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `${base}/${id}/messages`), payload: { content: 'hello?' } });
    expect(conversationRow(svc, id).waiting_since).not.toBeNull();
    const r = await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `${base}/${id}/toggle_status`) });
    expect(r.status).toBe(200);
    expect(conversationRow(svc, id).status).toBe('resolved');
    expect(conversationRow(svc, id).waiting_since).toBeNull();
  });

  it('sort_by=waiting_since_asc puts the longest wait first and everything not waiting (resolved included) last', async () => {
    const resolvedNow = agentConversation(svc, "c.status = 'open' AND c.waiting_since IS NOT NULL");
    await toggle(resolvedNow, 'resolved');
    const rows: Row[] = [];
    for (let page = 1; ; page++) {
      const got = await list(`status=all&sort_by=waiting_since_asc&page=${page}`);
      if (!got.length) break;
      rows.push(...got);
    }
    const waits = rows.map((r) => r.waiting_since);
    const firstIdle = waits.findIndex((w) => !w);
    expect(firstIdle).toBeGreaterThan(0);
    expect(waits.slice(firstIdle).every((w) => !w)).toBe(true);
    expect(waits.slice(0, firstIdle)).toEqual([...waits.slice(0, firstIdle)].sort((a, b) => a - b));
    expect(rows.findIndex((r) => r.id === resolvedNow)).toBeGreaterThanOrEqual(firstIdle);
    expect(rows.slice(0, firstIdle).some((r) => r.status === 'resolved')).toBe(false);
  });
});
