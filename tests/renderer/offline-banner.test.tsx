// The "Offline" banner across switches (issue 14). It used to rest on the open conversation's own
// reads, so offline it went with every switch and came back when the new reads failed (after
// main's retries, 0.4-1 s), moving the thread each time. It rests on the session's latest word now:
// a conversation opened after a read could not reach the service shows it from its first render,
// and the first read that reaches the service takes it away.
import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Bridge } from '../../shared/bridge/contract';
import { ServiceReachability } from '../../renderer/src/conversation/reachability';
import { BridgeFailure } from '../../renderer/src/platform/call';
import { saveConversations } from '../../renderer/src/db/save';
import { ConversationView } from '../../renderer/src/screens/ConversationView';
import { useUi } from '../../renderer/src/state/ui';
import { recordPage } from '../../renderer/src/sync/history';
import { conv, range } from './fixtures';
import { renderWithSession } from './support/render';

const offlineText = /Offline: showing what was saved/;
const banner = () => screen.queryByText(offlineText);
const unreachable = { ok: false, error: { kind: 'network', message: 'The service could not be reached.' } } as const;

/** A bridge whose answers the test gives: each call waits until `answerAll` answers it. */
function heldBridge() {
  const waiting: { name: string; answer: (r: unknown) => void }[] = [];
  const bridge = {
    call: (name: string) => new Promise((answer) => waiting.push({ name, answer })),
    on: () => () => undefined,
  } as unknown as Bridge;
  /** Answers every call waiting (and those its answers lead to) with what `of` gives for its name. */
  const answerAll = async (of: (name: string) => unknown) => {
    for (let round = 0; round < 20; round++) {
      await act(async () => {
        for (const w of waiting.splice(0)) w.answer(of(w.name));
        await new Promise((r) => setTimeout(r, 5));
      });
    }
  };
  return { bridge, answerAll, waiting: () => waiting.map((w) => w.name) };
}

beforeEach(() => useUi.setState({ notice: undefined, contactPanelOpen: true, jump: undefined }));

describe('the offline banner', () => {
  it('is shown from the first render of the next conversation while the service was unreachable, and goes once a read reaches it', async () => {
    const held = heldBridge();
    const { db, rerenderWith } = renderWithSession(<></>, { bridge: held.bridge });
    await saveConversations(db, [conv(7), conv(8)]);
    await recordPage(db, 7, { kind: 'latest' }, range(1, 20, 7));
    await recordPage(db, 8, { kind: 'latest' }, range(21, 40, 8));

    rerenderWith(<ConversationView conversationId={7} />);
    await screen.findByRole('log', { name: 'Messages' });
    // Nothing has failed yet: no banner.
    expect(banner()).toBeNull();
    await held.answerAll(() => unreachable);
    await waitFor(() => expect(banner()).not.toBeNull());

    // The switch: the banner is there in the first render, its reads not answered yet.
    rerenderWith(<ConversationView conversationId={8} />);
    expect(banner()).not.toBeNull();
    // Its reads are asked, and not answered.
    await waitFor(() => expect(held.waiting()).toEqual(expect.arrayContaining(['conversations.read', 'messages.list'])));
    expect(banner()).not.toBeNull();

    // The service answers again: the banner goes.
    await held.answerAll((name) => (name === 'messages.list' ? { ok: true, value: { payload: [] } } : unreachable));
    await waitFor(() => expect(banner()).toBeNull());
  });

  it('shows a failure other than an unreachable service, and never calls that offline', async () => {
    const held = heldBridge();
    const { db, rerenderWith } = renderWithSession(<></>, { bridge: held.bridge });
    await saveConversations(db, [conv(7)]);
    await recordPage(db, 7, { kind: 'latest' }, range(1, 20, 7));
    rerenderWith(<ConversationView conversationId={7} />);
    await screen.findByRole('log', { name: 'Messages' });
    await held.answerAll(() => ({ ok: false, error: { kind: 'validation', message: 'Refused by the service.' } }));
    await screen.findByText('Refused by the service.');
    expect(banner()).toBeNull();
  });
});

describe('ServiceReachability', () => {
  it('is unreachable after a read that could not reach the service, reachable after one answered; other failures say nothing', async () => {
    const r = new ServiceReachability();
    let told = 0;
    r.subscribe(() => told++);
    expect(r.isUnreachable()).toBe(false);
    await expect(r.heard(Promise.reject(new BridgeFailure({ kind: 'network', message: 'x' })))).rejects.toThrow('x');
    expect(r.isUnreachable()).toBe(true);
    await expect(r.heard(Promise.reject(new BridgeFailure({ kind: 'validation', message: 'y' })))).rejects.toThrow('y');
    expect(r.isUnreachable()).toBe(true);
    r.failed(new BridgeFailure({ kind: 'timeout', message: 'z' }));
    expect(r.isUnreachable()).toBe(true);
    await expect(r.heard(Promise.resolve(5))).resolves.toBe(5);
    expect(r.isUnreachable()).toBe(false);
    // Told of each change, once.
    expect(told).toBe(2);
  });
});
