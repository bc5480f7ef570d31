// The composer: drafts per conversation that survive a remount and a fresh database handle,
// `/` canned responses, `@` mentions in notes, and the send key preference. Sending queues the
// message in the outbox; the box and the draft clear only once that commit went through.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Dexie from 'dexie';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Composer, isSendKey } from '../../renderer/src/components/Composer';
import { InboxDb } from '../../renderer/src/db/schema';
import { usePreferences } from '../../renderer/src/state/preferences';
import { useUi } from '../../renderer/src/state/ui';
import { renderWithSession, silentBridge, testSession } from './support/render';

const canned = [
  { id: 1, short_code: 'greeting', content: 'Hi there! How can I help?' },
  { id: 2, short_code: 'refund-policy', content: 'Full refunds within 30 days.' },
  { id: 3, short_code: 'hours', content: 'We answer Monday to Friday.' },
];
const agents = [
  { id: 3, name: 'Jordan Lee', available_name: 'Jordan Lee', email: 'jordan@acme.example', role: 'agent', availability_status: 'online' },
  { id: 4, name: 'Priya Shah', available_name: 'Priya Shah', email: 'priya@acme.example', role: 'agent', availability_status: 'online' },
];

async function renderComposer(conversationId = 7, session = testSession()) {
  const r = renderWithSession(<Composer conversationId={conversationId} />, { bridge: silentBridge, session });
  await r.db.cannedResponses.bulkPut(canned);
  await r.db.agents.bulkPut(agents);
  const box = await screen.findByRole('combobox', { name: /Reply to the contact|Private note/ });
  await waitFor(() => expect((box as HTMLTextAreaElement).disabled).toBe(false));
  return { ...r, box: box as HTMLTextAreaElement };
}

beforeEach(() => {
  usePreferences.setState({ sendKey: 'mod-enter' });
  useUi.setState({ notice: undefined, composerFocus: undefined });
});

describe('drafts', () => {
  it('survive unmounting and a fresh database handle, per conversation', async () => {
    const user = userEvent.setup();
    const session = testSession();
    const first = await renderComposer(7, session);
    await user.type(first.box, 'Half-written reply');
    await user.click(screen.getByRole('button', { name: 'Private note' }));
    first.unmount();

    // On disk, not only in memory: a new handle on the same database sees it.
    await waitFor(async () => {
      const other = new InboxDb(first.db.name);
      expect(await other.drafts.get(7)).toMatchObject({ text: 'Half-written reply', mode: 'note' });
      other.close();
    });

    const again = await renderComposer(7, session);
    expect(again.box.value).toBe('Half-written reply');
    expect(screen.getByRole('button', { name: 'Private note' }).getAttribute('aria-pressed')).toBe('true');
    again.unmount();

    // Another conversation has its own (empty) draft.
    const other = await renderComposer(8, session);
    expect(other.box.value).toBe('');
  });

  it('clearing the text of a reply removes the draft', async () => {
    const user = userEvent.setup();
    const r = await renderComposer();
    await user.type(r.box, 'abc');
    await waitFor(async () => expect(await r.db.drafts.get(7)).toBeDefined());
    await user.clear(r.box);
    r.unmount();
    await waitFor(async () => expect(await r.db.drafts.get(7)).toBeUndefined());
  });
});

