// Colleagues (issue 11): the agent's own typing told to the service, throttled; colleagues'
// availability and who else has a conversation open, from `presence.update` (the presence
// extension's `viewing` where the service sends it, nothing without it); a colleague's typing
// shown apart from the contact's, in the thread and on the list row.
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Agent } from '../../shared/api/directory';
import type { LiveEvent } from '../../shared/api/live-events';
import { parseLiveEvent } from '../../shared/api/live-events';
import { AlsoViewing, AssigneeAvailability } from '../../renderer/src/components/ColleaguePresence';
import { RowTyping, TypingIndicator } from '../../renderer/src/components/TypingIndicator';
import { createTypingReporter, TYPING_IDLE_MS, TYPING_REPEAT_MS } from '../../renderer/src/composer/typing';
import { InboxDb } from '../../renderer/src/db/schema';
import { DirectoryContext } from '../../renderer/src/directory/use-directory';
import type { Directory } from '../../renderer/src/directory/use-directory';
import { createLiveHandler } from '../../renderer/src/live/live-handler';
import { availabilityOf, usePresence } from '../../renderer/src/live/presence';
import { useTyping } from '../../renderer/src/live/typing';
import { fakeBridge } from './fake-bridge';
import { uniqueDbName } from './fixtures';
import { readersFor } from './support/live-deps';

const ACCOUNT = 1;
const ME = 2;
const agent = (id: number, name: string, availability_status = 'offline'): Agent => ({ id, name, available_name: name, email: `${name.toLowerCase()}@acme.example`, role: 'agent', availability_status });
const directory: Directory = { inboxes: [], agents: [agent(ME, 'Sam', 'online'), agent(3, 'Alex', 'busy'), agent(4, 'Priya')], teams: [], labels: [], cannedResponses: [] };

function presence(data: Record<string, unknown>): Extract<LiveEvent, { type: 'presence.update' }> {
  const r = parseLiveEvent('presence.update', { account_id: ACCOUNT, ...data });
  if (!r.ok || r.event.type !== 'presence.update') throw new Error('not a presence event');
  return r.event;
}

afterEach(() => {
  act(() => {
    usePresence.getState().clear();
    useTyping.getState().clear();
  });
  vi.useRealTimers();
});

describe('the agent\'s own typing, told to the service', () => {
  function reporter() {
    let now = 0;
    const sent: [number, boolean, boolean][] = [];
    const timers: { at: number; fire(): void; cancelled: boolean }[] = [];
    const r = createTypingReporter({
      send: (id, on, isPrivate) => sent.push([id, on, isPrivate]),
      now: () => now,
      timer: (ms, fire) => {
        const t = { at: now + ms, fire, cancelled: false };
        timers.push(t);
        return () => void (t.cancelled = true);
      },
    });
    const advance = (ms: number) => {
      now += ms;
      for (const t of timers.filter((x) => !x.cancelled && x.at <= now)) {
        t.cancelled = true;
        t.fire();
      }
    };
    return { r, sent, advance };
  }

  it('says "on" once while the agent keeps typing, again every 20 s, and "off" 3 s after the last key', () => {
    const { r, sent, advance } = reporter();
    r.typed(7, false);
    for (let i = 0; i < 10; i++) {
      advance(1_000);
      r.typed(7, false);
    }
    expect(sent).toEqual([[7, true, false]]);
    for (let t = 10_000; t < TYPING_REPEAT_MS; t += 1_000) {
      advance(1_000);
      r.typed(7, false);
    }
    expect(sent).toEqual([[7, true, false], [7, true, false]]);
    advance(TYPING_IDLE_MS - 1);
    expect(sent).toHaveLength(2);
    advance(1);
    expect(sent.at(-1)).toEqual([7, false, false]);
    // Nothing more: an "off" is said once.
    advance(60_000);
    r.stopped();
    expect(sent).toHaveLength(3);
  });

  it('ends typing in one conversation (or mode) before starting in another, and when the message goes', () => {
    const { r, sent } = reporter();
    r.typed(7, false);
    r.typed(7, true);
    r.typed(8, true);
    r.stopped();
    expect(sent).toEqual([
      [7, true, false],
      [7, false, false],
      [7, true, true],
      [7, false, true],
      [8, true, true],
      [8, false, true],
    ]);
  });
});

