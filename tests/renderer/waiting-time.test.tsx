// How long a contact has waited for a reply (issue 11: "cannot see how long a customer has been
// waiting"): the one figure (renderer/src/model/waiting.ts) as a table, the chip a row and the
// header show (with the agent's colour thresholds, kept per session), and the list's waiting sort,
// which must put rows in the order of the figure they show.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ConversationStatus } from '../../shared/api/records';
import { WaitingChip } from '../../renderer/src/components/WaitingChip';
import { WaitingSettings } from '../../renderer/src/components/WaitingSettings';
import type { ListView } from '../../renderer/src/conversations/view';
import { readView } from '../../renderer/src/conversations/view';
import { saveConversations } from '../../renderer/src/db/save';
import { InboxDb } from '../../renderer/src/db/schema';
import { applyIntent } from '../../renderer/src/model/intent';
import { toCachedConversation } from '../../renderer/src/model/normalize';
import { checkThresholds, formatWait, waitingFor, waitingStart } from '../../renderer/src/model/waiting';
import { WAITING_SETTINGS_KEY, readThresholds, saveThresholds } from '../../renderer/src/waiting/settings';
import { WaitingThresholdsProvider } from '../../renderer/src/waiting/use-waiting';
import { conv, uniqueDbName } from './fixtures';
import { renderWithSession, silentBridge } from './support/render';

const NOW = 1_800_000_000;
const MIN = 60;
const thresholds = { warnMinutes: 15, alertMinutes: 60 };

describe('waitingFor', () => {
  const cases: { what: string; status: ConversationStatus; waitingSince: number; want: { seconds: number; level: string } | undefined }[] = [
    { what: 'nobody is waiting (the last message is an agent\'s reply: the service cleared it)', status: 'open', waitingSince: 0, want: undefined },
    { what: 'open, the contact wrote 5 min ago', status: 'open', waitingSince: NOW - 5 * MIN, want: { seconds: 5 * MIN, level: 'ok' } },
    { what: 'open, exactly at the amber threshold', status: 'open', waitingSince: NOW - 15 * MIN, want: { seconds: 15 * MIN, level: 'warn' } },
    { what: 'open, one second below the red threshold', status: 'open', waitingSince: NOW - 60 * MIN + 1, want: { seconds: 60 * MIN - 1, level: 'warn' } },
    { what: 'open, at the red threshold', status: 'open', waitingSince: NOW - 60 * MIN, want: { seconds: 60 * MIN, level: 'alert' } },
    { what: 'pending counts like open', status: 'pending', waitingSince: NOW - 2 * 3600, want: { seconds: 2 * 3600, level: 'alert' } },
    { what: 'snoozed: still waiting (and sorted so), shown without the warning colours', status: 'snoozed', waitingSince: NOW - 3 * 3600, want: { seconds: 3 * 3600, level: 'deferred' } },
    { what: 'resolved: never waiting, even with a waiting_since an older service left', status: 'resolved', waitingSince: NOW - 3 * 3600, want: undefined },
    { what: 'a start ahead of this computer\'s clock counts as just now', status: 'open', waitingSince: NOW + 90, want: { seconds: 0, level: 'ok' } },
  ];
  it.each(cases)('$what', ({ status, waitingSince, want }) => {
    const w = waitingFor({ status, waitingSince }, NOW, thresholds);
    expect(w && { seconds: w.seconds, level: w.level }).toEqual(want);
    // The sort key is the same figure's start.
    expect(waitingStart({ status, waitingSince })).toBe(want ? waitingSince : 0);
  });

  it('the agent\'s own reply, queued and not sent yet, ends the wait on screen at once; a private note does not', () => {
    const record = conv(7, { waitingSince: NOW - 30 * MIN });
    const cached = { row: toCachedConversation(record), record };
    const sender = { id: 2, name: 'Sam' };
    const note = applyIntent(cached, { kind: 'message', content: 'internal', private: true, sender }, NOW * 1000).row!;
    expect(waitingFor(note, NOW, thresholds)?.seconds).toBe(30 * MIN);
    const reply = applyIntent(cached, { kind: 'message', content: 'On it', private: false, sender }, NOW * 1000).row!;
    expect(waitingFor(reply, NOW, thresholds)).toBeUndefined();
  });

  it('formats the wait short and exact enough to compare rows', () => {
    expect([30, 60, 59 * MIN, 60 * MIN, 125 * MIN, 24 * 3600, 26 * 3600 + 5].map(formatWait)).toEqual(['under a minute', '1 min', '59 min', '1 h', '2 h 5 min', '1 d', '1 d 2 h']);
  });
});

describe('thresholds', () => {
  it('are refused when red is not after amber, or not whole minutes', () => {
    expect(checkThresholds({ warnMinutes: 10, alertMinutes: 30 })).toBeUndefined();
    expect(checkThresholds({ warnMinutes: 30, alertMinutes: 30 })).toMatch(/longer than the amber/);
    expect(checkThresholds({ warnMinutes: 0.5, alertMinutes: 30 })).toMatch(/whole minutes/);
  });
  it('fall back to the defaults when what is stored is damaged', () => {
    expect(readThresholds({ warnMinutes: 'x', alertMinutes: 3 })).toEqual({ warnMinutes: 15, alertMinutes: 60 });
    expect(readThresholds({ warnMinutes: 40, alertMinutes: 20 })).toEqual({ warnMinutes: 15, alertMinutes: 60 });
    expect(readThresholds({ warnMinutes: 5, alertMinutes: 20 })).toEqual({ warnMinutes: 5, alertMinutes: 20 });
  });
});

