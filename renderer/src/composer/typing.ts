// The agent's own typing, told to the service (`toggle_typing_status`) so colleagues and the contact
// see it, throttled as Chatwoot's dashboard does it: "on" when the agent starts typing, again only
// every 20 s while they keep typing (the others clear an indicator 30 s after the last "on"), "off"
// after 3 s without a key, when the message goes, when the box loses focus, or when the agent moves
// to another conversation or switches between reply and note. Transient: a lost one is not retried
// (the others' 30 s timeout covers a lost "off").
export interface TypingReporterDeps {
  send(conversationId: number, on: boolean, isPrivate: boolean): void;
  now(): number;
  timer(ms: number, onFire: () => void): () => void;
}

export const TYPING_IDLE_MS = 3_000;
export const TYPING_REPEAT_MS = 20_000;

export function createTypingReporter(deps: TypingReporterDeps) {
  let on: { conversationId: number; isPrivate: boolean; sentAt: number } | undefined;
  let cancelIdle: (() => void) | undefined;

  function stopped() {
    cancelIdle?.();
    cancelIdle = undefined;
    if (!on) return;
    deps.send(on.conversationId, false, on.isPrivate);
    on = undefined;
  }

  function typed(conversationId: number, isPrivate: boolean) {
    if (on && (on.conversationId !== conversationId || on.isPrivate !== isPrivate)) stopped();
    const now = deps.now();
    if (!on || now - on.sentAt >= TYPING_REPEAT_MS) {
      deps.send(conversationId, true, isPrivate);
      on = { conversationId, isPrivate, sentAt: now };
    }
    cancelIdle?.();
    cancelIdle = deps.timer(TYPING_IDLE_MS, stopped);
  }

  return {
    /** A key that changed the text of this conversation's box. */
    typed,
    /** The agent stopped (sent, left the box, emptied it, left the conversation). */
    stopped,
  };
}
export type TypingReporter = ReturnType<typeof createTypingReporter>;
