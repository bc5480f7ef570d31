// The conversation view: cached history at once, then the service's newest page; scrolling up
// follows `before` cursors to the start; bubbles by kind; attachments; links leave only through
// main (shell.openExternal).
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bridge } from '../../shared/bridge/contract';
import { ConversationView } from '../../renderer/src/screens/ConversationView';
import { saveConversations } from '../../renderer/src/db/save';
import { recordPage } from '../../renderer/src/sync/history';
import { useUi } from '../../renderer/src/state/ui';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { conv, msg } from './fixtures';
import { demoBridge } from './support/demo-bridge';
import type { DemoBridge } from './support/demo-bridge';
import { renderWithSession, silentBridge, testSession } from './support/render';

let svc: DemoService;
let demo: DemoBridge;
beforeAll(async () => {
  svc = await demoService();
  demo = await demoBridge(svc);
});
afterAll(() => svc.close());
beforeEach(() => useUi.setState({ notice: undefined, contactPanelOpen: false }));

const log = () => screen.getByRole('log', { name: 'Messages' });
const renderedIds = () => within(log()).queryAllByRole('article').map((a) => Number(a.getAttribute('data-message-id')));

describe('ConversationView', () => {
  it('shows cached history at once, with a bubble per kind and attachments', async () => {
    const { db } = renderWithSession(<ConversationView conversationId={5} />, { bridge: silentBridge });
    await saveConversations(db, [conv(5, { contact: { id: 9, name: 'Ava Nguyen' } })]);
    await recordPage(db, 5, { kind: 'latest' }, [
      msg(1, 5, { content: 'Hi, I was **charged twice**', sender: { id: 9, name: 'Ava Nguyen' } }),
      msg(2, 5, { message_type: 2, content: 'Assigned to Sam Patel by Alex Rivera' }),
      msg(3, 5, { message_type: 1, private: true, content: 'Refund approved by finance.', sender: { id: 2, name: 'Sam Patel' } }),
      msg(4, 5, { message_type: 1, content: 'Refunded, see [the docs](https://example.com/refunds)', sender: { id: 2, name: 'Sam Patel' }, attachments: [{ id: 1, file_type: 'file', extension: 'pdf', file_size: 1_048_576, data_url: 'https://files.example/1/invoice.pdf' }] }),
    ]);
    await waitFor(() => expect(renderedIds()).toEqual([1, 2, 3, 4]));
    expect(screen.getByRole('heading', { name: 'Ava Nguyen' })).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Incoming message from Ava Nguyen' }).querySelector('strong')?.textContent).toBe('charged twice');
    expect(screen.getByRole('article', { name: 'Activity' }).textContent).toContain('Assigned to Sam Patel');
    expect(screen.getByRole('article', { name: 'Private note from Sam Patel' })).toBeTruthy();
    const reply = screen.getByRole('article', { name: 'Reply from Sam Patel' });
    expect(within(reply).getByRole('list', { name: 'Attachments' }).textContent).toMatch(/file.*invoice\.pdf.*1\.0 MB/);
    // Asked of main (which never answers here): the card says it is on its way.
    expect(within(reply).getByRole('list', { name: 'Attachments' }).textContent).toContain('Fetching…');
    // Only the newest page is cached and it was short: that is the whole history.
    expect(screen.getByTestId('history-start')).toBeTruthy();
  });

  it('opens links through main, and tells the agent when main refuses one', async () => {
    const user = userEvent.setup();
    const calls: unknown[] = [];
    const bridge = {
      call: async (name: string, input: { url?: string }) => {
        calls.push([name, input]);
        if (name !== 'shell.openExternal') return new Promise(() => undefined);
        return input.url?.startsWith('https:') ? { ok: true, value: { opened: true, url: input.url } } : { ok: false, error: { kind: 'invalid_input', message: 'no' } };
      },
      on: () => () => undefined,
    } as unknown as Bridge;
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const { db } = renderWithSession(<ConversationView conversationId={6} />, { bridge });
    await recordPage(db, 6, { kind: 'latest' }, [msg(1, 6, { content: 'See https://example.com/a and [mail](mailto:x@example.com)' })]);
    await user.click(await screen.findByRole('link', { name: 'https://example.com/a' }));
    expect(calls).toContainEqual(['shell.openExternal', { url: 'https://example.com/a' }]);
    expect(open).not.toHaveBeenCalled(); // main opened it
    await user.click(screen.getByRole('link', { name: 'mail' }));
    await waitFor(() => expect(useUi.getState().notice?.text).toMatch(/cannot be opened/));
    open.mockRestore();
  });

  it('loads the newest page, then older pages with before as the agent scrolls up, to the start', async () => {
    const long = svc.db.prepare('SELECT c.display_id AS id, COUNT(m.id) AS n FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE c.account_id = ? GROUP BY c.id HAVING n > 150 ORDER BY n LIMIT 1').get(svc.creds.accountId) as { id: number; n: number };
    const all = await demo.bridge.call('messages.list', { conversationId: long.id, after: 0, before: 2 ** 31 - 1 });
    const allIds = all.ok ? all.value.payload.map((m) => m.id) : [];
    expect(allIds.length).toBe(long.n);

    const { db } = renderWithSession(<ConversationView conversationId={long.id} />, { bridge: demo.bridge, session: { ...demo.session, id: testSession().id } });
    await waitFor(() => expect(renderedIds().at(-1)).toBe(allIds.at(-1)), { timeout: 5000 });
    expect(demo.calls.filter((c) => c.name === 'messages.list').at(-1)?.input).toEqual({ conversationId: long.id });

    const before = demo.calls.length;
    for (let i = 0; i < 40 && log().getAttribute('data-has-older') !== 'false'; i++) {
      const el = log();
      el.scrollTop = 0;
      fireEvent.scroll(el);
      await waitFor(() => expect(el.getAttribute('aria-busy')).toBe('false'));
    }
    expect(log().getAttribute('data-has-older')).toBe('false');
    const cursors = demo.calls.slice(before).filter((c) => c.name === 'messages.list').map((c) => c.input as { before?: number });
    expect(cursors.length).toBe(Math.ceil((long.n - 20) / 20) + (long.n % 20 === 0 ? 1 : 0));
    expect(cursors.every((c) => typeof c.before === 'number')).toBe(true);
    const held = await db.messages.where('[conversation_id+id]').between([long.id, 0], [long.id, Infinity]).primaryKeys();
    expect(held).toEqual(allIds);
    expect(await db.cursors.get(long.id)).toMatchObject({ oldestId: allIds[0], newestId: allIds.at(-1), hasOlder: false, gaps: [] });
  }, 60_000);
});
