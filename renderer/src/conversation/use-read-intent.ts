// The conversation the agent is about to open, read before they open it (read-ahead.ts `prepare`):
// the row the pointer rests on, and the row the keyboard's highlight rests on (j, k). A read asked
// by the click or the key itself comes in only after the frame that follows it (Chromium holds a
// page's tasks back after input until then), so its messages showed a frame or two later; read
// while the agent aims, they show in the click's or the key's own frame.
import type { PointerEvent } from 'react';
import { useEffect, useMemo } from 'react';
import { useSession } from '../platform/session';
import { useUi } from '../state/ui';

/**
 * How long the pointer or the highlight rests on a row before its conversation is read: passing
 * over rows on the way to another, or holding j, reads none of them.
 */
export const INTENT_MS = 80;

/** One row at a time: resting on another forgets the last. */
class Intent {
  private id: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly prepare: (id: number) => void) {}

  restsOn(id: number | undefined): void {
    if (id === this.id) return;
    clearTimeout(this.timer);
    this.id = id;
    if (id === undefined) return;
    this.timer = setTimeout(() => {
      this.id = undefined;
      // The open one is read already (its view hands its read back when it closes).
      if (id !== useUi.getState().selectedConversationId) this.prepare(id);
    }, INTENT_MS);
  }
}

/** The row (its conversation) an event happened on, in the conversation list. */
function rowOf(target: EventTarget | null): number | undefined {
  const row = target instanceof Element ? target.closest<HTMLElement>('[data-conversation-id]') : null;
  const id = Number(row?.dataset.conversationId);
  return Number.isInteger(id) ? id : undefined;
}

/** For the conversation list: the pointer's handlers for its rows; the keyboard's highlight is followed from the store. */
export function useReadIntent(): { onPointerOver(e: PointerEvent): void; onPointerLeave(): void } {
  const { client } = useSession();
  const intent = useMemo(() => new Intent((id) => client.conversations.readAhead.prepare(id)), [client]);
  useEffect(() => {
    const stop = useUi.subscribe((state, prev) => {
      if (state.activeConversationId !== prev.activeConversationId) intent.restsOn(state.activeConversationId);
    });
    return () => {
      stop();
      intent.restsOn(undefined);
    };
  }, [intent]);
  return useMemo(() => ({ onPointerOver: (e: PointerEvent) => intent.restsOn(rowOf(e.target)), onPointerLeave: () => intent.restsOn(undefined) }), [intent]);
}
