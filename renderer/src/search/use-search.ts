// Search as the agent types: local hits on every keystroke (from the index, no database scan),
// the service's hits merged in when it answers. When the service cannot search (offline, or an
// installation without the endpoint answers not_found) the local hits stand alone, silently.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Bridge } from '../../../shared/bridge/contract';
import { useSession } from '../platform/session';
import type { LocalHit } from './local-index';
import type { SearchHit } from './merge';
import { fromService, localResults, mergeHits } from './merge';

/** The service's hits, or undefined when it could not search: never an error for the agent. */
export async function searchService(bridge: Bridge, q: string): Promise<SearchHit[] | undefined> {
  const result = await bridge.call('search.all', { q, page: 1 });
  return result.ok ? fromService(result.value, q) : undefined;
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export type ServiceSearchState = 'idle' | 'searching' | 'merged' | 'local-only';

/**
 * `query`: what the hits answer (undefined before the first answer). The index answers from its
 * worker a moment after a keystroke, so this may still be the query before the last keystroke; the
 * results say which.
 */
export function useSearch(query: string): { hits: SearchHit[]; service: ServiceSearchState; query: string | undefined; indexing: boolean } {
  const { bridge, client } = useSession();
  const index = client.search;
  useEffect(() => void index.start(), [index]);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    // Many writes land in a burst while lists sync; refresh at most once a frame.
    let frame = 0;
    const off = index.onChange(() => {
      if (!frame) frame = requestAnimationFrame(() => ((frame = 0), setVersion((v) => v + 1)));
    });
    return () => {
      off();
      cancelAnimationFrame(frame);
    };
  }, [index]);
  // version: the index changed, so the same query may find more. Answers are shown in the order they
  // were asked: an answer to an older query than the one shown is dropped, a newer one is shown even
  // if the agent has typed on since (so fast typing still shows results as it goes).
  const [answer, setAnswer] = useState<{ query: string; hits: LocalHit[] } | undefined>(undefined);
  const asked = useRef({ sent: 0, shown: 0 });
  useEffect(() => {
    const seq = ++asked.current.sent;
    // The hits may come twice: first without the texts the cache was slow to give, then whole.
    const show = (hits: LocalHit[]) => {
      if (seq < asked.current.shown) return;
      asked.current.shown = seq;
      setAnswer({ query, hits });
    };
    void index.search(query, 50, show).then(show);
  }, [index, query, version]);
  // Each hit comes with its snippet, read and cut where the index runs: nothing is read or cut here.
  const local = useMemo(() => localResults(answer?.hits ?? []), [answer]);

  const q = useDebounced(query.trim(), 250);
  const remote = useQuery({
    queryKey: ['search', q],
    enabled: q.length >= 2,
    // null, not undefined, when the service could not search: TanStack Query refuses undefined as data.
    queryFn: async () => (await searchService(bridge, q)) ?? null,
    staleTime: 60_000,
  });
  const service: ServiceSearchState = q.length < 2 ? 'idle' : remote.isFetching ? 'searching' : remote.data ? 'merged' : 'local-only';
  const hits = useMemo(() => mergeHits(local, q === answer?.query.trim() ? (remote.data ?? undefined) : undefined), [local, remote.data, q, answer?.query]);
  // Read each render: the index's changes (and its build's end) render this again (`version`).
  return { hits, service, query: answer?.query, indexing: index.building };
}
