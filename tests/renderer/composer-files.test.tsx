// Files attached in the composer and not sent yet are kept with the draft (IndexedDB,
// `draftFiles`): leaving the conversation, a reload or a fresh database handle does not lose them;
// taking one out is kept too; sending drops them with the draft in the commit that queues the
// message, and they do not come back.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { Composer } from '../../renderer/src/components/Composer';
import { InboxDb } from '../../renderer/src/db/schema';
import { usePreferences } from '../../renderer/src/state/preferences';
import { useUi } from '../../renderer/src/state/ui';
import { renderWithSession, silentBridge, testSession } from './support/render';

async function renderComposer(conversationId: number, session = testSession()) {
  const r = renderWithSession(<Composer conversationId={conversationId} />, { bridge: silentBridge, session });
  const box = (await screen.findByRole('combobox', { name: /Reply to the contact|Private note/ })) as HTMLTextAreaElement;
  await waitFor(() => expect(box.disabled).toBe(false));
  return { ...r, box };
}

const file = (name: string, bytes: number[], type: string) => new File([new Uint8Array(bytes)], name, { type });
const pending = () => screen.queryByRole('list', { name: 'Files to send' });
const pendingNames = () => within(pending()!).getAllByRole('listitem').map((li) => li.textContent?.split(/\s/)[0]);

/** What a fresh handle on the same database holds as `conversationId`'s draft files. */
async function stored(name: string, conversationId: number) {
  const other = new InboxDb(name);
  const row = await other.draftFiles.get(conversationId);
  other.close();
  return row?.files.map((f) => ({ name: f.name, type: f.type, bytes: [...new Uint8Array(f.data)] }));
}

beforeEach(() => {
  usePreferences.setState({ sendKey: 'mod-enter' });
  useUi.setState({ notice: undefined, composerFocus: undefined });
});

describe('files kept with the draft', () => {
  it('survive leaving the conversation and coming back, per conversation; taking one out is kept', { timeout: 20_000 }, async () => {
    const user = userEvent.setup();
    const session = testSession();
    const first = await renderComposer(7, session);
    fireEvent.paste(first.box, { clipboardData: { files: [file('screenshot.png', [137, 80, 78, 71], 'image/png')], types: ['Files'] } });
    fireEvent.drop(first.box, { dataTransfer: { files: [file('invoice.pdf', [37, 80, 68, 70], 'application/pdf')], types: ['Files'] } });
    await waitFor(() => expect(pendingNames()).toEqual(['screenshot.png', 'invoice.pdf']));
    await waitFor(async () => expect((await stored(first.db.name, 7))?.map((f) => f.name)).toEqual(['screenshot.png', 'invoice.pdf']));
    first.unmount();

    // On disk, bytes and types as given.
    expect(await stored(first.db.name, 7)).toEqual([
      { name: 'screenshot.png', type: 'image/png', bytes: [137, 80, 78, 71] },
      { name: 'invoice.pdf', type: 'application/pdf', bytes: [37, 80, 68, 70] },
    ]);

    // Another conversation has none.
    const other = await renderComposer(8, session);
    expect(pending()).toBeNull();
    other.unmount();

    // Back: both are there, and one can be taken out.
    await renderComposer(7, session);
    await waitFor(() => expect(pendingNames()).toEqual(['screenshot.png', 'invoice.pdf']));
    await user.click(screen.getByRole('button', { name: 'Remove screenshot.png' }));
    expect(pendingNames()).toEqual(['invoice.pdf']);
    await waitFor(async () => expect((await stored(first.db.name, 7))?.map((f) => f.name)).toEqual(['invoice.pdf']));
    await user.click(screen.getByRole('button', { name: 'Remove invoice.pdf' }));
    await waitFor(async () => expect(await stored(first.db.name, 7)).toBeUndefined());
  });

  it('sending takes them with the message and drops them from the draft; they do not come back', async () => {
    const user = userEvent.setup();
    const r = await renderComposer(7);
    fireEvent.paste(r.box, { clipboardData: { files: [file('screenshot.png', [1, 2, 3], 'image/png')], types: ['Files'] } });
    await waitFor(() => expect(pendingNames()).toEqual(['screenshot.png']));
    await user.type(r.box, 'See attached');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(r.box.value).toBe(''));
    expect(pending()).toBeNull();
    const [entry] = await r.db.outbox.toArray();
    expect(entry).toMatchObject({ kind: 'message', payload: { content: 'See attached', files: [{ name: 'screenshot.png', type: 'image/png', size: 3 }] } });
    expect((await r.db.outboxFiles.get(entry!.clientId))?.files.map((f) => [...new Uint8Array(f.data)])).toEqual([[1, 2, 3]]);
    await waitFor(async () => expect(await stored(r.db.name, 7)).toBeUndefined());
  });
});
