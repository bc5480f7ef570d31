// Snooze presets in the agent's local time, the custom time's parsing and checks, and how the
// result reads. Dates are built from local fields, so the assertions hold in any time zone.
import { describe, expect, it } from 'vitest';
import { customSnoozeProblem, formatSnooze, fromLocalInputValue, snoozeUntil, toEpochSeconds, toLocalInputValue } from '../../renderer/src/actions/snooze';
import { snoozeText } from '../../renderer/src/components/ConversationHeader';

// Saturday 21 November 2026, 15:40 local time.
const saturday = new Date(2026, 10, 21, 15, 40);
const local = (d: Date | null) => d && [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getDay()];

describe('snooze presets', () => {
  it('until next reply has no time; an hour is an hour from now', () => {
    expect(snoozeUntil('next_reply', saturday)).toBeNull();
    expect(snoozeUntil('hour', saturday)!.getTime() - saturday.getTime()).toBe(3_600_000);
  });

  it('tomorrow is 9:00 tomorrow, across a month end too', () => {
    expect(local(snoozeUntil('tomorrow', saturday))).toEqual([2026, 11, 22, 9, 0, 0]);
    expect(local(snoozeUntil('tomorrow', new Date(2026, 11, 31, 23, 30)))).toEqual([2027, 1, 1, 9, 0, 5]);
  });

  it('next week is the coming Monday 9:00, a full week on when today is Monday', () => {
    expect(local(snoozeUntil('next_week', saturday))).toEqual([2026, 11, 23, 9, 0, 1]);
    expect(local(snoozeUntil('next_week', new Date(2026, 10, 23, 8, 0)))).toEqual([2026, 11, 30, 9, 0, 1]);
    expect(local(snoozeUntil('next_week', new Date(2026, 10, 22, 20, 0)))).toEqual([2026, 11, 23, 9, 0, 1]);
  });

  it('become epoch seconds for the service', () => {
    expect(toEpochSeconds(new Date(Date.UTC(2026, 10, 22, 9, 0)))).toBe(Date.UTC(2026, 10, 22, 9, 0) / 1000);
  });
});

describe('custom time', () => {
  it('round-trips the date-time field in local time', () => {
    const d = new Date(2026, 0, 5, 7, 3);
    expect(toLocalInputValue(d)).toBe('2026-01-05T07:03');
    expect(fromLocalInputValue('2026-01-05T07:03')?.getTime()).toBe(d.getTime());
  });

  it('refuses malformed and impossible dates, and times in the past', () => {
    expect(fromLocalInputValue('')).toBeUndefined();
    expect(fromLocalInputValue('2026-02-31T09:00')).toBeUndefined();
    expect(fromLocalInputValue('tomorrow')).toBeUndefined();
    expect(customSnoozeProblem(undefined, saturday)).toBe('Enter a date and time.');
    expect(customSnoozeProblem(new Date(2026, 10, 21, 15, 0), saturday)).toBe('Choose a time in the future.');
    expect(customSnoozeProblem(new Date(2026, 10, 21, 16, 0), saturday)).toBeUndefined();
  });
});

describe('how it reads', () => {
  it('weekday and time within the week, the date beyond it', () => {
    expect(formatSnooze(new Date(2026, 10, 24, 9, 0), saturday, 'en-GB')).toBe('Tue 9:00');
    expect(formatSnooze(new Date(2026, 10, 24, 9, 0), saturday, 'en-US')).toBe('Tue 9:00 AM');
    expect(formatSnooze(new Date(2026, 11, 8, 9, 0), saturday, 'en-GB')).toBe('Tue 8 Dec 9:00');
  });

  it('the header says until when, or until the next reply', () => {
    const until = new Date(2026, 10, 23, 9, 0);
    expect(snoozeText({ status: 'snoozed', snoozed_until: until.toISOString() }, saturday)).toBe(`Snoozed until ${formatSnooze(until, saturday)}`);
    expect(snoozeText({ status: 'snoozed', snoozed_until: null }, saturday)).toBe('Snoozed until the next reply');
    expect(snoozeText({ status: 'open', snoozed_until: null }, saturday)).toBeUndefined();
  });
});
