// Finding 7: at 1024 px the `i` key did nothing (it opened the side panel, which narrow windows do
// not show). `i` and the header's Contact button now share one toggle that knows the width.
import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useInboxContext } from '../../renderer/src/screens/inbox-context';
import { useUi } from '../../renderer/src/state/ui';
import { ListOrder } from '../../renderer/src/conversations/list-order';

const realMatchMedia = window.matchMedia;
const narrow = (matches: boolean) => (window.matchMedia = ((query: string) => ({ ...realMatchMedia(query), matches })) as typeof window.matchMedia);
afterEach(() => (window.matchMedia = realMatchMedia));

function context() {
  const ref = <T,>(current: T) => ({ current });
  const { result } = renderHook(() =>
    useInboxContext({ actions: {} as never, order: new ListOrder(), directoryRef: ref(undefined as never), unsentRef: ref({ waiting: [], failed: [] }), rowsRef: ref(new Map()), conflictRef: ref(undefined), notifyRef: ref(undefined) }),
  );
  return result.current();
}

describe('i: the contact details', () => {
  it('in a narrow window (1024 px) shows the contact in the place of the conversation, and i again goes back', () => {
    narrow(true);
    useUi.setState({ selectedConversationId: 5, narrowPane: 'conversation', contactPanelOpen: false });
    context().toggleContactPanel();
    expect(useUi.getState().narrowPane).toBe('contact');
    context().toggleContactPanel();
    expect(useUi.getState().narrowPane).toBe('conversation');
  });

  it('in a wide window opens and closes the panel beside the conversation', () => {
    narrow(false);
    useUi.setState({ selectedConversationId: 5, narrowPane: 'conversation', contactPanelOpen: false });
    context().toggleContactPanel();
    expect(useUi.getState()).toMatchObject({ contactPanelOpen: true, narrowPane: 'conversation' });
  });
});
