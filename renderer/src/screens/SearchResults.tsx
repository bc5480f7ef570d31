// Search results in place of the list while a query is typed: local hits at once (also offline),
// the service's merged in when it answers.
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { SearchHit } from '../search/merge';
import type { ServiceSearchState } from '../search/use-search';
import { whenIdle } from '../platform/idle';
import { useSearch } from '../search/use-search';
import { useUi } from '../state/ui';
import { relativeTime } from '../components/time';
import { UntrustedText } from '../components/UntrustedText';

const kindLabel = { conversation: 'Conversation', message: 'Message', contact: 'Contact' } as const;
const serviceNote: Record<ServiceSearchState, string> = {
  idle: '',
  searching: 'Searching the service too…',
  merged: 'Including results from the service.',
  'local-only': 'Results saved on this computer.',
};
/**
 * While the index builds (minutes on a large cache when the agent keeps working: it rests for their
 * input), local results come from the newest messages only: "0 results" must not read as "none".
 * Not said once the service's results are merged in: they cover the rest.
 */
const INDEXING_NOTE = 'Older messages on this computer are still being indexed.';

/**
 * The results pane: mounted only while a query is typed, so the index's updates re-render nothing
 * else. It reads the query itself: a keystroke re-renders this pane, not the inbox around it.
 */
export function SearchPane(props: { onOpen(hit: SearchHit): void }) {
  const typed = useUi((s) => s.searchQuery).trim();
  // The results name the query they answer (the index answers a moment after each keystroke).
  const { hits, service, query, indexing } = useSearch(typed);
  // One callback for the pane's life, so a keystroke re-renders only the rows whose hit changed.
  const onOpen = useRef(props.onOpen);
  useLayoutEffect(() => {
    onOpen.current = props.onOpen;
  });
  const open = useCallback((hit: SearchHit) => onOpen.current(hit), []);
  return <SearchResults query={query} hits={hits} service={service} indexing={indexing} onOpen={open} />;
}

/**
 * New results rendered with a keystroke's answer: those in its first screenful, and none further
 * down until the page is next idle (the rows already shown stay, in their new order). Mounting,
 * laying out and painting 50 new rows took 15-25 ms of the keystroke's frame (issue 14). Tried
 * first: the first rows alone, the rest after the frame or when idle. Rows then came and went
 * between keystrokes, and each keystroke mounted them again.
 */
const FIRST_ROWS = 16;

function useRowsInStages(hits: SearchHit[]): SearchHit[] {
  // The last answer shown whole: its rows stay on screen without waiting.
  const [whole, setWhole] = useState<SearchHit[]>();
  const onScreen = useMemo(() => new Set(whole?.map((h) => h.key)), [whole]);
  const rows = whole === hits ? hits : hits.filter((h, i) => i < FIRST_ROWS || onScreen.has(h.key));
  useEffect(() => {
    if (rows.length === hits.length) return;
    return whenIdle(() => setWhole(hits), { within: 300, otherwiseAfter: 50 });
  }, [hits, rows.length]);
  return rows;
}

/**
 * `query`: what the hits answer; undefined while the first answer is on its way. `indexing`: the
 * local index does not hold the whole cache yet.
 */
export function SearchResults(props: { query: string | undefined; hits: SearchHit[]; service: ServiceSearchState; indexing?: boolean; onOpen(hit: SearchHit): void }) {
  const rows = useRowsInStages(props.hits);
  return (
    <nav className="search-results" aria-label="Search results">
      <p className="list-status" role="status">
        {props.query === undefined ? (
          'Searching…'
        ) : (
          <>
            {props.hits.length} {props.hits.length === 1 ? 'result' : 'results'} for “{props.query}”. {[serviceNote[props.service], props.indexing && props.service !== 'merged' ? INDEXING_NOTE : ''].filter(Boolean).join(' ')}
          </>
        )}
      </p>
      <ul aria-label="Results">
        {rows.map((h) => (
          <HitRow key={h.key} hit={h} onOpen={props.onOpen} />
        ))}
      </ul>
    </nav>
  );
}

const sameHit = (a: SearchHit, b: SearchHit) =>
  a.key === b.key && a.title === b.title && a.snippet === b.snippet && a.at === b.at && a.source === b.source && a.conversationId === b.conversationId && a.contactId === b.contactId && a.messageId === b.messageId;

/** One result. The next keystroke finds mostly the same hits (new objects): those rows stay as they are. */
const HitRow = memo(
  function HitRow({ hit: h, onOpen }: { hit: SearchHit; onOpen(hit: SearchHit): void }) {
    return (
      <li>
        <button type="button" className="hit" data-source={h.source} onClick={() => onOpen(h)} disabled={h.kind === 'contact' && !h.conversationId && !h.contactId}>
          <span className="hit-top">
            <span className="chip">{kindLabel[h.kind]}</span>
            <span className="contact">
              <UntrustedText text={h.title} />
            </span>
            {h.conversationId > 0 && <span className="row-id">#{h.conversationId}</span>}
            {h.at > 0 && <time>{relativeTime(h.at)}</time>}
          </span>
          <span className="preview">
            <UntrustedText text={h.snippet} context="prose" />
          </span>
        </button>
      </li>
    );
  },
  (a, b) => a.onOpen === b.onOpen && sameHit(a.hit, b.hit),
);
