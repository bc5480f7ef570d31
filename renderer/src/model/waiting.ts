// How long the contact has been waiting for a reply: one figure for the list row, the header and
// the list's waiting sort, so what the agent reads and the order they see always agree.
//
// "Waiting" is the service's own clock (`waiting_since`, chatwoot-compat §2.1): it starts at the
// contact's first message after the last reply (or when the conversation was created) and stops at
// the next public reply by an agent or a bot. On top of it:
// - The last message is the agent's public reply: nobody is waiting (the service cleared it; the
//   agent's own reply still on its way clears it at once, `applyIntent`).
// - The last message is the agent's private note, or an activity line: the contact is still
//   waiting (a note is not an answer); the figure counts from the contact's message.
// - Resolved: not waiting, whatever an older service left in `waiting_since` (Chatwoot clears it
//   on resolve, and so does ours: a resolved conversation never sorts as waiting).
// - Snoozed: still waiting (the contact has had no answer, and the waiting sort counts it), but
//   put aside on purpose until the snooze ends, so it is shown without the warning colours.
// - Pending, open: waiting as the service says.
// - A `waiting_since` ahead of this computer's clock counts as just now.
import type { ConversationStatus } from '../../../shared/api/records';

export interface WaitingThresholds {
  /** From this many minutes the wait shows as getting long (amber). */
  warnMinutes: number;
  /** From this many minutes it shows as too long (red). */
  alertMinutes: number;
}

/** A chat team answers within minutes: amber after 15, red after an hour, until the agent sets their own. */
export const defaultWaitingThresholds: WaitingThresholds = { warnMinutes: 15, alertMinutes: 60 };

export type WaitingLevel = 'ok' | 'warn' | 'alert' | 'deferred';

export interface Waiting {
  /** Epoch seconds the wait started. */
  since: number;
  /** Seconds waited at `now` (0 when the start is ahead of the clock). */
  seconds: number;
  level: WaitingLevel;
}

interface WaitingFields {
  status: ConversationStatus;
  /** Epoch seconds; 0 when the service says nobody is waiting. */
  waitingSince: number;
}

/** When the wait started (epoch seconds), or 0 when nobody is waiting. The waiting sort orders by this. */
export function waitingStart(c: WaitingFields): number {
  if (c.status === 'resolved' || !(c.waitingSince > 0)) return 0;
  return c.waitingSince;
}

/** The colour a wait of `seconds` gets. */
export function waitingLevel(seconds: number, thresholds: WaitingThresholds, status: ConversationStatus): WaitingLevel {
  if (status === 'snoozed') return 'deferred';
  if (seconds >= thresholds.alertMinutes * 60) return 'alert';
  if (seconds >= thresholds.warnMinutes * 60) return 'warn';
  return 'ok';
}

/** The wait at `nowSeconds`, or undefined when nobody is waiting. */
export function waitingFor(c: WaitingFields, nowSeconds: number, thresholds: WaitingThresholds = defaultWaitingThresholds): Waiting | undefined {
  const since = waitingStart(c);
  if (!since) return undefined;
  const seconds = Math.max(0, Math.floor(nowSeconds - since));
  return { since, seconds, level: waitingLevel(seconds, thresholds, c.status) };
}

/** "under a minute", "12 min", "3 h 5 min", "2 d 4 h": short, and exact enough to compare two rows. */
export function formatWait(seconds: number): string {
  const m = Math.floor(seconds / 60);
  if (m < 1) return 'under a minute';
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** Thresholds as the agent may set them: whole minutes, amber before red. Anything else is refused with a reason. */
export function checkThresholds(t: WaitingThresholds): string | undefined {
  const whole = (n: number) => Number.isInteger(n) && n >= 1 && n <= 60 * 24 * 30;
  if (!whole(t.warnMinutes) || !whole(t.alertMinutes)) return 'Use whole minutes, from 1 to 43200 (30 days).';
  if (t.alertMinutes <= t.warnMinutes) return 'The red threshold must be longer than the amber one.';
  return undefined;
}
