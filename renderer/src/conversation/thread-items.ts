// What the message list shows, in order, from the held messages (pure): the start of the
// conversation once nothing older remains, holes still loading, a divider where the day changes,
// the "New" separator above the first message that was unread when the conversation opened, and
// the messages. Keys never move between items: a divider is keyed by the message below it and only
// drawn once the message above it is held too, so a prepended page never re-keys what is on screen
// (the virtualizer anchors the view on keys).
import type { Message } from '../../../shared/api/records';
import type { HistoryGap } from '../db/schema';

export type ThreadItem =
  | { key: string; kind: 'start' }
  | { key: string; kind: 'gap'; gap: HistoryGap }
  | { key: string; kind: 'day'; label: string; at: number }
  | { key: string; kind: 'new' }
  | { key: string; kind: 'message'; message: Message };

const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** "Today", "Yesterday", a weekday within the week, else the date (with the year when not this one). */
export function dayLabel(epochSeconds: number, now: Date = new Date()): string {
  const d = new Date(epochSeconds * 1000);
  if (sameDay(d, now)) return 'Today';
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (sameDay(d, yesterday)) return 'Yesterday';
  const weekAgo = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 6);
  if (d >= weekAgo && d < now) return d.toLocaleDateString(undefined, { weekday: 'long' });
  return d.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'long', ...(d.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }) });
}

/** The service caps a conversation's unread count at 10 (chatwoot-compat: `.last(10).count`). */
export const UNREAD_CAP = 10;

/**
 * The first message unread when the conversation opened. Below the cap, the `unread` newest
 * messages from the contact (the service counts incoming messages after the agent last looked);
 * at the cap, the first incoming one after `seenAt` (when the agent last looked; 0 for never).
 * Undefined when none were unread, or when the first of them may not be held (older messages not
 * loaded yet): a separator in the wrong place is worse than none.
 */
export function firstUnreadId(messages: readonly Message[], at: { unread: number; seenAt?: number | undefined }, hasOlder: boolean): number | undefined {
  if (at.unread <= 0) return undefined;
  const incoming = messages.filter((m) => m.message_type === 0);
  let first: Message | undefined;
  if (at.unread < UNREAD_CAP) first = incoming.length >= at.unread ? incoming[incoming.length - at.unread] : undefined;
  else if (at.seenAt !== undefined) first = incoming.find((m) => m.created_at > at.seenAt!);
  if (!first) return undefined;
  // The oldest held message may have unread ones before it that are not loaded yet.
  if (hasOlder && messages[0]?.id === first.id) return undefined;
  return first.id;
}

export function threadItems(
  messages: readonly Message[],
  gaps: readonly HistoryGap[],
  hasOlder: boolean,
  opts: { newFrom?: number | undefined; now?: Date } = {},
): ThreadItem[] {
  const items: ThreadItem[] = [];
  const now = opts.now ?? new Date();
  // The start marker exists only once nothing older remains, so it never sits above a prepend.
  if (!hasOlder && messages.length) items.push({ key: 'start', kind: 'start' });
  let g = 0;
  const sortedGaps = [...gaps].sort((a, b) => a.after - b.after);
  // The local day of the message before, as [start, end) in ms: a message inside it needs no Date of
  // its own (two Dates a message took 3.6 ms of a reply's task in a thread of 10,000, profiled).
  let day: [number, number] | undefined;
  for (const m of messages) {
    while (g < sortedGaps.length && sortedGaps[g]!.before <= m.id) {
      if (sortedGaps[g]!.after > 0) items.push({ key: `gap-${sortedGaps[g]!.after}`, kind: 'gap', gap: sortedGaps[g]! });
      g++;
    }
    const at = m.created_at * 1000;
    // Above the first message held only when nothing older remains (else the older page may be the same day).
    const startsDay = day ? !(at >= day[0] && at < day[1]) : !hasOlder;
    if (startsDay) items.push({ key: `day-${m.id}`, kind: 'day', label: dayLabel(m.created_at, now), at: m.created_at });
    if (m.id === opts.newFrom) items.push({ key: `new-${m.id}`, kind: 'new' });
    items.push({ key: `m${m.id}`, kind: 'message', message: m });
    if (!day || !(at >= day[0] && at < day[1])) day = localDay(at);
  }
  return items;
}

/** The local day holding `ms`, as [its midnight, the next midnight) (a day may be 23 or 25 hours long). */
function localDay(ms: number): [number, number] {
  const d = new Date(ms);
  return [new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime(), new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime()];
}
