// A fresh directory (issue 11, findings 3 and 5): a team deleted on the service leaves the picker
// when the service says its teams changed (`account.cache_invalidated`), a pick of a team deleted
// meanwhile is explained instead of "Saving 1 change…" and then nothing, and the assigned team
// shows on rows, in the header and in activity lines. Against the real bridge and demo service.
import { render, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLiveEvent } from '../../shared/api/live-events';
import type { LiveEvent } from '../../shared/api/live-events';
import { assignTeam } from '../../renderer/src/actions/agent-actions';
import { ActivityText } from '../../renderer/src/components/ActivityText';
import { ConversationRow } from '../../renderer/src/components/ConversationRow';
import { teamLabel } from '../../renderer/src/directory/team-label';
import type { Directory } from '../../renderer/src/directory/use-directory';
import { DirectoryContext } from '../../renderer/src/directory/use-directory';
import { createLiveHandler } from '../../renderer/src/live/live-handler';
import { toCachedConversation } from '../../renderer/src/model/normalize';
import { directoryFollower, readDirectory } from '../../renderer/src/sync/directory';
import { liveDelivery } from '../../server/live/payloads';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { conv } from './fixtures';
import { demoBridge } from './support/demo-bridge';
import type { DemoBridge } from './support/demo-bridge';
import { readersFor } from './support/live-deps';
import { actionContext, agentConversations, seededDb, serviceConversation, startSender } from './support/outbox-harness';

let svc: DemoService;
let demo: DemoBridge;
const pushes: LiveEvent[] = [];
beforeAll(async () => {
  svc = await demoService();
  demo = await demoBridge(svc);
  svc.bus.on((event) => {
    const delivery = liveDelivery(svc.db, event);
    const parsed = delivery && parseLiveEvent(delivery.name, delivery.data);
    if (parsed?.ok) pushes.push(parsed.event);
  });
});
afterAll(() => svc.close());

const A = () => `/api/v1/accounts/${svc.creds.accountId}`;
async function newTeam(name: string): Promise<{ id: number; name: string }> {
  const r = await svc.request({ method: 'POST', url: `${A()}/teams`, token: svc.creds.adminToken, payload: { team: { name } } });
  expect(r.status).toBe(200);
  return r.body as { id: number; name: string };
}
const deleteTeam = async (id: number) => expect((await svc.request({ method: 'DELETE', url: `${A()}/teams/${id}`, token: svc.creds.adminToken })).status).toBe(200);

