// Finding 6: the list reshuffled under the cursor when a label was added (the label's activity
// moved the row to the top). Now the row the agent is on holds its place until they leave it.
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultView } from '../../renderer/src/conversations/view';
import { saveConversations } from '../../renderer/src/db/save';
import { ConversationList } from '../../renderer/src/screens/ConversationList';
import { ListOrder } from '../../renderer/src/conversations/list-order';
import { useUi } from '../../renderer/src/state/ui';
import { conv } from './fixtures';
import { renderWithSession, silentBridge, testSession } from './support/render';

const order = new ListOrder();
const listbox = () => screen.getByRole('listbox', { name: /conversations/ });
const renderedIds = () => within(listbox()).queryAllByRole('option').map((o) => Number(o.getAttribute('data-conversation-id')));

beforeEach(() => useUi.setState({ view: defaultView, activeConversationId: undefined, selectedConversationId: undefined }));

describe('the list holds still under the agent', () => {
  it('a row the cursor is on keeps its place when its activity moves it; it moves once the cursor leaves it', async () => {
    const { db } = renderWithSession(<ConversationList order={order} />, { bridge: silentBridge, session: testSession() });
    const rows = [1, 2, 3, 4, 5].map((id) => conv(id, { assignee: 2, lastActivityAt: 1_000 - id, labels: [] }));
    await saveConversations(db, rows);
    await waitFor(() => expect(renderedIds()).toEqual([1, 2, 3, 4, 5]));
    act(() => useUi.getState().moveCursor(3));

    // A label lands on #3 (the service's record comes back with later activity and a newer update).
    await saveConversations(db, [{ ...conv(3, { assignee: 2, lastActivityAt: 2_000, labels: ['vip'] }), updated_at: 2_000 }]);
    await waitFor(() => expect(within(listbox()).getByText('vip')).toBeTruthy());
    expect(renderedIds()).toEqual([1, 2, 3, 4, 5]);
    expect(order.current).toEqual([1, 2, 3, 4, 5]);

    // j: the cursor moves to #4; #3 takes its new place at the top, #4 stays where it is.
    act(() => useUi.getState().moveCursor(4));
    await waitFor(() => expect(renderedIds()).toEqual([3, 1, 2, 4, 5]));
  });
});
