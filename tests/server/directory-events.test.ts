// `account.cache_invalidated` (chatwoot-compat §4.3): when an administrator changes the account's
// teams or labels, every agent of the account hears it, so the app reads its directory again
// (a deleted team leaves the assign picker without a restart).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveDelivery } from '../../server/live/payloads';
import { rooms } from '../../server/live/rooms';
import { DEMO_NOW, demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { accountPath, AGENT_EMAIL, recordEvents, userIdOf } from './fixtures';

let svc: DemoService;
let A: string;
beforeAll(async () => {
  svc = await demoService();
  A = accountPath(svc);
});
afterAll(() => svc.close());

const admin = (method: string, url: string, payload?: unknown) => svc.request({ method, url: `${A}${url}`, token: svc.creds.adminToken, ...(payload ? { payload } : {}) });

describe('account.cache_invalidated', () => {
  it('follows every change of a team or a label, to every agent of the account', async () => {
    const { events, off } = recordEvents(svc);
    const team = (await admin('POST', '/teams', { team: { name: 'escalations' } })).body as { id: number };
    await admin('PATCH', `/teams/${team.id}`, { team: { description: 'the hard ones' } });
    await admin('DELETE', `/teams/${team.id}`);
    const label = (await admin('POST', '/labels', { label: { title: 'chargeback-review' } })).body as { id: number };
    await admin('PATCH', `/labels/${label.id}`, { label: { description: 'money back' } });
    await admin('DELETE', `/labels/${label.id}`);
    off();
    const told = events.filter((e) => e.name === 'account.cache_invalidated');
    expect(told.map((e) => (e as { changed: string }).changed)).toEqual(['team', 'team', 'team', 'label', 'label', 'label']);
    const delivery = liveDelivery(svc.db, told[2]!)!;
    expect(delivery).toEqual({ name: 'account.cache_invalidated', data: { cache_keys: { team: DEMO_NOW }, account_id: svc.creds.accountId }, to: [rooms.account(svc.creds.accountId)], except: [] });
  });

  it('follows every change of an inbox or of who is in one', async () => {
    const { events, off } = recordEvents(svc);
    const inbox = (await admin('POST', '/inboxes', { name: 'Returns', channel: { type: 'api' } })).body as { id: number };
    await admin('PATCH', `/inboxes/${inbox.id}`, { name: 'Returns desk' });
    await admin('POST', '/inbox_members', { inbox_id: inbox.id, user_ids: [userIdOf(svc, AGENT_EMAIL)] });
    await admin('DELETE', `/inboxes/${inbox.id}`);
    off();
    expect(events.filter((e) => e.name === 'account.cache_invalidated').map((e) => (e as { changed: string }).changed)).toEqual(['inbox', 'inbox', 'inbox', 'inbox']);
  });

  it('is not sent for a refused change', async () => {
    const { events, off } = recordEvents(svc);
    expect((await svc.request({ method: 'POST', url: `${A}/teams`, token: svc.creds.agentToken, payload: { team: { name: 'nope' } } })).status).toBe(401);
    expect((await admin('POST', '/labels', { label: { title: 'has space' } })).status).toBe(422);
    off();
    expect(events.filter((e) => e.name === 'account.cache_invalidated')).toEqual([]);
  });
});