describe('colleagues\' availability', () => {
  it('is the agents list\'s until a report arrives, then the report\'s (anyone not in it: offline)', () => {
    const alex = directory.agents[1]!;
    expect(availabilityOf(alex, { heard: false, users: {} })).toBe('busy');
    expect(availabilityOf({ id: 9, availability_status: 'on a break' }, { heard: false, users: {} })).toBe('offline');
    expect(availabilityOf(alex, { heard: true, users: { 3: 'online' } })).toBe('online');
    expect(availabilityOf(alex, { heard: true, users: {} })).toBe('offline');
  });

  it('a report keeps what fits and drops what does not (keys that are not ids, values that are not availabilities or ids)', () => {
    const e = presence({ users: JSON.parse('{"3": "busy", "4": "sleeping", "abc": "online", "__proto__": "online"}') as object, viewing: { '12': [3, 'x', -1, 4], nope: [3], '13': 'all' } });
    expect(e.users).toEqual({ '3': 'busy', '4': 'offline' });
    expect(e.viewing).toEqual({ '12': [3, 4] });
    // A service without the extension sends no `viewing`.
    expect(presence({ users: { '3': 'online' } }).viewing).toBeUndefined();
  });

  it('the header shows the assignee\'s availability in words, following reports', () => {
    render(
      <DirectoryContext.Provider value={directory}>
        <AssigneeAvailability assigneeId={3} />
      </DirectoryContext.Provider>,
    );
    expect(screen.getByTestId('assignee-availability').textContent).toBe('Busy');
    act(() => usePresence.getState().apply(presence({ users: { '3': 'online' } })));
    expect(screen.getByTestId('assignee-availability').textContent).toBe('Online');
    act(() => usePresence.getState().apply(presence({ users: {} })));
    expect(screen.getByTestId('assignee-availability').textContent).toBe('Offline');
  });
});

describe('who else has the conversation open', () => {
  const view = () =>
    render(
      <DirectoryContext.Provider value={directory}>
        <AlsoViewing conversationId={12} meId={ME} />
      </DirectoryContext.Provider>,
    );

  it('names the colleagues with it open, never the agent themself', () => {
    view();
    expect(screen.queryByTestId('also-viewing')).toBeNull();
    act(() => usePresence.getState().apply(presence({ users: { '2': 'online', '3': 'online' }, viewing: { '12': [2] } })));
    expect(screen.queryByTestId('also-viewing')).toBeNull();
    act(() => usePresence.getState().apply(presence({ users: { '2': 'online', '3': 'online', '4': 'online' }, viewing: { '12': [2, 3, 4], '13': [4] } })));
    expect(screen.getByTestId('also-viewing').textContent).toBe('Also viewing: Alex, Priya');
    // Alex leaves it.
    act(() => usePresence.getState().apply(presence({ users: { '3': 'online', '4': 'online' }, viewing: { '13': [4] } })));
    expect(screen.queryByTestId('also-viewing')).toBeNull();
  });

  it('without the presence extension nobody is shown, and the rest still works', () => {
    view();
    act(() => usePresence.getState().apply(presence({ users: { '3': 'online' } })));
    expect(screen.queryByTestId('also-viewing')).toBeNull();
  });

  it('arrives through the live handler; a colleague the directory does not list has it read again, once', async () => {
    const db = new InboxDb(uniqueDbName('presence'));
    await db.agents.bulkPut(directory.agents);
    const directoryChanged = vi.fn();
    const fake = fakeBridge({});
    const handler = createLiveHandler({ db, ...readersFor(fake.bridge, db), accountId: ACCOUNT, meId: ME, openConversationId: () => undefined, directoryChanged });
    await handler.handle(presence({ users: { '3': 'online' }, viewing: { '12': [3] } }));
    expect(usePresence.getState().viewing).toEqual({ 12: [3] });
    expect(directoryChanged).not.toHaveBeenCalled();
    await handler.handle(presence({ users: { '3': 'online', '77': 'online' } }));
    await handler.handle(presence({ users: { '77': 'busy' } }));
    expect(directoryChanged).toHaveBeenCalledTimes(1);
    // Another account's report is not this window's.
    await handler.handle({ ...presence({ users: { '3': 'busy' } }), accountId: 99 });
    expect(usePresence.getState().users).toEqual({ 77: 'busy' });
  });
});

describe('a colleague\'s typing, apart from the contact\'s', () => {
  it('two lines in the thread, marked apart; the row shows the colleague', () => {
    render(
      <>
        <TypingIndicator conversationId={20} />
        <RowTyping conversationId={20} />
      </>,
    );
    expect(screen.queryByTestId('row-typing')).toBeNull();
    act(() => useTyping.getState().start(20, 'contact:9', { name: 'Dana', isPrivate: false }));
    expect(screen.getByTestId('typing-contact').textContent).toBe('Dana is typing…');
    expect(screen.queryByTestId('typing-colleague')).toBeNull();
    expect(screen.getByTestId('row-typing').classList.contains('colleague')).toBe(false);
    act(() => useTyping.getState().start(20, 'user:3', { name: 'Alex', isPrivate: false, agent: true }));
    expect(screen.getByTestId('typing-contact').textContent).toBe('Dana is typing…');
    expect(screen.getByTestId('typing-colleague').textContent).toBe('Alex is replying…');
    expect(screen.getByTestId('row-typing').textContent).toBe('Alex is replying…');
    expect(screen.getByTestId('row-typing').classList.contains('colleague')).toBe(true);
    act(() => useTyping.getState().start(20, 'user:3', { name: 'Alex', isPrivate: true, agent: true }));
    expect(screen.getByTestId('typing-colleague').textContent).toBe('Alex is writing a note…');
  });
});
