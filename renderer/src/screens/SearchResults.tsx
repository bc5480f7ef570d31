// Search results in place of the list while a query is typed: local hits at once (also offline),
// the service's merged in when it answers.
import type { SearchHit } from '../search/merge';
import type { ServiceSearchState } from '../search/use-search';
import { useSearch } from '../search/use-search';
import { relativeTime } from '../components/time';
import { UntrustedText } from '../components/UntrustedText';

const kindLabel = { conversation: 'Conversation', message: 'Message', contact: 'Contact' } as const;
const serviceNote: Record<ServiceSearchState, string> = {
  idle: '',
  searching: 'Searching the service too…',
  merged: 'Including results from the service.',
  'local-only': 'Results saved on this computer.',
};

/** The results pane: mounted only while a query is typed, so the index's updates re-render nothing else. */
export function SearchPane(props: { query: string; onOpen(hit: SearchHit): void }) {
  // The results name the query they answer (the index answers a moment after each keystroke).
  const { hits, service, query } = useSearch(props.query);
  return <SearchResults query={query} hits={hits} service={service} onOpen={props.onOpen} />;
}

/** `query`: what the hits answer; undefined while the first answer is on its way. */
export function SearchResults(props: { query: string | undefined; hits: SearchHit[]; service: ServiceSearchState; onOpen(hit: SearchHit): void }) {
  return (
    <nav className="search-results" aria-label="Search results">
      <p className="list-status" role="status">
        {props.query === undefined ? (
          'Searching…'
        ) : (
          <>
            {props.hits.length} {props.hits.length === 1 ? 'result' : 'results'} for “{props.query}”. {serviceNote[props.service]}
          </>
        )}
      </p>
      <ul aria-label="Results">
        {props.hits.map((h) => (
          <li key={h.key}>
            <button type="button" className="hit" data-source={h.source} onClick={() => props.onOpen(h)} disabled={h.kind === 'contact' && !h.conversationId && !h.contactId}>
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
        ))}
      </ul>
    </nav>
  );
}