describe('the chip', () => {
  it('shows the wait and takes its colour from the session\'s thresholds, which the agent can change', async () => {
    // Half a minute past 20 min: the chips' clock is shared and may be up to a second old (it is
    // taken afresh only when over a second old), so a wait of exactly 20 min read 19 min whenever
    // the test's own clock crossed a second between the two reads (CI saw it once).
    const now = Math.floor(Date.now() / 1000);
    const row = { status: 'open' as const, waitingSince: now - 20 * MIN - 30 };
    const { db } = renderWithSession(
      <WaitingThresholdsProvider>
        <WaitingChip c={row} />
      </WaitingThresholdsProvider>,
      { bridge: silentBridge },
    );
    const chip = await screen.findByTestId('waiting');
    expect(chip.textContent).toMatch(/^Waiting 20 min \(long wait\)$/);
    expect(chip.dataset.level).toBe('warn');
    expect(await saveThresholds(db, { warnMinutes: 5, alertMinutes: 10 })).toBeUndefined();
    await waitFor(() => expect(screen.getByTestId('waiting').dataset.level).toBe('alert'));
    expect((await db.settings.get(WAITING_SETTINGS_KEY))?.value).toEqual({ warnMinutes: 5, alertMinutes: 10 });
    expect(await saveThresholds(db, { warnMinutes: 10, alertMinutes: 5 })).toMatch(/longer/);
    expect(screen.getByTestId('waiting').dataset.level).toBe('alert');
  });

  it('is drawn without formatting a date for the locale; the tooltip\'s exact time is written when a pointer comes over it', async () => {
    // The first locale formatting in a window's new process loads the browser's locale and
    // time-zone data (12-25 ms measured in Chromium here): a cold open's first rows, most of them
    // waiting, paid it before they were painted (bench/README.md, twentieth stop).
    const user = userEvent.setup();
    const now = Math.floor(Date.now() / 1000);
    const formatting = [vi.spyOn(Date.prototype, 'toLocaleString'), vi.spyOn(Date.prototype, 'toLocaleDateString'), vi.spyOn(Date.prototype, 'toLocaleTimeString'), vi.spyOn(Intl, 'DateTimeFormat')];
    try {
      renderWithSession(
        <WaitingThresholdsProvider>
          <WaitingChip c={{ status: 'open', waitingSince: now - 5 * MIN }} />
          <WaitingChip c={{ status: 'open', waitingSince: now - 90 * MIN }} long />
        </WaitingThresholdsProvider>,
        { bridge: silentBridge },
      );
      const [short, long] = await screen.findAllByTestId('waiting');
      expect(long!.dataset.level).toBe('alert');
      expect(formatting.map((spy) => spy.mock.calls.length)).toEqual([0, 0, 0, 0]);
      expect(short!.title).toBe('');
      await user.hover(short!);
      expect(short!.title).toBe(`Waiting for a reply since ${new Date((now - 5 * MIN) * 1000).toLocaleString()}`);
    } finally {
      for (const spy of formatting) spy.mockRestore();
    }
  });

  it('shows nothing for a resolved conversation', () => {
    renderWithSession(<WaitingChip c={{ status: 'resolved', waitingSince: 100 }} />, { bridge: silentBridge });
    expect(screen.queryByTestId('waiting')).toBeNull();
  });
});

describe('the settings dialog', () => {
  it('sets the thresholds by keyboard; a pair out of order is refused with the reason and nothing is stored', async () => {
    const user = userEvent.setup();
    let closed = 0;
    const { db } = renderWithSession(
      <WaitingThresholdsProvider>
        <WaitingSettings onClose={() => closed++} />
      </WaitingThresholdsProvider>,
      { bridge: silentBridge },
    );
    const amber = screen.getByRole('spinbutton', { name: /Amber after/ });
    expect(document.activeElement).toBe(amber);
    await user.clear(amber);
    await user.type(amber, '90');
    await user.keyboard('{Enter}');
    expect((await screen.findByRole('alert')).textContent).toMatch(/red threshold must be longer/);
    expect(await db.settings.get(WAITING_SETTINGS_KEY)).toBeUndefined();
    expect(closed).toBe(0);
    await user.tab();
    await user.clear(screen.getByRole('spinbutton', { name: /Red after/ }));
    await user.keyboard('120{Enter}');
    await waitFor(() => expect(closed).toBe(1));
    expect((await db.settings.get(WAITING_SETTINGS_KEY))?.value).toEqual({ warnMinutes: 90, alertMinutes: 120 });
  });
});

describe('the waiting sort', () => {
  it('orders rows by the figure they show: longest wait first, and every row without one (a resolved conversation with an old waiting_since included) after them', async () => {
    const db = new InboxDb(uniqueDbName('waiting'));
    await saveConversations(db, [
      conv(1, { status: 'open', waitingSince: NOW - 10 * MIN, createdAt: 5 }),
      conv(2, { status: 'resolved', waitingSince: NOW - 5 * 3600, createdAt: 1 }),
      conv(3, { status: 'snoozed', waitingSince: NOW - 2 * 3600, createdAt: 2 }),
      conv(4, { status: 'open', waitingSince: 0, createdAt: 3 }),
      conv(5, { status: 'pending', waitingSince: NOW - 40 * MIN, createdAt: 4 }),
    ]);
    const view = (sortBy: ListView['sortBy']): ListView => ({ tab: 'all', status: 'all', sortBy });
    const longest = await readView(db, view('waiting_since_asc'), 2);
    expect(longest.map((c) => c.id)).toEqual([3, 5, 1, 2, 4]);
    const figures = longest.map((c) => waitingFor(c, NOW)?.seconds);
    expect(figures).toEqual([2 * 3600, 40 * MIN, 10 * MIN, undefined, undefined]);
    const shortest = await readView(db, view('waiting_since_desc'), 2);
    expect(shortest.map((c) => c.id)).toEqual([1, 5, 3, 2, 4]);
  });
});
