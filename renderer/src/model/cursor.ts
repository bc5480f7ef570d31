// Cursor arithmetic, kept pure so it can be tested exhaustively: what a page of messages proves
// about a conversation's history, and how that widens or fills the slice the cache holds.
// Message ids grow over time but are shared by all conversations, so "no message between ids a
// and b" is only known from an answer of the service, never from the ids themselves.
import type { CursorState, HistoryGap } from './rows';

/** Page sizes from the spec (Pagination): a short page means the range was exhausted. */
export const PAGE_SIZE = { latest: 20, before: 20, after: 100, between: 1000 } as const;

/** What was asked for: `before`/`after` exactly as sent to the service. */
export type PageRequest =
  | { kind: 'latest' }
  | { kind: 'before'; before: number }
  | { kind: 'after'; after: number }
  | { kind: 'between'; after: number; before: number };

const TOP = Number.MAX_SAFE_INTEGER;

/** Closed id interval [from, to]; `lazy` for a gap that is filled only when scrolled to. */
interface Span {
  from: number;
  to: number;
  lazy?: boolean;
}

/** The ids the answer proves are all held now (every message of the conversation in the span). */
export function knownSpan(req: PageRequest, ids: readonly number[]): Span {
  const full = ids.length >= PAGE_SIZE[req.kind];
  const min = ids.length ? Math.min(...ids) : undefined;
  const max = ids.length ? Math.max(...ids) : undefined;
  switch (req.kind) {
    case 'latest':
      return { from: full ? min! : 1, to: TOP };
    case 'before':
      return { from: full ? min! : 1, to: req.before - 1 };
    case 'after':
      return { from: req.after + 1, to: full ? max! : TOP };
    case 'between':
      // The service includes `after` itself (id >= after AND id < before).
      return { from: req.after, to: full ? max! : req.before - 1 };
  }
}

const toSpan = (g: HistoryGap): Span => ({ from: g.after + 1, to: g.before - 1, ...(g.lazy ? { lazy: true } : {}) });
const toGap = (s: Span): HistoryGap => ({ after: s.from - 1, before: s.to + 1, ...(s.lazy ? { lazy: true } : {}) });

/** `gap` minus `known`: zero, one or two smaller gaps. */
function subtract(gap: Span, known: Span): Span[] {
  if (known.to < gap.from || known.from > gap.to) return [gap];
  const out: Span[] = [];
  const lazy = gap.lazy ? { lazy: true } : {};
  if (known.from > gap.from) out.push({ from: gap.from, to: known.from - 1, ...lazy });
  if (known.to < gap.to) out.push({ from: known.to + 1, to: gap.to, ...lazy });
  return out;
}

/**
 * The cursor after storing a page. `prev` is undefined before anything was cached. `lazyGaps`: the
 * page is a jump into the middle of the history, so a hole it leaves is filled only when scrolled to.
 */
export function applyPage(conversationId: number, prev: CursorState | undefined, req: PageRequest, ids: readonly number[], opts: { lazyGaps?: boolean } = {}): CursorState {
  const known = knownSpan(req, ids);
  const reachesStart = known.from <= 1;
  const held = prev && prev.newestId > 0 ? prev : undefined;
  if (!held) {
    return {
      conversationId,
      oldestId: ids.length ? Math.min(...ids) : 0,
      newestId: ids.length ? Math.max(...ids) : 0,
      hasOlder: prev?.hasOlder === false ? false : !reachesStart,
      gaps: [],
    };
  }
  let gaps: Span[] = held.gaps.map(toSpan);
  const lazy = opts.lazyGaps ? { lazy: true } : {};
  // An answer that does not touch what is held leaves unknown ids in between: a gap to close.
  if (known.from > held.newestId + 1 && ids.length) gaps.push({ from: held.newestId + 1, to: known.from - 1, ...lazy });
  if (known.to < held.oldestId - 1 && ids.length) gaps.push({ from: known.to + 1, to: held.oldestId - 1, ...lazy });
  gaps = gaps.flatMap((g) => subtract(g, known)).sort((a, b) => a.from - b.from);
  return {
    conversationId,
    oldestId: Math.min(held.oldestId, ...ids),
    newestId: Math.max(held.newestId, ...ids),
    hasOlder: held.hasOlder && !reachesStart,
    gaps: gaps.map(toGap),
  };
}

/** The next request that closes `gap`: `after` while it may be small, `before`+`after` when not. */
export function nextGapRequest(gap: HistoryGap, attempt: number): PageRequest {
  return attempt === 0 ? { kind: 'after', after: gap.after } : { kind: 'between', after: gap.after + 1, before: gap.before };
}
