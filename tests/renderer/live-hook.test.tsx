// The inbox's live-update hook and the header indicator, with a fake bridge that pushes events as
// main would: a catch-up revalidates the queries on screen (and only those), a notification click
// opens its conversation, events reach the cache, and the indicator says what main says.
import { useQuery } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { parseLiveEvent } from '../../shared/api/live-events';
import { LiveIndicator } from '../../renderer/src/components/LiveIndicator';
import { useLiveStatus } from '../../renderer/src/live/live-status';
import { useLiveUpdates } from '../../renderer/src/live/use-live-updates';
import { useClientRunning, useSession } from '../../renderer/src/platform/session';
import { useBridgeConnection } from '../../renderer/src/platform/connection';
import type { Bridge, BridgeConnection } from '../../shared/bridge/contract';
import { useUi } from '../../renderer/src/state/ui';
import { fakeBridge } from './fake-bridge';
import { msg } from './fixtures';
import { renderWithSession } from './support/render';

afterEach(() => useUi.getState().select(undefined));

let fetches = 0;
function OnScreen() {
  useClientRunning();
  useLiveUpdates();
  useQuery({ queryKey: ['on-screen'], queryFn: async () => ++fetches });
  return null;
}

function Indicator() {
  const { bridge } = useSession();
  return <LiveIndicator status={useLiveStatus(bridge)} />;
}

describe('useLiveUpdates', () => {
  it('a catch-up refetches the active queries; inactive ones wait until shown', async () => {
    fetches = 0;
    const fake = fakeBridge({ 'conversations.get': () => ({ ok: false, error: { kind: 'not_found', message: 'gone' } }) });
    const { client } = renderWithSession(<OnScreen />, { bridge: fake.bridge });
    // Mounted, then the client's own catch-up at start asks what is on screen again.
    await waitFor(() => expect(fetches).toBe(2));
    let offScreen = 0;
    await client.fetchQuery({ queryKey: ['off-screen'], queryFn: async () => ++offScreen });
    act(() => fake.emit('live.catchUp', { reason: 'not_recovered' }));
    await waitFor(() => expect(fetches).toBe(3));
    expect(offScreen).toBe(1);
    expect(client.getQueryState(['off-screen'])?.isInvalidated).toBe(true);
  });

  it('applies live events to the session cache, and a notification click opens the conversation', async () => {
    const fake = fakeBridge({ 'conversations.get': () => ({ ok: false, error: { kind: 'network', message: 'unreachable' } }) });
    const { db, session } = renderWithSession(<OnScreen />, { bridge: fake.bridge });
    const e = parseLiveEvent('message.created', { ...msg(700, 12, { content: 'pushed in' }), account_id: session.accountId, conversation: { assignee_id: null } });
    if (!e.ok) throw new Error('fixture');
    act(() => fake.emit('live.event', e.event));
    await waitFor(async () => expect((await db.messages.get(700))?.content).toBe('pushed in'));
    act(() => fake.emit('app.notificationClicked', { conversationId: 12 }));
    expect(useUi.getState().selectedConversationId).toBe(12);
  });
});

describe('the connection indicator', () => {
  it('shows main\'s state, and follows live.status', async () => {
    const fake = fakeBridge({ 'app.liveStatus': () => ({ ok: true, value: { state: 'connected', recovered: false } }) });
    renderWithSession(<Indicator />, { bridge: fake.bridge });
    const status = await screen.findByRole('status');
    await waitFor(() => expect(status.textContent).toBe('Live updates: Live. New messages and changes appear as they happen.'));
    act(() => fake.emit('live.status', { state: 'offline' }));
    expect(status.textContent).toContain('Offline');
    expect(status.textContent).toContain('reconnecting automatically');
    expect(status.getAttribute('data-state')).toBe('offline');
    act(() => fake.emit('live.status', { state: 'connected', recovered: true }));
    expect(status.textContent).toContain('Live updates: Live');
  });
});

describe('the indicator never contradicts the link', () => {
  it('says offline while the page cannot hear main (web mode\'s host killed), whatever main said last; asks again when the link is back', async () => {
    const listeners = new Set<(s: BridgeConnection) => void>();
    const connection = (s: BridgeConnection) => listeners.forEach((l) => l(s));
    const fake = fakeBridge({ 'app.liveStatus': () => ({ ok: true, value: { state: 'connected', recovered: false } }) });
    const bridge = { ...fake.bridge, onConnection: (l: (s: BridgeConnection) => void) => (listeners.add(l), () => listeners.delete(l)) } as Bridge;
    function Header() {
      return <LiveIndicator status={useLiveStatus(bridge)} link={useBridgeConnection(bridge)} />;
    }
    renderWithSession(<Header />, { bridge });
    const status = await screen.findByRole('status');
    act(() => connection('connected'));
    await waitFor(() => expect(status.getAttribute('data-state')).toBe('connected'));
    act(() => connection('disconnected'));
    expect(status.getAttribute('data-state')).toBe('offline');
    expect(status.textContent).toContain("background process is not answering");
    const asked = fake.callsTo('app.liveStatus').length;
    act(() => connection('connected'));
    await waitFor(() => expect(fake.callsTo('app.liveStatus').length).toBe(asked + 1));
    expect(status.getAttribute('data-state')).toBe('connected');
  });
});

