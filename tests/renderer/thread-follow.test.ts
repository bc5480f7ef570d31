// The thread-following rules (conversation/follow.ts), pure: from where the agent is and what
// happened to the thread, what the view does. And what the list shows (conversation/thread-items.ts):
// day dividers, the "New" separator, gaps, and keys that never move under a prepend.
import { describe, expect, it } from 'vitest';
import { AT_BOTTOM_PX, follow, initialFollow, pillText } from '../../renderer/src/conversation/follow';
import type { FollowState, ThreadChange } from '../../renderer/src/conversation/follow';
import { dayLabel, firstUnreadId, threadItems, UNREAD_CAP } from '../../renderer/src/conversation/thread-items';
import { msg } from './fixtures';

const run = (state: FollowState, ...changes: ThreadChange[]) => {
  let s = state;
  const toBottom: boolean[] = [];
  for (const c of changes) {
    const d = follow(s, c);
    s = d.state;
    toBottom.push(d.toBottom);
  }
  return { state: s, toBottom };
};
const scrolledUp: FollowState = { atBottom: false, unseen: 0 };

describe('following the thread', () => {
  it('at the bottom, new messages and content that grows keep the view at the bottom', () => {
    expect(run(initialFollow, { kind: 'appended', others: 1, own: false }, { kind: 'resized' }).toBottom).toEqual([true, true]);
  });

  it("the agent's own send comes into view at the bottom, even from far up", () => {
    const r = run(scrolledUp, { kind: 'appended', others: 0, own: true });
    expect(r).toEqual({ state: { atBottom: true, unseen: 0 }, toBottom: [true] });
  });

  it("the send's echo growing its bubble (Sending… becomes the time) keeps the bottom (finding 1)", () => {
    const r = run(initialFollow, { kind: 'appended', others: 0, own: true }, { kind: 'appended', others: 0, own: true }, { kind: 'resized' });
    expect(r.toBottom).toEqual([true, true, true]);
  });

  it('scrolled up, nothing moves; what others write is counted for the pill', () => {
    const r = run(scrolledUp, { kind: 'appended', others: 2, own: false }, { kind: 'resized' }, { kind: 'appended', others: 1, own: false });
    expect(r.toBottom).toEqual([false, false, false]);
    expect(r.state).toEqual({ atBottom: false, unseen: 3 });
    expect(pillText(r.state)).toBe('3 new messages');
    expect(pillText({ atBottom: false, unseen: 1 })).toBe('1 new message');
  });

  it('back at the bottom (by scrolling or the pill) the count clears', () => {
    const r = run({ atBottom: false, unseen: 4 }, { kind: 'scrolled', distanceFromBottom: 0 });
    expect(r.state).toEqual({ atBottom: true, unseen: 0 });
    expect(pillText(r.state)).toBeUndefined();
  });

  it('a little slack still counts as the bottom; more does not', () => {
    expect(follow(initialFollow, { kind: 'scrolled', distanceFromBottom: AT_BOTTOM_PX }).state.atBottom).toBe(true);
    expect(follow(initialFollow, { kind: 'scrolled', distanceFromBottom: AT_BOTTOM_PX + 1 }).state.atBottom).toBe(false);
  });

  it('older pages and a jump to a search hit never count as new, and never pull to the bottom', () => {
    const r = run(initialFollow, { kind: 'jumped' }, { kind: 'prepended' }, { kind: 'resized' }, { kind: 'appended', others: 1, own: false });
    expect(r.toBottom).toEqual([false, false, false, false]);
    expect(r.state).toEqual({ atBottom: false, unseen: 1 });
  });
});

describe('what the thread shows', () => {
  const now = new Date(2026, 2, 12, 15, 0);
  const at = (y: number, m: number, d: number, h = 10) => new Date(y, m, d, h).getTime() / 1000;

  it('a divider where the day changes, with Today, Yesterday, a weekday, else the date', () => {
    expect(dayLabel(at(2026, 2, 12), now)).toBe('Today');
    expect(dayLabel(at(2026, 2, 11), now)).toBe('Yesterday');
    expect(dayLabel(at(2026, 2, 9), now)).toBe(new Date(2026, 2, 9).toLocaleDateString(undefined, { weekday: 'long' }));
    expect(dayLabel(at(2025, 11, 1), now)).toContain('2025');
    const messages = [msg(1, 1, { created_at: at(2026, 2, 11, 9) }), msg(2, 1, { created_at: at(2026, 2, 11, 18) }), msg(3, 1, { created_at: at(2026, 2, 12, 8) })];
    const items = threadItems(messages, [], false, { now });
    expect(items.map((i) => (i.kind === 'day' ? `day:${i.label}` : i.key))).toEqual(['start', 'day:Yesterday', 'm1', 'm2', 'day:Today', 'm3']);
  });

  it('no divider above the first message held while older ones may be the same day, and keys that survive a prepend', () => {
    const day = at(2026, 2, 12, 9);
    const page = [msg(10, 1, { created_at: day }), msg(11, 1, { created_at: day + 60 })];
    const before = threadItems(page, [], true, { now }).map((i) => i.key);
    expect(before).toEqual(['m10', 'm11']);
    const older = [msg(5, 1, { created_at: at(2026, 2, 11, 9) }), ...page];
    const after = threadItems(older, [], true, { now }).map((i) => i.key);
    // What was on screen keeps its keys; the new divider sits above m10, keyed by it.
    expect(after).toEqual(['m5', 'day-10', 'm10', 'm11']);
  });

  it('the New separator above the first unread message, and gaps where history is missing', () => {
    const messages = [msg(1), msg(2, 1, { message_type: 1 }), msg(3), msg(9)];
    const items = threadItems(messages, [{ after: 3, before: 9, lazy: true }], false, { newFrom: 3, now: new Date(0) });
    expect(items.map((i) => i.key)).toEqual(['start', 'day-1', 'm1', 'm2', 'new-3', 'm3', 'gap-3', 'm9']);
  });

  it('the first unread: by count below the cap, by last seen at the cap, none when it may not be held', () => {
    const messages = [msg(1, 1, { created_at: 100 }), msg(2, 1, { message_type: 1, created_at: 200 }), msg(3, 1, { created_at: 300 }), msg(4, 1, { created_at: 400 })];
    expect(firstUnreadId(messages, { unread: 2 }, false)).toBe(3);
    expect(firstUnreadId(messages, { unread: 0 }, false)).toBeUndefined();
    expect(firstUnreadId(messages, { unread: 5 }, false)).toBeUndefined();
    // The service's count stops at 10: last seen tells where reading stopped.
    expect(firstUnreadId(messages, { unread: UNREAD_CAP, seenAt: 250 }, false)).toBe(3);
    expect(firstUnreadId(messages, { unread: UNREAD_CAP }, false)).toBeUndefined();
    // Everything held is unread and older pages exist: the first unread may not be loaded.
    expect(firstUnreadId(messages, { unread: UNREAD_CAP, seenAt: 0 }, true)).toBeUndefined();
    expect(firstUnreadId(messages, { unread: UNREAD_CAP, seenAt: 0 }, false)).toBe(1);
  });
});