describe('a deleted team', () => {
  it('leaves the cached directory when the service says the teams changed', async () => {
    const team = await newTeam(`leaving ${Date.now()}`);
    const db = await seededDb(demo, []);
    await readDirectory(demo.bridge, db);
    expect((await db.teams.toArray()).map((t) => t.id)).toContain(team.id);
    let caughtUp = 0;
    const follower = directoryFollower(demo.bridge, db, () => caughtUp++);
    const handler = createLiveHandler({ db, ...readersFor(demo.bridge, db), accountId: svc.creds.accountId, meId: demo.session.user.id, openConversationId: () => undefined, directoryChanged: () => void follower.refresh() });
    const from = pushes.length;
    await deleteTeam(team.id);
    const told = pushes.slice(from).filter((e) => e.type === 'account.cache_invalidated');
    expect(told).toHaveLength(1);
    await handler.handle(told[0]!);
    await waitFor(async () => expect((await db.teams.toArray()).map((t) => t.id)).not.toContain(team.id));
    // Conversations may have lost it without an event: the client catches up.
    expect(caughtUp).toBe(1);
  });

  it('picked after it was deleted: the agent is told why, the directory is read again, and nothing is left saving', async () => {
    const team = await newTeam(`gone ${Date.now()}`);
    const [id] = agentConversations(svc, "c.status = 'open' AND c.team_id IS NULL", 1) as [number];
    const db = await seededDb(demo, [id]);
    await readDirectory(demo.bridge, db);
    // Deleted by an administrator while this agent's directory still lists it (no live event heard).
    await deleteTeam(team.id);
    let stale = 0;
    const notices: string[] = [];
    const { OutboxSender } = await import('../../renderer/src/actions/sender');
    const sender = new OutboxSender({ db, bridge: demo.bridge, notify: (t) => notices.push(t), directoryStale: () => void readDirectory(demo.bridge, db).then(() => stale++) });
    void sender.start();
    await assignTeam(actionContext(db, demo), [id], { id: team.id, name: team.name });
    await waitFor(() => expect(notices.join('\n')).toMatch(new RegExp(`#${id}: the service no longer has the team ${team.name}`)));
    await waitFor(() => expect(stale).toBe(1));
    sender.stop();
    expect(await db.outbox.where('state').anyOf('queued', 'sending').count()).toBe(0);
    expect((await db.teams.toArray()).map((t) => t.id)).not.toContain(team.id);
    expect((await db.conversations.get(id))?.teamId).toBe((await serviceConversation(demo, id)).meta.team?.id ?? 0);
  });

  it('still picked while it exists goes as before (no notice)', async () => {
    const team = await newTeam(`staying ${Date.now()}`);
    const [id] = agentConversations(svc, "c.status = 'open' AND c.team_id IS NULL AND c.assignee_id IS NULL", 1) as [number];
    const db = await seededDb(demo, [id]);
    const notices: string[] = [];
    const sender = startSender(db, demo.bridge, notices);
    await assignTeam(actionContext(db, demo), [id], { id: team.id, name: team.name });
    await waitFor(async () => expect((await db.outbox.toArray()).every((e) => e.state === 'confirmed')).toBe(true));
    sender.stop();
    expect(notices).toEqual([]);
    expect((await serviceConversation(demo, id)).meta.team?.id).toBe(team.id);
  });
});

describe('the assigned team is visible', () => {
  const directory = (teams: { id: number; name: string }[]): Directory => ({
    inboxes: [],
    agents: [{ id: 9, name: 'Jordan Lee', available_name: 'Jordan Lee', email: 'j@x', role: 'agent', availability_status: 'online' }],
    teams: teams.map((t) => ({ ...t, description: '', is_member: false })),
    labels: [],
    cannedResponses: [],
  });

  it('on a list row, and not once the directory no longer lists it', () => {
    const row = toCachedConversation(conv(5, { team: 3 }));
    const props = { c: row, showStatus: false, active: false, open: false, checked: false, selecting: false, index: 0, count: 1, start: 0, height: 67, onOpen: () => undefined };
    const { rerender } = render(<ConversationRow {...props} directory={directory([{ id: 3, name: 'billing' }])} />);
    expect(screen.getByTestId('row-team').textContent).toBe('Team billing');
    rerender(<ConversationRow {...props} directory={directory([{ id: 4, name: 'sales' }])} />);
    expect(screen.queryByTestId('row-team')).toBeNull();
  });

  it('the header\'s name: the directory\'s, the record\'s before the directory is read, none once deleted', () => {
    expect(teamLabel(3, directory([{ id: 3, name: 'billing' }]).teams, 'old name')).toBe('billing');
    expect(teamLabel(3, [], 'billing')).toBe('billing');
    expect(teamLabel(3, directory([{ id: 4, name: 'sales' }]).teams, 'billing')).toBeUndefined();
    expect(teamLabel(0, [], 'billing')).toBeUndefined();
  });

  it('in an activity line about a team (not one about an agent)', () => {
    const dir = directory([{ id: 3, name: 'billing' }]);
    const { container, rerender } = render(
      <DirectoryContext.Provider value={dir}>
        <ActivityText text="Assigned to billing by Sam Patel" />
      </DirectoryContext.Provider>,
    );
    expect(container.textContent).toBe('Assigned to team billing by Sam Patel');
    expect(screen.getByTestId('activity-team').textContent).toBe('billing');
    rerender(
      <DirectoryContext.Provider value={dir}>
        <ActivityText text="Assigned to Jordan Lee by Sam Patel" />
      </DirectoryContext.Provider>,
    );
    expect(container.textContent).toBe('Assigned to Jordan Lee by Sam Patel');
    expect(screen.queryByTestId('activity-team')).toBeNull();
  });
});
