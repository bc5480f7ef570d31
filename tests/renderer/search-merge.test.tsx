// Search merges the service's results into the local ones when the service can search, and falls
// back to local results silently when it cannot (not_found from a service without the endpoint,
// or no network). A fake bridge stands in for main.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SearchResults as ServiceResults } from '../../shared/api/search';
import { searchResultsSchema } from '../../shared/api/search';
import type { Bridge } from '../../shared/bridge/contract';
import { saveConversations } from '../../renderer/src/db/save';
import type { SearchHit } from '../../renderer/src/search/merge';
import { fromService, mergeHits } from '../../renderer/src/search/merge';
import { useSearch } from '../../renderer/src/search/use-search';
import { SearchResults } from '../../renderer/src/screens/SearchResults';
import { conv, msg } from './fixtures';
import { renderWithSession } from './support/render';

const local = (key: string, title = key): SearchHit => ({ key, kind: key.startsWith('m') ? 'message' : 'conversation', conversationId: 1, title, snippet: '', at: 0, source: 'local' });

const serviceAnswer: ServiceResults = searchResultsSchema.parse({
  payload: {
    conversations: [{ id: 1, created_at: 5, contact: { id: 10, name: 'Ava Nguyen' }, message: { id: 100, content: 'refund please', conversation_id: 1, message_type: 0, created_at: 5 } }, { id: 42, created_at: 6, contact: { id: 11, name: 'Omar Haddad' } }],
    messages: [{ id: 900, content: 'Refund issued last week', conversation_id: 77, message_type: 1, created_at: 9, sender: { id: 2, name: 'Sam Patel' } }],
    contacts: [{ id: 11, name: 'Omar Haddad', email: 'omar@oak.example' }],
  },
});

describe('mergeHits', () => {
  it('keeps local hits first, marks the ones the service confirmed, and appends only new service hits', () => {
    const merged = mergeHits([local('c:1'), local('m:5')], fromService(serviceAnswer));
    expect(merged.map((h) => [h.key, h.source])).toEqual([
      ['c:1', 'both'],
      ['m:5', 'local'],
      ['c:42', 'service'],
      ['m:900', 'service'],
      ['p:11', 'service'],
    ]);
    expect(merged.find((h) => h.key === 'm:900')).toMatchObject({ conversationId: 77, title: 'Sam Patel', snippet: 'Refund issued last week' });
  });

  it('without a service answer is the local hits', () => {
    expect(mergeHits([local('c:1')], undefined)).toEqual([local('c:1')]);
  });
});

function SearchHarness({ q }: { q: string }) {
  const { hits, service } = useSearch(q);
  return <SearchResults query={q} hits={hits} service={service} onOpen={() => undefined} />;
}

function fakeBridge(answer: (q: unknown) => unknown) {
  const asked: unknown[] = [];
  const bridge = {
    call: async (name: string, input: unknown) => {
      if (name !== 'search.all') return { ok: false, error: { kind: 'network', message: 'unused' } };
      asked.push(input);
      return answer(input);
    },
    on: () => () => undefined,
  } as unknown as Bridge;
  return { bridge, asked };
}

async function seed(db: Parameters<typeof saveConversations>[0]) {
  await saveConversations(db, [conv(1, { contact: { id: 10, name: 'Ava Nguyen' }, preview: 'I need a refund' }), conv(2, { contact: { id: 12, name: 'Bo Chen' }, preview: 'hello' })]);
  await db.messages.put(msg(100, 1, { content: 'refund please' }));
}

const resultKeys = () =>
  within(screen.getByRole('list', { name: 'Results' }))
    .queryAllByRole('button')
    .map((b) => `${b.querySelector('.contact')?.textContent}|${b.getAttribute('data-source')}`);

describe('useSearch', () => {
  it('shows local hits at once and merges the service hits when they arrive', async () => {
    const { bridge, asked } = fakeBridge(() => ({ ok: true, value: serviceAnswer }));
    const { db } = renderWithSession(<SearchHarness q="refund" />, { bridge });
    await seed(db);
    await waitFor(() => expect(resultKeys().some((k) => k.startsWith('Ava Nguyen|'))).toBe(true));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Including results from the service'));
    // Local hits first (in the index's ranking), then only what the service alone found. (The index
    // answers asynchronously, and indexes the seeded rows as they commit: wait for its answer to them.)
    await waitFor(() => expect(resultKeys().slice(0, 2).sort()).toEqual(['Ava Nguyen|both', 'Message in #1|local']));
    expect(resultKeys().slice(2)).toEqual(['Omar Haddad|service', 'Sam Patel|service', 'Omar Haddad|service']);
    expect(asked).toEqual([{ q: 'refund', page: 1 }]);
  });

  it.each([
    ['not_found (a service without the search endpoint)', { ok: false, error: { kind: 'not_found', message: 'Not found', status: 404 } }],
    ['network (offline)', { ok: false, error: { kind: 'network', message: 'The service could not be reached.' } }],
  ])('degrades to local results silently on %s', async (_name, failure) => {
    const { bridge, asked } = fakeBridge(() => failure);
    const { db } = renderWithSession(<SearchHarness q="refund" />, { bridge });
    await seed(db);
    await waitFor(() => expect(asked).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Results saved on this computer'));
    await waitFor(() => expect(resultKeys().sort()).toEqual(['Ava Nguyen|local', 'Message in #1|local']));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.body.textContent).not.toMatch(/could not be reached|Not found/);
  });
});
