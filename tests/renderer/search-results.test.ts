// Search that takes you there (issue 11, finding 4): snippets show the text around the match, not
// the start of the message; a contact's name gives one contact result rather than every message
// they wrote; a message hit carries the message to open at.
import { describe, expect, it } from 'vitest';
import { InboxDb } from '../../renderer/src/db/schema';
import { saveConversations } from '../../renderer/src/db/save';
import { LocalSearchIndex } from '../../renderer/src/search/local-index';
import { fromService, localResults } from '../../renderer/src/search/merge';
import { firstMatch, snippetAround } from '../../renderer/src/search/snippet';
import { conv, msg, uniqueDbName } from './fixtures';

const filler = 'We looked into the account settings and the billing history for the last quarter in detail. '.repeat(6);
const dana = { id: 77, name: 'Dana Whitfield', type: 'contact' };

async function indexed() {
  const db = new InboxDb(uniqueDbName());
  await saveConversations(db, [conv(1, { contact: { id: 77, name: 'Dana Whitfield' } }), conv(2, { contact: { id: 77, name: 'Dana Whitfield' } })]);
  await db.messages.bulkPut([
    msg(100, 1, { content: `${filler}The refund reference is RF-2291, sent to your bank today.`, sender: dana }),
    msg(101, 1, { content: 'Hello again', sender: dana }),
    msg(102, 2, { content: 'Is there an update?', sender: dana }),
    msg(103, 2, { content: 'Still waiting on this', sender: dana }),
    msg(104, 2, { message_type: 1, content: 'Dana, the refund went out.', sender: { id: 2, name: 'Sam Patel', type: 'user' } }),
  ]);
  const index = new LocalSearchIndex(db);
  await index.start();
  return index;
}

/** What the result list shows: the hits (each with its snippet, read where the index runs), as the search hook does. */
async function results(index: LocalSearchIndex, query: string) {
  return localResults(await index.search(query));
}

describe('search results', () => {
  it('a message hit deep in a long message shows the text around the match', async () => {
    const hits = await results(await indexed(), 'RF-2291');
    const hit = hits.find((h) => h.key === 'm:100')!;
    expect(hit.snippet).toContain('RF-2291');
    expect(hit.snippet.startsWith('…')).toBe(true);
    expect(hit.messageId).toBe(100);
    expect(hit.conversationId).toBe(1);
  });

  it("a contact's name gives one contact result, not every message they wrote; their text still finds messages", async () => {
    const index = await indexed();
    const byName = await results(index, 'Whitfield');
    expect(byName.filter((h) => h.kind === 'message')).toEqual([]);
    expect(byName.filter((h) => h.kind === 'contact')).toHaveLength(1);
    expect(byName.find((h) => h.kind === 'contact')).toMatchObject({ contactId: 77, title: 'Dana Whitfield' });
    // Their conversations are still results of their own (each a different thread).
    expect(byName.filter((h) => h.kind === 'conversation').map((h) => h.conversationId).sort()).toEqual([1, 2]);
    // Words of a message, with or without the name, find that message.
    expect((await results(index, 'Dana waiting')).map((h) => h.key)).toEqual(['m:103']);
    // An agent's message naming the contact in its text is found by the text.
    expect((await results(index, 'refund went out')).map((h) => h.key)).toEqual(['m:104']);
  });

  it("the service's message hits get the same snippets", () => {
    const [hit] = fromService({ payload: { conversations: [], contacts: [], messages: [msg(9, 3, { content: `${filler}Your order 55-A shipped.` })] } }, 'shipped');
    expect(hit).toMatchObject({ kind: 'message', messageId: 9, conversationId: 3 });
    expect(hit!.snippet).toMatch(/^….*shipped\.$/);
  });

  it('snippets: at word starts, accents and case folded, short texts whole', () => {
    expect(firstMatch('Café au lait, cafe noir', ['CAFE'])).toEqual({ at: 0, length: 4 });
    expect(firstMatch('the bandana is red', ['dana'])).toBeUndefined();
    expect(snippetAround('Short text', ['text'])).toBe('Short text');
    const long = `${'word '.repeat(100)}needle ${'tail '.repeat(100)}`;
    const s = snippetAround(long, ['needle'], 80);
    expect(s).toContain('needle');
    expect(s.length).toBeLessThanOrEqual(82);
    expect(s.startsWith('…') && s.endsWith('…')).toBe(true);
  });
});
