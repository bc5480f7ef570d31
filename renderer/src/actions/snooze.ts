// Snooze presets, computed in the agent's own time zone (the Date's local fields): "tomorrow" is
// 9:00 tomorrow where the agent sits, whatever the service's zone. "Until next reply" has no
// time: the service reopens the conversation when the contact writes again.

export type SnoozePreset = 'next_reply' | 'hour' | 'tomorrow' | 'next_week';

export const snoozePresets: { value: SnoozePreset; label: string }[] = [
  { value: 'next_reply', label: 'Until next reply' },
  { value: 'hour', label: 'For 1 hour' },
  { value: 'tomorrow', label: 'Until tomorrow' },
  { value: 'next_week', label: 'Until next week' },
];

const MORNING_HOUR = 9;

function atMorning(d: Date): Date {
  const out = new Date(d);
  out.setHours(MORNING_HOUR, 0, 0, 0);
  return out;
}

/** When a preset ends, or null for "until next reply". */
export function snoozeUntil(preset: SnoozePreset, now: Date): Date | null {
  switch (preset) {
    case 'next_reply':
      return null;
    case 'hour':
      return new Date(now.getTime() + 60 * 60 * 1000);
    case 'tomorrow': {
      const d = new Date(now);
      d.setDate(d.getDate() + 1);
      return atMorning(d);
    }
    case 'next_week': {
      // The coming Monday (a week on if today is Monday), 9:00.
      const d = new Date(now);
      const toMonday = ((8 - d.getDay()) % 7) || 7;
      d.setDate(d.getDate() + toMonday);
      return atMorning(d);
    }
  }
}

/** Epoch seconds for the service (`snoozed_until`). */
export const toEpochSeconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * "Tue 9:00" within the coming week, "Tue 12 Jan 9:00" beyond it: short, and unambiguous.
 * `locale` is for tests; the app uses the agent's.
 */
export function formatSnooze(until: Date, now: Date, locale?: string): string {
  const sixDays = 6 * 24 * 60 * 60 * 1000;
  const near = until.getTime() - now.getTime() < sixDays;
  const day = new Intl.DateTimeFormat(locale, near ? { weekday: 'short' } : { weekday: 'short', day: 'numeric', month: 'short' }).format(until);
  const time = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' }).format(until);
  return `${day} ${time}`;
}

/** `<input type="datetime-local">`'s value for a Date, in local time (YYYY-MM-DDTHH:MM). */
export function toLocalInputValue(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A custom time from the date-time input (local time). Undefined if empty or malformed. */
export function fromLocalInputValue(value: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return undefined;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, 0, 0);
  // new Date rolls 31 Feb over into March: only a date that reads back the same is the one typed.
  return date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d && date.getHours() === h ? date : undefined;
}

/** Why a custom time cannot be used, or undefined if it can. */
export function customSnoozeProblem(date: Date | undefined, now: Date): string | undefined {
  if (!date) return 'Enter a date and time.';
  if (date.getTime() <= now.getTime()) return 'Choose a time in the future.';
  if (date.getFullYear() > 9999) return 'Choose an earlier date.';
  return undefined;
}
