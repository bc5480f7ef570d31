// Avatars on list rows: the contact's initials, or their picture fetched by main (files.avatar,
// asked only for contacts the service says have one, and only for the rows on screen: 2,000
// cached rows ask for a screenful). Decorative (hidden from assistive technology: the name is the
// row's own text); the picture takes the initials' box.
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../../shared/api/records';
import { defaultView } from '../../renderer/src/conversations/view';
import { saveConversations } from '../../renderer/src/db/save';
import { toCachedConversation } from '../../renderer/src/model/normalize';
import { ConversationList } from '../../renderer/src/screens/ConversationList';
import { useUi } from '../../renderer/src/state/ui';
import { pngImage } from '../support/sample-files';
import { fakeBridge } from './fake-bridge';
import { conv } from './fixtures';
import { renderWithSession, testSession } from './support/render';
import { ListOrder } from '../../renderer/src/conversations/list-order';

beforeAll(() => {
  // jsdom has no object URLs.
  let n = 0;
  URL.createObjectURL ??= () => `blob:test/${++n}`;
  URL.revokeObjectURL ??= () => undefined;
});
beforeEach(() => useUi.setState({ view: defaultView, activeConversationId: undefined, selectedConversationId: undefined }));

const order = new ListOrder();
const options = () => within(screen.getByRole('listbox', { name: /conversations/ })).queryAllByRole('option');
const png = pngImage(8, 8).toString('base64');

/** Conversation `id` of this agent; its contact has a picture on the service when `pictured`. */
function mine(id: number, pictured: boolean): Conversation {
  const c = conv(id, { assignee: 2, lastActivityAt: 1_000 + id, contact: { id: 5_000 + id, name: `Ava Nguyen ${id}` } });
  return { ...c, meta: { ...c.meta, sender: { ...c.meta.sender!, thumbnail: pictured ? `http://service.test/avatars/${id}.png` : '' } } };
}

describe('avatars on list rows', () => {
  it('the row keeps whether its contact has a picture', () => {
    expect(toCachedConversation(mine(1, true)).contactPicture).toBe(true);
    expect(toCachedConversation(mine(2, false)).contactPicture).toBe(false);
  });

  it('initials, or the picture main fetched for a contact who has one, for the rows on screen only', async () => {
    const fake = fakeBridge({ 'files.avatar': () => ({ ok: true, value: { status: 'ok', kind: 'image', mime: 'image/png', size: 10, data: png } }) });
    const { db } = renderWithSession(<ConversationList order={order} />, { bridge: fake.bridge, session: testSession() });
    // 2,000 rows; the even ones' contacts have a picture.
    await saveConversations(db, Array.from({ length: 2_000 }, (_, i) => mine(i + 1, (i + 1) % 2 === 0)));
    await waitFor(() => expect(options()[0]?.getAttribute('aria-setsize')).toBe('2000'));
    const rows = options();
    expect(rows.length).toBeLessThan(60);

    // Row 2000 (newest) has a picture, row 1999 does not: its initials.
    const top = rows.find((r) => r.getAttribute('data-conversation-id') === '2000')!;
    const next = rows.find((r) => r.getAttribute('data-conversation-id') === '1999')!;
    await waitFor(() => expect(top.querySelector('img.avatar')?.getAttribute('src')).toMatch(/^blob:/));
    expect(top.querySelector('img.avatar')?.getAttribute('alt')).toBe('');
    expect(top.querySelector('img.avatar')?.getAttribute('aria-hidden')).toBe('true');
    const initials = next.querySelector('.avatar')!;
    expect(initials.tagName).toBe('SPAN');
    expect(initials.textContent).toBe('A1');
    expect(initials.getAttribute('aria-hidden')).toBe('true');
    // One avatar per row, and the name is the row's own text.
    for (const r of options()) expect(r.querySelectorAll('.avatar')).toHaveLength(1);
    expect(within(next).getByText('Ava Nguyen 1999')).toBeTruthy();

    // Asked of main: only contacts with a picture, only the rows rendered, each once.
    const asked = fake.callsTo('files.avatar').map((c) => (c as { contactId: number }).contactId);
    const shown = options().map((r) => Number(r.getAttribute('data-conversation-id')));
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked).size).toBe(asked.length);
    for (const contactId of asked) {
      expect((contactId - 5_000) % 2).toBe(0);
      expect(shown).toContain(contactId - 5_000);
    }
  }, 30_000);
});
