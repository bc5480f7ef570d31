// The name of the performance mark the page makes when its search index first holds the whole
// cache (local-index.ts). A module of its own, importing nothing: the benchmark reads the mark from
// Node (tests/bench/scenarios/search.ts), where the index's own modules (its worker's URL) do not load.
export const SEARCH_INDEX_BUILT = 'search-index-built';
