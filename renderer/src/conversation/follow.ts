// The thread-following rules, pure: from where the agent is (at the bottom or not, what they have
// not seen) and what just happened to the thread, what the view does. The message list feeds it
// every scroll and every change of its content, and carries out the answer.
//
// - At the bottom, the thread stays at the bottom: new messages, the agent's own send, and content
//   that grows (a message measured, an image loaded, "Sending…" becoming the time) all keep the
//   newest line in view.
// - The agent's own new message always comes into view, wherever they had scrolled to.
// - Scrolled up, nothing moves: other people's new messages are counted for the "N new messages"
//   pill instead, until the agent is back at the bottom.
// - Older pages prepended and a jump to a search hit never count as new.

/** How close to the bottom (px) still counts as at the bottom: a line of slack for rounding and a half-read last line. */
export const AT_BOTTOM_PX = 32;

export interface FollowState {
  atBottom: boolean;
  /** Messages from others that arrived while the agent was scrolled up. */
  unseen: number;
}

export type ThreadChange =
  /** The agent (or we) scrolled: how far the view now is from the bottom. */
  | { kind: 'scrolled'; distanceFromBottom: number }
  /** Messages newer than the newest shown arrived. `own`: one of them is the agent's own new message. */
  | { kind: 'appended'; others: number; own: boolean }
  /** The content's height changed without new messages (measurement, an image, a state line). */
  | { kind: 'resized' }
  /** Older messages were added above. */
  | { kind: 'prepended' }
  /** The view moved to a message in the middle (a search hit). */
  | { kind: 'jumped' };

export interface FollowDecision {
  state: FollowState;
  /** Scroll to the newest line now. */
  toBottom: boolean;
}

export const initialFollow: FollowState = { atBottom: true, unseen: 0 };

export function follow(state: FollowState, change: ThreadChange): FollowDecision {
  switch (change.kind) {
    case 'scrolled': {
      const atBottom = change.distanceFromBottom <= AT_BOTTOM_PX;
      return { state: { atBottom, unseen: atBottom ? 0 : state.unseen }, toBottom: false };
    }
    case 'appended':
      if (change.own || state.atBottom) return { state: { atBottom: true, unseen: 0 }, toBottom: true };
      return { state: { atBottom: false, unseen: state.unseen + change.others }, toBottom: false };
    case 'resized':
      return { state, toBottom: state.atBottom };
    case 'prepended':
      return { state, toBottom: false };
    case 'jumped':
      return { state: { atBottom: false, unseen: 0 }, toBottom: false };
  }
}

/** What the pill says, or nothing when it is not shown. */
export function pillText(state: FollowState): string | undefined {
  if (state.atBottom || state.unseen <= 0) return undefined;
  return state.unseen === 1 ? '1 new message' : `${state.unseen} new messages`;
}
