// Do not disturb: a weekly schedule read in the agent's time zone, and "pause until". Pure: the
// instant and the zone are arguments, so a schedule across midnight or read in another zone is
// tested without touching the machine's clock or zone.
import type { NotifySettings, QuietPeriod } from './settings';

const weekdays: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const formats = new Map<string, Intl.DateTimeFormat>();

/** Weekday (0 Sunday) and minute of the day at `at` in `timeZone` (UTC when the zone is unknown). */
export function localTime(at: number, timeZone: string): { day: number; minute: number } {
  let format = formats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    } catch {
      format = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    }
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(at)).map((p) => [p.type, p.value]));
  return { day: weekdays[parts.weekday ?? 'Sun'] ?? 0, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether `period` covers this local weekday and minute. A period ending before it starts runs into the next day. */
export function inPeriod(period: QuietPeriod, day: number, minute: number): boolean {
  const start = minutes(period.start);
  const end = minutes(period.end);
  if (start === end) return period.days.includes(day);
  if (start < end) return period.days.includes(day) && minute >= start && minute < end;
  return (period.days.includes(day) && minute >= start) || (period.days.includes((day + 6) % 7) && minute < end);
}

type Dnd = NotifySettings['dnd'];
/** A message's time comes in whole seconds. */
const AT_PRECISION_MS = 1_000;

/** Do not disturb is on at `at`: paused, or inside a scheduled period. */
export function isQuiet(dnd: Dnd, at: number): boolean {
  if (dnd.pausedUntil !== null && at < dnd.pausedUntil && (dnd.pausedFrom === null || at >= dnd.pausedFrom)) return true;
  if (!dnd.schedule.length) return false;
  const { day, minute } = localTime(at, dnd.timeZone);
  return dnd.schedule.some((p) => inPeriod(p, day, minute));
}

/**
 * Whether something written at `writtenAt` (whole seconds, from the service) was written while do
 * not disturb was on, judged against the settings on record rather than against what the app saw
 * happen (it may have decided nothing during a short pause). A pause counts only when its start is
 * known.
 */
export function writtenWhileQuiet(dnd: Dnd, writtenAt: number): boolean {
  // The second it was written in overlaps the pause (a short one may lie inside that second).
  const last = writtenAt + AT_PRECISION_MS - 1;
  if (dnd.pausedFrom !== null && dnd.pausedUntil !== null && writtenAt < dnd.pausedUntil && last >= dnd.pausedFrom) return true;
  const scheduleOnly = { ...dnd, pausedUntil: null };
  return isQuiet(scheduleOnly, writtenAt) || isQuiet(scheduleOnly, last);
}

/** Pause for `ms` from `now`. */
export const pauseFor = (dnd: Dnd, now: number, ms: number): Dnd => ({ ...dnd, pausedFrom: now, pausedUntil: now + ms });
/** End the pause now, keeping it on record (see `writtenWhileQuiet`). */
export const resume = (dnd: Dnd, now: number): Dnd => ({ ...dnd, pausedUntil: Math.min(now, dnd.pausedUntil ?? now) });