describe('canned responses with /', () => {
  it('lists matches for the typed short code and inserts the chosen one with Enter', async () => {
    const user = userEvent.setup();
    const { box } = await renderComposer();
    await user.type(box, 'Hello! /ref');
    const list = screen.getByRole('listbox', { name: 'Canned responses' });
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual(['/refund-policyFull refunds within 30 days.']);
    await user.keyboard('{Enter}');
    expect(box.value).toBe('Hello! Full refunds within 30 days.');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('moves with arrows, closes with Escape, and does not trigger inside a word', async () => {
    const user = userEvent.setup();
    const { box } = await renderComposer();
    await user.type(box, '/');
    const options = within(screen.getByRole('listbox', { name: 'Canned responses' })).getAllByRole('option');
    expect(options.map((o) => o.querySelector('.suggestion-label')?.textContent)).toEqual(['/greeting', '/hours', '/refund-policy']);
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}{Enter}');
    expect(box.value).toBe('We answer Monday to Friday.');
    await user.type(box, ' and/or');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.type(box, ' /gre');
    expect(screen.getByRole('listbox', { name: 'Canned responses' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.value).toBe('We answer Monday to Friday. and/or /gre');
  });
});

describe('@mentions', () => {
  it('insert the mention markup in a private note', async () => {
    const user = userEvent.setup();
    const { box } = await renderComposer();
    await user.click(screen.getByRole('button', { name: 'Private note' }));
    await user.type(box, 'Could @pri');
    expect(within(screen.getByRole('listbox', { name: 'Agents' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['Priya Shahpriya@acme.example']);
    await user.keyboard('{Tab}');
    await user.type(box, 'look?');
    expect(box.value).toBe('Could [@Priya Shah](mention://user/4/Priya%20Shah) look?');
  });

  it('are not offered in a reply to the contact', async () => {
    const user = userEvent.setup();
    const { box } = await renderComposer();
    await user.type(box, 'Hi @jo');
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});

describe('send key preference', () => {
  it('decides which chord sends', () => {
    const key = (e: Partial<KeyboardEvent>) => ({ key: 'Enter', shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...e });
    expect(isSendKey(key({}), 'enter')).toBe(true);
    expect(isSendKey(key({ shiftKey: true }), 'enter')).toBe(false);
    expect(isSendKey(key({}), 'mod-enter')).toBe(false);
    expect(isSendKey(key({ ctrlKey: true }), 'mod-enter')).toBe(true);
    expect(isSendKey(key({ metaKey: true }), 'mod-enter')).toBe(true);
    expect(isSendKey(key({ key: 'a', ctrlKey: true }), 'mod-enter')).toBe(false);
    // Enter that confirms an input method's composition never sends.
    expect(isSendKey({ ...key({}), isComposing: true }, 'enter')).toBe(false);
    expect(isSendKey({ ...key({ ctrlKey: true }), isComposing: true }, 'mod-enter')).toBe(false);
  });

  it('with Ctrl+Enter: Enter breaks the line, Ctrl+Enter queues the message and clears the box and the draft', async () => {
    const user = userEvent.setup();
    const { box, db } = await renderComposer();
    await user.type(box, 'line one{Enter}line two');
    expect(box.value).toBe('line one\nline two');
    expect(await db.outbox.count()).toBe(0);
    // Another write holds the tables, so the send waits in line while the draft's timed save
    // (300 ms after the last key) comes due: that save must not land after the send dropped it.
    const blocker = db.transaction('rw', db.outbox, db.drafts, () => Dexie.waitFor(new Promise((r) => setTimeout(r, 450))));
    await user.keyboard('{Control>}{Enter}{/Control}');
    await blocker;
    await waitFor(() => expect(box.value).toBe(''));
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ kind: 'message', state: 'queued', conversationId: 7, payload: { content: 'line one\nline two', private: false } });
    expect(await db.drafts.get(7)).toBeUndefined();
  });

  it('with Enter: Enter submits, Shift+Enter breaks the line; a note goes as private', async () => {
    const user = userEvent.setup();
    act(() => usePreferences.setState({ sendKey: 'enter' }));
    const { box, db } = await renderComposer();
    await user.click(screen.getByRole('button', { name: 'Private note' }));
    await user.type(box, 'one{Shift>}{Enter}{/Shift}two');
    expect(box.value).toBe('one\ntwo');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(box.value).toBe(''));
    expect((await db.outbox.toArray()).map((e) => e.payload)).toEqual([{ kind: 'message', content: 'one\ntwo', private: true, sender: { id: 2, name: 'Sam Patel' } }]);
  });

  it('keeps the text and the draft when the message cannot be queued, and says so', async () => {
    const user = userEvent.setup();
    const { box, db } = await renderComposer();
    await user.type(box, 'must not be lost');
    await waitFor(async () => expect((await db.drafts.get(7))?.text).toBe('must not be lost'));
    const add = vi.spyOn(db.outbox, 'add').mockRejectedValueOnce(new Error('QuotaExceededError'));
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(useUi.getState().notice?.text).toMatch(/could not be queued.*draft is kept/));
    add.mockRestore();
    expect(box.value).toBe('must not be lost');
    expect(await db.outbox.count()).toBe(0);
    expect(await db.messages.count()).toBe(0);
    expect((await db.drafts.get(7))?.text).toBe('must not be lost');
  });

  it('refuses blank and over-long messages without queueing anything', async () => {
    const user = userEvent.setup();
    const { box, db } = await renderComposer();
    await user.type(box, '   ');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await db.outbox.count()).toBe(0);
    fireEvent.change(box, { target: { value: 'x'.repeat(150_001) } });
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(useUi.getState().notice?.text).toMatch(/at most 150,000 characters/));
    expect(await db.outbox.count()).toBe(0);
    expect(box.value.length).toBe(150_001);
  });

  it('is chosen in the composer and remembered', async () => {
    const user = userEvent.setup();
    await renderComposer();
    await user.selectOptions(screen.getByLabelText('Send with'), 'enter');
    expect(usePreferences.getState().sendKey).toBe('enter');
    expect(JSON.parse(localStorage.getItem('inbox.preferences')!).state.sendKey).toBe('enter');
  });
});

describe('focus requests', () => {
  it('r / n put the caret in the composer in reply / note mode', async () => {
    const { box } = await renderComposer();
    act(() => useUi.getState().focusComposer('note'));
    await waitFor(() => expect(document.activeElement).toBe(box));
    expect(screen.getByRole('button', { name: 'Private note' }).getAttribute('aria-pressed')).toBe('true');
    act(() => useUi.getState().focusComposer('reply'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reply' }).getAttribute('aria-pressed')).toBe('true'));
  });
});
