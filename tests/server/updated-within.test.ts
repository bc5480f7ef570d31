// GET A/conversations?updated_within=<seconds> (chatwoot-compat §7; SYNC-PROTOCOL.md): every conversation
// updated within that many seconds of the service clock, unpaginated; the other filters still apply;
// the counts are the usual ones (the reference computes them before this filter).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_NOW, demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, agentConversation, expectSpecErrorShape, hiddenFromAgent } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

// Later than anything the demo seeded, and a day later for each test, so only what a test touches counts as recent.
let T = DEMO_NOW + 10 * 86_400_000;
beforeEach(() => {
  T += 86_400_000;
  svc.setNow(T);
});

type List = { data: { meta: Record<string, number>; payload: { id: number; status: string; inbox_id: number }[] } };
const list = async (query: string, token = svc.creds.adminToken) => {
  const res = await svc.request({ url: `${A}/conversations?${query}`, token });
  expect(res.status, res.text).toBe(200);
  return res.body as List;
};
const ids = (l: List) => l.data.payload.map((c) => c.id).sort((a, b) => a - b);
/** Sets updated_at directly (the list reads the column; the write paths that set it are tested elsewhere). */
const touch = (displayIds: number[], at: number) => {
  for (const id of displayIds) svc.db.prepare('UPDATE conversations SET updated_at = ? WHERE account_id = ? AND display_id = ?').run(at, svc.creds.accountId, id);
};
const displayIds = (where: string, limit: number) =>
  (svc.db.prepare(`SELECT display_id FROM conversations c WHERE account_id = ? AND ${where} ORDER BY id LIMIT ?`).all(svc.creds.accountId, limit) as { display_id: number }[]).map((r) => r.display_id);

describe('GET A/conversations?updated_within=', () => {
  it('answers the conversations updated within that many seconds of the service clock, and no others', async () => {
    const [recent, older] = displayIds("status = 'open'", 2) as [number, number];
    touch([recent], T - 30_000);
    touch([older], T - 90_000);
    expect(ids(await list('updated_within=60'))).toEqual([recent]);
    expect(ids(await list('updated_within=120'))).toEqual([recent, older].sort((a, b) => a - b));
    expect(ids(await list('updated_within=10'))).toEqual([]);
    svc.setNow(T + 45_000);
    expect(ids(await list('updated_within=60'))).toEqual([]);
  });

  it('a write through the API counts (updated_at is the service clock)', async () => {
    const id = agentConversation(svc, "c.status = 'open'");
    svc.setNow(T + 3_600_000);
    expect(ids(await list('updated_within=5'))).toEqual([]);
    expect((await svc.request({ method: 'POST', url: `${A}/conversations/${id}/messages`, token: svc.creds.adminToken, payload: { content: 'now' } })).status).toBe(200);
    expect(ids(await list('updated_within=5'))).toEqual([id]);
  });

  it('is not paginated: more than a page (25) comes back at once, whatever page is asked', async () => {
    const many = displayIds('1 = 1', 40);
    touch(many, T - 1000);
    const all = await list('updated_within=60&status=all');
    expect(ids(all)).toEqual([...many].sort((a, b) => a - b));
    expect(ids(await list('updated_within=60&status=all&page=2'))).toEqual(ids(all));
    expect((await list('status=all')).data.payload.length).toBe(25);
  });

  it('the other filters still apply (status, inbox, assignee type, visibility), and the counts are the usual ones', async () => {
    const open = displayIds("status = 'open'", 3);
    const resolved = displayIds("status = 'resolved'", 2);
    touch([...open, ...resolved], T - 1000);
    expect(ids(await list('updated_within=60'))).toEqual([...open].sort((a, b) => a - b));
    expect(ids(await list('updated_within=60&status=resolved'))).toEqual([...resolved].sort((a, b) => a - b));
    const inbox = (await list('updated_within=60')).data.payload[0]!.inbox_id;
    expect((await list(`updated_within=60&inbox_id=${inbox}`)).data.payload.every((c) => c.inbox_id === inbox)).toBe(true);
    const unassigned = open.filter((id) => (svc.db.prepare('SELECT assignee_id FROM conversations WHERE account_id = ? AND display_id = ?').get(svc.creds.accountId, id) as { assignee_id: number | null }).assignee_id === null);
    expect(ids(await list('updated_within=60&assignee_type=unassigned'))).toEqual(unassigned.sort((a, b) => a - b));
    expect((await list('updated_within=60')).data.meta).toEqual((await list('')).data.meta);

    const hidden = hiddenFromAgent(svc);
    const visible = agentConversation(svc);
    touch([hidden, visible], T);
    const agentView = ids(await list('updated_within=1&status=all', svc.creds.agentToken));
    expect(agentView).toContain(visible);
    expect(agentView).not.toContain(hidden);
  });

  it('a malformed value is 400 {error}; 0 seconds lists nothing', async () => {
    for (const bad of ['abc', '-5', '1.5', '', '99999999999999999999']) {
      const res = await svc.request({ url: `${A}/conversations?updated_within=${bad}`, token: svc.creds.adminToken });
      expect(res.status, bad).toBe(400);
      expectSpecErrorShape(res.body, bad);
    }
    expect((await list('updated_within=0')).data.payload).toEqual([]);
  });
});
